//! Zigzag-signed widths: zigzag, then the unsigned format of the same width.
//!
//! Zigzag maps 0, -1, 1, -2, … to 0, 1, 2, 3, … so small magnitudes of either
//! sign stay short. The byte order of signed encodings is therefore zigzag
//! order, not numeric order.

/// Generates one signed width module on top of the unsigned module `$unsigned`.
macro_rules! signed_width {
    (
        $(#[$module_doc:meta])*
        mod $name:ident: $int:ty => $unsigned:ident($uint:ty), example $example:literal => $example_bytes:tt
    ) => {
        $(#[$module_doc])*
        ///
        /// Encodings sort (memcmp) in zigzag order, 0, −1, 1, −2, …, not in
        /// numeric order.
        pub mod $name {
            use crate::{$unsigned, BatchDecodeError, DecodeError, EncodeError};

            #[doc = concat!("Longest encoding in bytes, the same as [`", stringify!($unsigned), "::MAX_BYTES`].")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("assert_eq!(", stringify!($name), "::encoded_len(", stringify!($int), "::MIN), ", stringify!($name), "::MAX_BYTES);")]
            /// ```
            pub const MAX_BYTES: usize = $unsigned::MAX_BYTES;

            /// Maps a signed value to its zigzag form: `0, -1, 1, -2, …` become
            /// `0, 1, 2, 3, …`.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("assert_eq!(", stringify!($name), "::zigzag(-1), 1);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::zigzag(", stringify!($int), "::MIN), ", stringify!($uint), "::MAX);")]
            /// ```
            #[inline(always)]
            #[must_use]
            pub const fn zigzag(value: $int) -> $uint {
                ((value << 1) ^ (value >> (<$int>::BITS - 1))) as $uint
            }

            /// Inverse of [`zigzag`].
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("assert_eq!(", stringify!($name), "::unzigzag(", stringify!($name), "::zigzag(-300)), -300);")]
            /// ```
            #[inline(always)]
            #[must_use]
            pub const fn unzigzag(value: $uint) -> $int {
                ((value >> 1) as $int) ^ -((value & 1) as $int)
            }

            /// Bytes the encoding of `value` occupies (tag included).
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("assert_eq!(", stringify!($name), "::encoded_len(-1), 1);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::encoded_len(", stringify!($example), "), ", stringify!($example_bytes), ".len());")]
            /// ```
            #[inline]
            #[must_use]
            pub const fn encoded_len(value: $int) -> usize {
                $unsigned::encoded_len(zigzag(value))
            }

            /// Total length (tag included) of the value whose first byte is `tag`.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("assert_eq!(", stringify!($name), "::len_from_tag(", stringify!($example_bytes), "[0]), ", stringify!($example_bytes), ".len());")]
            /// ```
            #[inline]
            #[must_use]
            pub const fn len_from_tag(tag: u8) -> usize {
                $unsigned::len_from_tag(tag)
            }

            /// Encodes `value` into a fixed array; the encoding is its first
            /// `len` bytes.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("let (bytes, len) = ", stringify!($name), "::encode_array(", stringify!($example), ");")]
            #[doc = concat!("assert_eq!(&bytes[..len], &", stringify!($example_bytes), ");")]
            /// ```
            #[inline]
            #[must_use]
            pub const fn encode_array(value: $int) -> ([u8; MAX_BYTES], usize) {
                $unsigned::encode_array(zigzag(value))
            }

            /// Writes the encoding of `value` to the front of `out` and
            /// returns its length.
            ///
            /// # Errors
            ///
            /// [`EncodeError::BufferTooSmall`] when `out` is too short;
            /// nothing is written then.
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
            pub fn encode_into(value: $int, out: &mut [u8]) -> Result<usize, EncodeError> {
                $unsigned::encode_into(zigzag(value), out)
            }

            /// Appends the encoding of `value` to `out`.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            /// let mut out = Vec::new();
            #[doc = concat!(stringify!($name), "::encode(", stringify!($example), ", &mut out);")]
            #[doc = concat!("assert_eq!(out, ", stringify!($example_bytes), ");")]
            /// ```
            #[cfg(feature = "alloc")]
            #[inline]
            pub fn encode(value: $int, out: &mut alloc::vec::Vec<u8>) {
                $unsigned::encode(zigzag(value), out)
            }

            /// Appends the encodings of `values` to `out`, one after another.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            /// let mut out = Vec::new();
            #[doc = concat!(stringify!($name), "::encode_batch(&[-1, ", stringify!($example), "], &mut out);")]
            /// let mut values = [0; 2];
            #[doc = concat!(stringify!($name), "::decode_batch(&out, &mut values)?;")]
            #[doc = concat!("assert_eq!(values, [-1, ", stringify!($example), "]);")]
            /// # Ok::<(), bijou_core::BatchDecodeError>(())
            /// ```
            #[cfg(feature = "alloc")]
            pub fn encode_batch(values: &[$int], out: &mut alloc::vec::Vec<u8>) {
                // The unsigned batch loop, zigzagging as it reads.
                $unsigned::encode_batch_mapped(values, zigzag, out);
            }

            /// Decodes one value from the front of `input`, returning it and
            /// the number of bytes it occupied.
            ///
            /// # Errors
            ///
            #[doc = concat!("The errors of [`", stringify!($unsigned), "::decode`].")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            #[doc = concat!("assert_eq!(", stringify!($name), "::decode(&", stringify!($example_bytes), "), Ok((", stringify!($example), ", ", stringify!($example_bytes), ".len())));")]
            /// ```
            #[inline]
            pub fn decode(input: &[u8]) -> Result<($int, usize), DecodeError> {
                match $unsigned::decode(input) {
                    Ok((value, len)) => Ok((unzigzag(value), len)),
                    Err(error) => Err(error),
                }
            }

            #[doc = concat!("The values encoded back to back in `input`, as [`", stringify!($unsigned), "::values`] yields them, zigzag-decoded.")]
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            /// let input = [0x01, 0x02, 0x03];
            #[doc = concat!("let values: Vec<", stringify!($int), "> = ", stringify!($name), "::values(&input).collect::<Result<_, _>>()?;")]
            /// assert_eq!(values, [-1, 1, -2]);
            /// # Ok::<(), bijou_core::DecodeError>(())
            /// ```
            #[inline]
            #[must_use]
            pub fn values(input: &[u8]) -> crate::Values<'_, $int> {
                crate::Values::new(input)
            }

            /// Decodes consecutive values into `out` until it is full or
            /// `input` runs out; returns (values written, bytes consumed). A
            /// value cut off at the end is left unconsumed. Slots of `out`
            /// past the values written may have been overwritten.
            ///
            /// # Errors
            ///
            /// [`BatchDecodeError::Overflow`] with the offending offset and
            /// the number of values written before it.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("use bijou_core::", stringify!($name), ";")]
            ///
            /// let input = [0x01, 0x02, 0x03];
            /// let mut out = [0; 3];
            #[doc = concat!("assert_eq!(", stringify!($name), "::decode_batch(&input, &mut out), Ok((3, 3)));")]
            /// assert_eq!(out, [-1, 1, -2]);
            /// ```
            pub fn decode_batch(input: &[u8], out: &mut [$int]) -> Result<(usize, usize), BatchDecodeError> {
                // Decoded as the unsigned width straight into `out` (the same
                // bits, reinterpreted), then unzigzagged in place: one unsigned
                // call sees the whole batch, so its choice of loop and its
                // vector paths run on all of it, with no scratch to copy.
                let result = $unsigned::decode_batch(input, bytemuck::cast_slice_mut(out));
                let written = match result {
                    Ok((written, _)) | Err(BatchDecodeError::Overflow { written, .. }) => written,
                };
                for value in &mut out[..written] {
                    *value = unzigzag(*value as $uint);
                }
                result
            }
        }
    };
}

pub(crate) use signed_width;
