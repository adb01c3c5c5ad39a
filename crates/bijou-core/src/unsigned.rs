//! The one implementation of the unsigned format, stamped out per width.
//!
//! Every width shares the same rules and differs only in its integer type, so
//! a single macro generates `bijou32`, `bijou64` and `bijou128`. The items are
//! `const fn` where the language allows it, which rules out generics.

/// Generates one unsigned width module. `$example` is a value whose encoding
/// `$example_bytes` is quoted in the generated docs and doctests.
macro_rules! unsigned_width {
    (
        $(#[$module_doc:meta])*
        mod $name:ident: $uint:ty, example $example:literal => $example_bytes:tt
    ) => {
        $(#[$module_doc])*
        pub mod $name {
            use crate::{BatchDecodeError, DecodeError, EncodeError};

            /// Number of multi-byte tiers: one per byte of the integer type.
            const TIERS: usize = core::mem::size_of::<$uint>();

            #[doc = concat!("Longest encoding in bytes (tag plus ", stringify!($uint), "'s byte width).")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("let mut out = [0u8; ", stringify!($name), "::MAX_BYTES];")]
            #[doc = concat!("let n = ", stringify!($name), "::encode_into(", stringify!($uint), "::MAX, &mut out).unwrap();")]
            #[doc = concat!("assert_eq!(n, ", stringify!($name), "::MAX_BYTES);")]
            /// ```
            pub const MAX_BYTES: usize = 1 + TIERS;

            /// Smallest tag that starts a multi-byte value; smaller first
            /// bytes are values on their own.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("let below = ", stringify!($name), "::THRESHOLD as ", stringify!($uint), " - 1;")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::encoded_len(below), 1);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::encoded_len(below + 1), 2);")]
            /// ```
            pub const THRESHOLD: u8 = (256 - TIERS) as u8;

            /// `OFFSETS[t]` is the first value of tier `t` (0 for the
            /// single-byte tier); a tier-`t` value is `OFFSETS[t]` plus a
            /// `t`-byte big-endian payload.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("let t2 = ", stringify!($name), "::OFFSETS[2];")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::encoded_len(t2 - 1), 2);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::encoded_len(t2), 3);")]
            /// ```
            pub const OFFSETS: [$uint; TIERS + 1] = {
                let mut offsets = [0; TIERS + 1];
                offsets[1] = THRESHOLD as $uint;
                let mut tier = 2;
                while tier <= TIERS {
                    // Tier t-1 spans 256^(t-1) values.
                    offsets[tier] = offsets[tier - 1] + ((1 as $uint) << (8 * (tier - 1)));
                    tier += 1;
                }
                offsets
            };

            /// [`OFFSETS`] padded to a power of two, so that indexing it
            /// with `tier & OFFSET_INDEX_MASK` needs no bounds check.
            const PADDED_OFFSETS: [$uint; (TIERS + 1).next_power_of_two()] = {
                let mut table = [0 as $uint; (TIERS + 1).next_power_of_two()];
                let mut tier = 0;
                while tier <= TIERS {
                    table[tier] = OFFSETS[tier];
                    tier += 1;
                }
                table
            };

            /// First value of `tier` (which must be at most `TIERS`).
            #[inline(always)]
            const fn offset_of(tier: usize) -> $uint {
                PADDED_OFFSETS[tier & (PADDED_OFFSETS.len() - 1)]
            }

            /// Tier of the smallest value of each bit length, indexed by bit
            /// length (1..=BITS; `tier` never asks for 0, index 0 is
            /// padding). A bit-length range `[2^(L-1), 2^L)` is
            /// narrower than every multi-byte tier, so it meets at most two
            /// tiers: this one and the next.
            const TIER_BY_BIT_LENGTH: [u8; <$uint>::BITS as usize + 1] = {
                let mut table = [0u8; <$uint>::BITS as usize + 1];
                let mut length = 1;
                while length <= <$uint>::BITS as usize {
                    table[length] = tier_by_search((1 as $uint) << (length - 1)) as u8;
                    length += 1;
                }
                table
            };

            /// Last value of the tier in [`TIER_BY_BIT_LENGTH`], so that one
            /// comparison decides between it and the next tier.
            const TIER_END_BY_BIT_LENGTH: [$uint; <$uint>::BITS as usize + 1] = {
                let mut table = [0 as $uint; <$uint>::BITS as usize + 1];
                let mut length = 0;
                while length <= <$uint>::BITS as usize {
                    let tier = TIER_BY_BIT_LENGTH[length] as usize;
                    table[length] = if tier == TIERS { <$uint>::MAX } else { OFFSETS[tier + 1] - 1 };
                    length += 1;
                }
                table
            };

            /// The tier holding `value` by the definition: how many tier
            /// starts it has reached. Used to build tables and to check them.
            const fn tier_by_search(value: $uint) -> usize {
                let mut tier = 0;
                while tier < TIERS && value >= OFFSETS[tier + 1] {
                    tier += 1;
                }
                tier
            }

            /// The tier holding `value`: 0 for single-byte values, else the
            /// payload length. Branch-free: the bit length picks a candidate
            /// tier from a table, and one comparison with that tier's last
            /// value moves it to the next tier when needed.
            #[inline(always)]
            const fn tier(value: $uint) -> usize {
                // `| 1` (0 and 1 share a tier): the count's input is then
                // never 0, so no zero case is needed, and the `bsr` that
                // x86-64 counts with (without `lzcnt`) is freed of a wait:
                // it keeps its destination when the source is 0, so it
                // waits for that register's last value.
                // Counting a temporary that dies there lets the register
                // allocator reuse it as the destination; otherwise it picked
                // a register holding the output's length, chaining every
                // `encode` in a loop to the previous one.
                let length = (<$uint>::BITS - (value | 1).leading_zeros()) as usize;
                TIER_BY_BIT_LENGTH[length] as usize + (value > TIER_END_BY_BIT_LENGTH[length]) as usize
            }

            /// Bytes the encoding of `value` occupies (tag included).
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("assert_eq!(", stringify!($name), "::encoded_len(0), 1);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::encoded_len(", stringify!($example), "), ", stringify!($example_bytes), ".len());")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::encoded_len(", stringify!($uint), "::MAX), ", stringify!($name), "::MAX_BYTES);")]
            /// ```
            #[inline]
            #[must_use]
            pub const fn encoded_len(value: $uint) -> usize {
                1 + tier(value)
            }

            /// Total length (tag included) of the value whose first byte is
            /// `tag`. Every byte is a valid tag.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("assert_eq!(", stringify!($name), "::len_from_tag(0x00), 1);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::len_from_tag(", stringify!($name), "::THRESHOLD), 2);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::len_from_tag(0xFF), ", stringify!($name), "::MAX_BYTES);")]
            /// ```
            #[inline]
            #[must_use]
            pub const fn len_from_tag(tag: u8) -> usize {
                1 + tag.saturating_sub(THRESHOLD - 1) as usize
            }

            /// Encodes `value` into a fixed array; the encoding is its first
            /// `len` bytes and the rest are zero.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("const ENCODED: ([u8; ", stringify!($name), "::MAX_BYTES], usize) = ", stringify!($name), "::encode_array(", stringify!($example), ");")]
            /// let (bytes, len) = ENCODED;
            #[doc = concat!("assert_eq!(&bytes[..len], &", stringify!($example_bytes), ");")]
            /// ```
            #[inline]
            #[must_use]
            pub const fn encode_array(value: $uint) -> ([u8; MAX_BYTES], usize) {
                // One straight-line path for every tier (selects, not
                // branches), so mixed lengths cost no mispredictions.
                let tier = tier(value);
                // All ones for multi-byte values, zero for single bytes;
                // masks rather than `if` keep LLVM from emitting a branch.
                let multi_byte = ((tier != 0) as $uint).wrapping_neg();
                let tag = ((THRESHOLD - 1 + tier as u8) & multi_byte as u8) | (value as u8 & !multi_byte as u8);
                // Left-align the payload so all TIERS bytes are copied
                // unconditionally; the bytes past it are zero. Tier 0 has
                // no payload (its shift wraps to 0 and the mask clears it).
                let payload = (value.wrapping_sub(offset_of(tier))).wrapping_shl((8 * (TIERS - tier)) as u32);
                let payload = (payload & multi_byte).to_be_bytes();
                let mut out = [0u8; MAX_BYTES];
                out[0] = tag;
                let mut i = 0;
                while i < TIERS {
                    out[1 + i] = payload[i];
                    i += 1;
                }
                (out, 1 + tier)
            }

            /// Writes the encoding of `value` to the front of `out` and
            /// returns its length.
            ///
            /// # Errors
            ///
            /// [`EncodeError::BufferTooSmall`] when `out` is shorter than
            /// [`encoded_len`]`(value)`; nothing is written then.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("let mut out = [0u8; ", stringify!($name), "::MAX_BYTES];")]
            #[doc = concat!("let len = ", stringify!($name), "::encode_into(", stringify!($example), ", &mut out)?;")]
            #[doc = concat!("assert_eq!(&out[..len], &", stringify!($example_bytes), ");")]
            /// # Ok::<(), bijou_core::EncodeError>(())
            /// ```
            #[inline]
            pub fn encode_into(value: $uint, out: &mut [u8]) -> Result<usize, EncodeError> {
                let (bytes, len) = encode_array(value);
                match out.get_mut(..len) {
                    Some(dest) => {
                        dest.copy_from_slice(&bytes[..len]);
                        Ok(len)
                    }
                    None => Err(EncodeError::BufferTooSmall { needed: len, available: out.len() }),
                }
            }

            /// Appends the encoding of `value` to `out`.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            /// let mut out = vec![0xAA];
            #[doc = concat!(stringify!($name), "::encode(", stringify!($example), ", &mut out);")]
            #[doc = concat!("assert_eq!(&out[1..], &", stringify!($example_bytes), ");")]
            /// ```
            #[cfg(feature = "alloc")]
            #[inline]
            pub fn encode(value: $uint, out: &mut alloc::vec::Vec<u8>) {
                // Single bytes are the most common values in most protocols;
                // a predictable branch makes them a plain push.
                if value < THRESHOLD as $uint {
                    out.push(value as u8);
                    return;
                }
                let (bytes, len) = encode_array(value);
                // A fixed-size copy is a couple of stores; a `len`-byte one
                // would be a call to memcpy. Truncating drops the spare bytes.
                out.reserve(MAX_BYTES);
                let start = out.len();
                out.extend_from_slice(&bytes);
                out.truncate(start + len);
            }

            /// Decodes one value from the front of `input`, returning it and
            /// the number of bytes it occupied. Bytes after it are ignored.
            ///
            /// # Errors
            ///
            /// - [`DecodeError::Truncated`] when `input` is empty or shorter
            ///   than the length its tag announces;
            /// - [`DecodeError::Overflow`] when a top-tier value exceeds
            #[doc = concat!("  `", stringify!($uint), "::MAX`.")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::{", stringify!($name), ", DecodeError};")]
            ///
            #[doc = concat!("let mut input = ", stringify!($example_bytes), ".to_vec();")]
            /// input.push(0x07); // the next value, left alone
            #[doc = concat!("assert_eq!(", stringify!($name), "::decode(&input), Ok((", stringify!($example), ", input.len() - 1)));")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::decode(&[]), Err(DecodeError::Truncated { needed: 1, available: 0 }));")]
            /// ```
            #[inline]
            pub fn decode(input: &[u8]) -> Result<($uint, usize), DecodeError> {
                let Some(block) = input.first_chunk::<MAX_BYTES>() else {
                    return decode_near_end(input);
                };
                let [tag, payload @ ..] = *block;
                // Two predicted branches for the commonest kinds of value,
                // single bytes (small counts, kinds, flags) and the top tier
                // (hashes, ids, random values): on streams of either the
                // CPU runs ahead of the next value's position. The middle
                // tiers share one path with no branch on the tier, so
                // mixed lengths cost at most the two branches' occasional
                // misprediction rather than one a value: the length from
                // the tag by a subtraction, the payload the top `tier`
                // bytes of one fixed-width load, the offset from a table.
                if tag < THRESHOLD {
                    return Ok((tag as $uint, 1));
                }
                let word = <$uint>::from_be_bytes(payload);
                if tag == u8::MAX {
                    return match tier_value::<TIERS>(word) {
                        (Some(value), len) => Ok((value, len)),
                        (None, _) => Err(DecodeError::Overflow),
                    };
                }
                let len = tag as usize - (THRESHOLD as usize - 2);
                let tier = len - 1;
                // A middle tier: the shift is never by the full width, and
                // the sum stays below the next tier's offset.
                let payload = word.wrapping_shr((8 * (TIERS - tier)) as u32);
                Ok((offset_of(tier).wrapping_add(payload), len))
            }

            /// The values encoded back to back in `input`, in order, as an
            /// iterator that decodes them a chunk ahead with
            /// [`decode_batch`] (vector paths included) and never allocates.
            /// It yields each value, then ends; or yields the first error
            /// (a value cut off by the end of `input`, or one that
            #[doc = concat!("overflows `", stringify!($uint), "`) and then ends, its")]
            /// [`offset`](crate::Values::offset) the error's place.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("let mut input = ", stringify!($example_bytes), ".to_vec();")]
            /// input.push(0x07);
            /// let mut sum = 0;
            #[doc = concat!("for value in ", stringify!($name), "::values(&input) {")]
            ///     sum += value?;
            /// }
            #[doc = concat!("assert_eq!(sum, ", stringify!($example), " + 7);")]
            /// # Ok::<(), bijou_core::DecodeError>(())
            /// ```
            #[inline]
            #[must_use]
            pub fn values(input: &[u8]) -> crate::Values<'_, $uint> {
                crate::Values::new(input)
            }

            /// [`decode`] within `MAX_BYTES` of the end of the input, where
            /// a whole block cannot be loaded: one arm per tier, each with
            /// its own constant-size bounds check and load. Out of line:
            /// inlined, its jump table and constants took registers in
            /// the caller's loop, which then kept its own position on the
            /// stack.
            #[cold]
            #[inline(never)]
            fn decode_near_end(input: &[u8]) -> Result<($uint, usize), DecodeError> {
                let Some(&tag) = input.first() else {
                    return Err(DecodeError::Truncated { needed: 1, available: 0 });
                };
                if tag < THRESHOLD {
                    return Ok((tag as $uint, 1));
                }
                let (offset, payload, len) = crate::tiers::by_tier!(tag - (THRESHOLD - 1), tier_parts, input)?;
                match offset.checked_add(payload) {
                    Some(value) => Ok((value, len)),
                    None => Err(DecodeError::Overflow),
                }
            }

            /// The parts of a tier-`T` value at the front of `input` (tag
            /// included): its tier's offset, its payload and its length. A
            /// constant-size bounds check and load per tier, so each arm is
            /// short and its length a constant.
            #[inline(always)]
            fn tier_parts<const T: usize>(input: &[u8]) -> Result<($uint, $uint, usize), DecodeError> {
                // Arms for tiers wider than the type are never reached;
                // clamping keeps them well-formed.
                let tier = if T > TIERS { TIERS } else { T };
                let Some(encoded) = input.get(..1 + tier) else {
                    return Err(DecodeError::Truncated { needed: 1 + tier, available: input.len() });
                };
                let mut payload = [0u8; TIERS];
                payload[TIERS - tier..].copy_from_slice(&encoded[1..]);
                Ok((OFFSETS[tier], <$uint>::from_be_bytes(payload), 1 + tier))
            }

            /// The value of tier `T` whose payload is the top `T` bytes of
            /// `word`, and its total length. Only the top tier can
            /// overflow; `None` then.
            #[inline(always)]
            const fn tier_value<const T: usize>(word: $uint) -> (Option<$uint>, usize) {
                // Arms for tiers wider than the type are never reached;
                // clamping keeps them well-formed.
                let tier = if T > TIERS { TIERS } else { T };
                (OFFSETS[tier].checked_add(word >> (8 * (TIERS - tier))), 1 + tier)
            }

            crate::batch::batch_codec!($name: $uint, example $example => $example_bytes);

            const _: () = {
                assert!(TIERS >= 1 && TIERS <= 16);
                // The top tier must reach the type's maximum with a TIERS-byte payload.
                assert!(<$uint>::MAX - OFFSETS[TIERS] < <$uint>::MAX);
                // Tags THRESHOLD..=0xFF map one to one onto tiers 1..=TIERS.
                assert!(THRESHOLD as usize + TIERS - 1 == 0xFF);
                // The table-driven tier agrees with the definition at every
                // tier boundary and at every bit-length boundary.
                let mut t = 1;
                while t <= TIERS {
                    assert!(tier(OFFSETS[t]) == t && tier(OFFSETS[t] - 1) == t - 1);
                    t += 1;
                }
                // 0, whose bit length `tier` counts as 1's.
                assert!(tier(0) == 0);
                let mut length = 1;
                while length <= <$uint>::BITS {
                    let low = (1 as $uint) << (length - 1);
                    let high = low | (low - 1);
                    assert!(tier(low) == tier_by_search(low) && tier(high) == tier_by_search(high));
                    length += 1;
                }
            };
        }
    };
}

pub(crate) use unsigned_width;
