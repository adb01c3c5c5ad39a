//! Wire compatibility with upstream `bijoux` (the successor of `bijou64`),
//! checked, not assumed: for all six widths, every value the tests draw
//! encodes to the same bytes in both crates, and every byte string decodes
//! to the same value and length in both, or fails in both the same way.
//! The tests are this crate's only content (`cargo test -p bijoux-compat`).

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// Both crates' verdicts on one input, in a form they share.
    #[derive(Debug, PartialEq)]
    enum Verdict<T> {
        Value(T, usize),
        Truncated,
        Overflow,
    }

    /// Values near every power of two (where tiers begin and end), and
    /// anything at all.
    fn values(bits: u32) -> impl Strategy<Value = u128> {
        let max = u128::MAX >> (128 - bits);
        prop_oneof![
            (0..bits, -300i64..300).prop_map(move |(k, d)| {
                (1u128 << k).saturating_add_signed(i128::from(d)) & max
            }),
            any::<u128>().prop_map(move |v| v & max),
        ]
    }

    /// Byte strings of up to 18 bytes, starting with a tag byte (0xEF and
    /// above, every width's multi-byte tags) more often than not.
    fn strings() -> impl Strategy<Value = Vec<u8>> {
        (
            prop_oneof![0xEFu8..=0xFF, any::<u8>()],
            proptest::collection::vec(any::<u8>(), 0..18),
        )
            .prop_map(|(tag, rest)| [vec![tag], rest].concat())
    }

    macro_rules! width {
        ($name:ident, $ty:ty, $bits:literal, $ours:ident, $theirs:ident, $cast:expr) => {
            mod $name {
                use super::*;

                fn ours(input: &[u8]) -> Verdict<$ty> {
                    match bijou_core::$ours::decode(input) {
                        Ok((value, len)) => Verdict::Value(value, len),
                        Err(bijou_core::DecodeError::Truncated { .. }) => Verdict::Truncated,
                        Err(bijou_core::DecodeError::Overflow) => Verdict::Overflow,
                    }
                }

                fn theirs(input: &[u8]) -> Verdict<$ty> {
                    match bijoux::$theirs::decode(input) {
                        Ok((value, len)) => Verdict::Value(value, len),
                        Err(bijoux::$theirs::DecodeError::BufferTooShort) => Verdict::Truncated,
                        Err(bijoux::$theirs::DecodeError::Overflow) => Verdict::Overflow,
                    }
                }

                fn encodings(value: $ty) -> (Vec<u8>, Vec<u8>) {
                    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
                    bijou_core::$ours::encode(value, &mut ours);
                    bijoux::$theirs::encode(value, &mut theirs);
                    (ours, theirs)
                }

                /// Every string of up to two bytes.
                #[test]
                fn short_strings_decode_alike() {
                    let mut strings = vec![Vec::new()];
                    strings.extend((0..=255u8).map(|a| vec![a]));
                    strings.extend((0..=0xFFFFu16).map(|ab| ab.to_be_bytes().to_vec()));
                    for input in strings {
                        assert_eq!(ours(&input), theirs(&input), "{input:02X?}");
                    }
                }

                #[test]
                fn the_extremes_encode_alike() {
                    for value in [<$ty>::MIN, <$ty>::MAX, 0, 1, <$ty>::MAX / 2] {
                        let (ours, theirs) = encodings(value);
                        assert_eq!(ours, theirs, "{value}");
                    }
                }

                proptest! {
                    #![proptest_config(ProptestConfig::with_cases(256))]

                    #[test]
                    fn values_encode_alike(raw in values($bits)) {
                        let value: $ty = $cast(raw);
                        let (ours, theirs) = encodings(value);
                        prop_assert_eq!(ours, theirs, "{}", value);
                    }

                    #[test]
                    fn strings_decode_alike(input in strings()) {
                        prop_assert_eq!(ours(&input), theirs(&input), "{:02X?}", input);
                    }
                }
            }
        };
    }

    // The signed widths take the drawn bits as the zigzag image's
    // two's-complement value: every bit pattern is some signed value.
    width!(b32, u32, 32, bijou32, u32, |raw: u128| raw as u32);
    width!(b64, u64, 64, bijou64, u64, |raw: u128| raw as u64);
    width!(b128, u128, 128, bijou128, u128, |raw: u128| raw);
    width!(b32s, i32, 32, bijou32s, i32, |raw: u128| raw as u32 as i32);
    width!(b64s, i64, 64, bijou64s, i64, |raw: u128| raw as u64 as i64);
    width!(b128s, i128, 128, bijou128s, i128, |raw: u128| raw as i128);
}
