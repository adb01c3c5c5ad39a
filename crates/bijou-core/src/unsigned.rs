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

            /// The tier holding `value`: 0 for single-byte values, else the
            /// payload length. Computed from the byte length of
            /// `value - THRESHOLD` and one comparison: tier `t` starts at
            /// `THRESHOLD + 0x0101…00` (`t - 1` bytes of `01`, then `00`), so
            /// a value is in the tier of its byte length `n` unless it lies
            /// below that start, in which case it is in tier `n - 1`.
            #[inline(always)]
            const fn tier(value: $uint) -> usize {
                if value < THRESHOLD as $uint {
                    return 0;
                }
                let rest = value - THRESHOLD as $uint;
                let bytes = ((<$uint>::BITS - (rest | 1).leading_zeros()).div_ceil(8)) as usize;
                bytes - (rest < OFFSETS[bytes] - THRESHOLD as $uint) as usize
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
                let tier = tier(value);
                let mut out = [0u8; MAX_BYTES];
                if tier == 0 {
                    out[0] = value as u8;
                    return (out, 1);
                }
                out[0] = THRESHOLD - 1 + tier as u8;
                // Left-align the payload so all TIERS bytes can be copied
                // unconditionally; the bytes past the payload are zero.
                let payload = (value - OFFSETS[tier]) << (8 * (TIERS - tier));
                let payload = payload.to_be_bytes();
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
                let (bytes, len) = encode_array(value);
                out.extend_from_slice(&bytes[..len]);
            }

            /// Appends the encodings of `values` to `out`, one after another.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            /// let mut out = Vec::new();
            #[doc = concat!(stringify!($name), "::encode_batch(&[1, ", stringify!($example), ", 2], &mut out);")]
            #[doc = concat!("let mut values = [0; 3];")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::decode_batch(&out, &mut values), Ok((3, out.len())));")]
            #[doc = concat!("assert_eq!(values, [1, ", stringify!($example), ", 2]);")]
            /// ```
            #[cfg(feature = "alloc")]
            pub fn encode_batch(values: &[$uint], out: &mut alloc::vec::Vec<u8>) {
                out.reserve(values.iter().map(|&value| encoded_len(value)).sum());
                for &value in values {
                    encode(value, out);
                }
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
                let Some(&tag) = input.first() else {
                    return Err(DecodeError::Truncated { needed: 1, available: 0 });
                };
                if tag < THRESHOLD {
                    return Ok((tag as $uint, 1));
                }
                let tier = (tag - (THRESHOLD - 1)) as usize;
                let Some(payload) = input.get(1..=tier) else {
                    return Err(DecodeError::Truncated { needed: 1 + tier, available: input.len() });
                };
                let mut be = [0u8; TIERS];
                be[TIERS - tier..].copy_from_slice(payload);
                // Only the top tier can exceed the type; checking every tier
                // keeps one code path and costs one flag test.
                match OFFSETS[tier].checked_add(<$uint>::from_be_bytes(be)) {
                    Some(value) => Ok((value, 1 + tier)),
                    None => Err(DecodeError::Overflow),
                }
            }

            /// Decodes consecutive values from `input` into `out` until `out`
            /// is full or `input` runs out, returning (values written, bytes
            /// consumed).
            ///
            /// A value cut off at the end of `input` is not an error: it is
            /// left unconsumed, so a streaming caller can keep
            /// `input[consumed..]`, append more bytes and call again.
            ///
            /// # Errors
            ///
            /// [`BatchDecodeError::Overflow`] with the byte offset of the
            /// offending value and the number of values written before it.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("let mut input = vec![0x01];")]
            #[doc = concat!("input.extend_from_slice(&", stringify!($example_bytes), ");")]
            /// input.push(0xFF); // a value whose payload has not arrived yet
            /// let mut out = [0; 8];
            #[doc = concat!("let (written, consumed) = ", stringify!($name), "::decode_batch(&input, &mut out)?;")]
            #[doc = concat!("assert_eq!(&out[..written], &[1, ", stringify!($example), "]);")]
            /// assert_eq!(consumed, input.len() - 1);
            /// # Ok::<(), bijou_core::BatchDecodeError>(())
            /// ```
            pub fn decode_batch(input: &[u8], out: &mut [$uint]) -> Result<(usize, usize), BatchDecodeError> {
                let mut consumed = 0;
                let mut written = 0;
                while written < out.len() && consumed < input.len() {
                    match decode(&input[consumed..]) {
                        Ok((value, len)) => {
                            out[written] = value;
                            written += 1;
                            consumed += len;
                        }
                        Err(DecodeError::Truncated { .. }) => break,
                        Err(DecodeError::Overflow) => {
                            return Err(BatchDecodeError::Overflow { offset: consumed, written });
                        }
                    }
                }
                Ok((written, consumed))
            }

            const _: () = {
                assert!(TIERS >= 1 && TIERS <= 16);
                // The top tier must reach the type's maximum with a TIERS-byte payload.
                assert!(<$uint>::MAX - OFFSETS[TIERS] < <$uint>::MAX);
                // Tags THRESHOLD..=0xFF map one to one onto tiers 1..=TIERS.
                assert!(THRESHOLD as usize + TIERS - 1 == 0xFF);
            };
        }
    };
}

pub(crate) use unsigned_width;
