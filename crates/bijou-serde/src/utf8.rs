//! UTF-8 validation of string contents, with a fast path for ASCII.
//!
//! Strings in protocol messages (paths, names, user agents) are mostly
//! ASCII, and `core::str::from_utf8` checks the bytes of a short or
//! unaligned string one at a time. ASCII is UTF-8, so a string whose bytes
//! are all below 0x80 is accepted after an OR of its 8-byte words; any
//! other string goes to `core::str::from_utf8`, which decides alone. The
//! strings accepted are exactly the UTF-8 ones either way (the tests below
//! compare both on every length and position class). Measurements in
//! `docs/BENCHMARKS.md`.

/// `bytes` as a `str`, or `None` when they are not UTF-8.
#[inline]
pub(crate) fn from_utf8(bytes: &[u8]) -> Option<&str> {
    if is_ascii(bytes) {
        // SAFETY: every byte is below 0x80, and a string of ASCII bytes
        // is UTF-8 (each byte a one-byte scalar value).
        return Some(unsafe { core::str::from_utf8_unchecked(bytes) });
    }
    core::str::from_utf8(bytes).ok()
}

/// Whether every byte of `bytes` is below 0x80: the OR of its words,
/// the last one overlapping the others when the length is not a multiple
/// of the word. `<[u8]>::is_ascii` checks the bytes after its last whole
/// 64-byte block one at a time.
#[inline]
fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    if let Some(last) = bytes.last_chunk::<8>() {
        let (words, _) = bytes.as_chunks::<8>();
        let mut any = u64::from_ne_bytes(*last);
        for word in words {
            any |= u64::from_ne_bytes(*word);
        }
        return any & HIGH == 0;
    }
    if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        return (u32::from_ne_bytes(*first) | u32::from_ne_bytes(*last)) & HIGH as u32 == 0;
    }
    bytes.iter().fold(0, |any, byte| any | byte) < 0x80
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use proptest::prelude::*;

    use super::from_utf8;

    /// Lengths through every path: the bytes under 4, the two halves
    /// under 8, whole words with and without an overlapping last word.
    const LENGTHS: core::ops::RangeInclusive<usize> = 0..=40;

    #[test]
    fn ascii_of_every_length_is_accepted() {
        for len in LENGTHS {
            for fill in [0x00, b'a', 0x7F] {
                let bytes = alloc::vec![fill; len];
                assert_eq!(
                    from_utf8(&bytes),
                    core::str::from_utf8(&bytes).ok(),
                    "{bytes:?}"
                );
                assert!(from_utf8(&bytes).is_some(), "{bytes:?}");
            }
        }
    }

    #[test]
    fn one_non_ascii_byte_anywhere_goes_to_the_full_check() {
        // Continuation bytes alone, lead bytes without their continuation,
        // bytes never in UTF-8, and whole two-, three- and four-byte
        // characters, each at every position of every length.
        let insertions: [&[u8]; 9] = [
            &[0x80],
            &[0xBF],
            &[0xC3],
            &[0xFF],
            &[0xC0, 0x80],
            &[0xC3, 0xA9],
            &[0xE2, 0x82, 0xAC],
            &[0xED, 0xA0, 0x80],
            &[0xF0, 0x9F, 0x98, 0x80],
        ];
        for len in LENGTHS {
            for insertion in insertions.iter().filter(|i| i.len() <= len) {
                for at in 0..=len - insertion.len() {
                    let mut bytes = alloc::vec![b'x'; len];
                    bytes[at..at + insertion.len()].copy_from_slice(insertion);
                    assert_eq!(
                        from_utf8(&bytes),
                        core::str::from_utf8(&bytes).ok(),
                        "{bytes:?}"
                    );
                }
            }
        }
    }

    fn mostly_ascii() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(prop_oneof![8 => 0u8..0x80, 1 => any::<u8>()], 0..80)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn agrees_with_core(bytes in mostly_ascii()) {
            prop_assert_eq!(from_utf8(&bytes), core::str::from_utf8(&bytes).ok());
        }

        #[test]
        fn accepts_every_string(text in ".{0,40}") {
            prop_assert_eq!(from_utf8(text.as_bytes()), Some(text.as_str()));
        }
    }
}
