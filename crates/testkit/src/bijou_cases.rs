//! Runs one parsed bijou vector against `bijou-core`, for tests and xtask.

use crate::vectors::{BijouCase, BijouExpect};
use bijou_core::{BatchDecodeError, Bijou, DecodeError};
use std::str::FromStr;

fn hex(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "-".to_owned()
    } else {
        bytes.iter().map(|b| format!("{b:02X}")).collect()
    }
}

/// The parts of a width's API that [`check`] calls: bijou-core's
/// ([`Api::core`]) in every real run, and deliberately broken ones in this
/// module's tests, which show that each check can fail.
struct Api<T> {
    decode: DecodeFn<T>,
    encode: fn(T) -> Vec<u8>,
    encoded_len: fn(T) -> usize,
    len_from_tag: fn(u8) -> usize,
    decode_batch: BatchFn<T>,
}

/// `decode`'s shape: (value, bytes consumed) from the front of the input.
type DecodeFn<T> = fn(&[u8]) -> Result<(T, usize), DecodeError>;

/// `decode_batch`'s shape: (values written, bytes consumed).
type BatchFn<T> = fn(&[u8], &mut [T]) -> Result<(usize, usize), BatchDecodeError>;

impl<T: Bijou> Api<T> {
    fn core() -> Api<T> {
        Api {
            decode: T::decode,
            encode: |value| value.encoded().to_vec(),
            encoded_len: T::encoded_len,
            len_from_tag: T::len_from_tag,
            decode_batch: T::decode_batch,
        }
    }
}

fn check<T>(case: &BijouCase, api: &Api<T>) -> Result<(), String>
where
    T: Bijou + FromStr,
{
    let decoded = (api.decode)(&case.bytes);
    match &case.expect {
        BijouExpect::Value(text) => {
            let value: T = text
                .parse()
                .map_err(|_| format!("value {text} does not fit {}", T::NAME))?;
            if decoded != Ok((value, case.bytes.len())) {
                return Err(format!(
                    "decode {}: expected Ok(({value}, {})), got {decoded:?}",
                    hex(&case.bytes),
                    case.bytes.len()
                ));
            }
            let encoded = (api.encode)(value);
            if encoded != case.bytes {
                return Err(format!(
                    "encode {value}: expected {}, got {}",
                    hex(&case.bytes),
                    hex(&encoded)
                ));
            }
            if (api.encoded_len)(value) != case.bytes.len()
                || (api.len_from_tag)(case.bytes[0]) != case.bytes.len()
            {
                return Err(format!("length of {value}: expected {}", case.bytes.len()));
            }
            check_batch(case, Some(value), api)
        }
        BijouExpect::Truncated => match decoded {
            Err(DecodeError::Truncated { .. }) => check_batch(case, None, api),
            other => Err(format!(
                "decode {}: expected Truncated, got {}",
                hex(&case.bytes),
                describe(other)
            )),
        },
        BijouExpect::Overflow => match decoded {
            Err(DecodeError::Overflow) => check_batch(case, None, api),
            other => Err(format!(
                "decode {}: expected Overflow, got {}",
                hex(&case.bytes),
                describe(other)
            )),
        },
    }
}

/// The vector inside a stream, through `decode_batch`, after two kinds of
/// lead: a run of one-byte values (the batch decoder stays on its branchy
/// path) and 384 values alternating one and two bytes long (it switches to
/// its branch-free path after its first block, and the case lands in a
/// branch-free block). A multi-byte value case is
/// repeated and an overflow case followed by more bytes, so the block
/// loop meets them, not only the tail (which is `decode` again); one-byte
/// values go to the run copier and a truncated case, at the end of the
/// input, to the tail. The trail after the case is long enough for the
/// unpredictable-length loops' widest view. `value` is the case's value,
/// `None` for an error case.
fn check_batch<T: Bijou>(case: &BijouCase, value: Option<T>, api: &Api<T>) -> Result<(), String> {
    const COPIES: usize = 16;
    // Longer than a round of bijou-core's two-walk loop looks at (about
    // 1 KiB), so that loop meets the case too, not only the one-walk tail.
    const TRAIL: usize = 1200;
    let two_byte_tag = (0..=u8::MAX)
        .find(|&tag| T::len_from_tag(tag) == 2)
        .expect("every width has a two-byte tier");
    let steady: (Vec<u8>, usize) = (vec![0; 8], 8);
    let mixed: (Vec<u8>, usize) = ([1, two_byte_tag, 0].repeat(192), 384);
    for (name, (lead, lead_values)) in [("8 one-byte values", steady), ("384 mixed values", mixed)]
    {
        let mut stream = lead.clone();
        let expected = match case.expect {
            BijouExpect::Value(_) => {
                for _ in 0..COPIES {
                    stream.extend_from_slice(&case.bytes);
                }
                stream.extend_from_slice(&[0; TRAIL]);
                Ok((lead_values + COPIES + TRAIL, stream.len()))
            }
            BijouExpect::Overflow => {
                stream.extend_from_slice(&case.bytes);
                stream.extend_from_slice(&[0; TRAIL]);
                Err(BatchDecodeError::Overflow {
                    offset: lead.len(),
                    written: lead_values,
                })
            }
            // Cut off by the end of the input: left unconsumed, not an error.
            BijouExpect::Truncated => {
                stream.extend_from_slice(&case.bytes);
                Ok((lead_values, lead.len()))
            }
        };
        let mut out = vec![T::default(); stream.len()];
        let got = (api.decode_batch)(&stream, &mut out);
        let values_ok = value.is_none_or(|v| out[lead_values..][..COPIES].iter().all(|&o| o == v));
        if got != expected || !values_ok {
            let times = if value.is_some() {
                format!(", {COPIES} times")
            } else {
                String::new()
            };
            return Err(format!(
                "decode_batch of {} after {name}{times}: expected {expected:?}, got {got:?}",
                hex(&case.bytes),
            ));
        }
    }
    Ok(())
}

fn describe<T: Bijou>(result: Result<(T, usize), DecodeError>) -> String {
    match result {
        Ok((value, len)) => format!("Ok(({value}, {len}))"),
        Err(e) => format!("Err({e:?})"),
    }
}

/// Checks `case` against `bijou-core`: decode gives the value and consumes
/// every byte, encode gives the bytes back, lengths agree; or decode fails
/// with the expected error. The `Err` names input, expected and got.
pub fn run(case: &BijouCase) -> Result<(), String> {
    match case.width.as_str() {
        "bijou32" => check::<u32>(case, &Api::core()),
        "bijou64" => check::<u64>(case, &Api::core()),
        "bijou128" => check::<u128>(case, &Api::core()),
        "bijou32s" => check::<i32>(case, &Api::core()),
        "bijou64s" => check::<i64>(case, &Api::core()),
        "bijou128s" => check::<i128>(case, &Api::core()),
        other => Err(format!("unknown width {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::{Api, check, run};
    use crate::vectors::parse_bijou;
    use bijou_core::{BatchDecodeError, bijou64};

    /// Every check of [`check`] can fail: one broken codec per check, each
    /// caught by one of three cases (a value, a cut-off value, an overflow)
    /// that bijou-core itself passes.
    #[test]
    fn each_check_catches_its_fault() {
        let cases = parse_bijou(
            "t",
            "bijou64 300 F834\n\
             bijou64 error:truncated F900\n\
             bijou64 error:overflow FFFEFEFEFEFEFEFE08\n",
        )
        .unwrap();
        for case in &cases {
            assert_eq!(
                check(case, &Api::<u64>::core()),
                Ok(()),
                "line {}",
                case.line
            );
        }
        let faults: [(&str, Api<u64>); 10] = [
            (
                "decode consumes a byte too few",
                Api {
                    decode: |b| bijou64::decode(b).map(|(v, n)| (v, n - 1)),
                    ..Api::core()
                },
            ),
            (
                "decode calls a cut-off value an overflow",
                Api {
                    decode: |b| bijou64::decode(b).map_err(|_| bijou_core::DecodeError::Overflow),
                    ..Api::core()
                },
            ),
            (
                "encode appends a byte",
                Api {
                    encode: |v| {
                        [&bijou64::encode_array(v).0[..bijou64::encoded_len(v)], &[0]].concat()
                    },
                    ..Api::core()
                },
            ),
            (
                "encoded_len is one too many",
                Api {
                    encoded_len: |v| bijou64::encoded_len(v) + 1,
                    ..Api::core()
                },
            ),
            (
                "len_from_tag is one too many",
                Api {
                    len_from_tag: |t| bijou64::len_from_tag(t) + 1,
                    ..Api::core()
                },
            ),
            (
                "decode_batch consumes a byte too many",
                Api {
                    decode_batch: |i, o| bijou64::decode_batch(i, o).map(|(w, c)| (w, c + 1)),
                    ..Api::core()
                },
            ),
            (
                "decode_batch counts a value too few",
                Api {
                    decode_batch: |i, o| bijou64::decode_batch(i, o).map(|(w, c)| (w - 1, c)),
                    ..Api::core()
                },
            ),
            (
                "decode_batch writes wrong values",
                Api {
                    decode_batch: |i, o| {
                        let result = bijou64::decode_batch(i, o);
                        o.iter_mut().for_each(|v| *v ^= 1);
                        result
                    },
                    ..Api::core()
                },
            ),
            (
                "decode_batch misplaces an overflow",
                Api {
                    decode_batch: |i, o| {
                        bijou64::decode_batch(i, o).map_err(|e| match e {
                            BatchDecodeError::Overflow { offset, written } => {
                                BatchDecodeError::Overflow {
                                    offset: offset + 1,
                                    written,
                                }
                            }
                        })
                    },
                    ..Api::core()
                },
            ),
            (
                "decode_batch consumes a cut-off value",
                Api {
                    decode_batch: |i, o| bijou64::decode_batch(i, o).map(|(w, _)| (w, i.len())),
                    ..Api::core()
                },
            ),
        ];
        for (fault, api) in &faults {
            assert!(
                cases.iter().any(|case| check(case, api).is_err()),
                "{fault}: no case noticed"
            );
        }
    }

    fn outcome(line: &str) -> Result<(), String> {
        let cases = parse_bijou("t", line).unwrap();
        run(&cases[0])
    }

    /// A value its width cannot hold fails the case; it is never skipped.
    #[test]
    fn a_value_out_of_its_range_fails() {
        assert_eq!(outcome("bijou64 0 00"), Ok(()));
        for line in [
            "bijou64 -1 00",
            "bijou32 4294967296 FFFEFEFE04",
            "bijou64s 9223372036854775808 FFFEFEFEFEFEFEFEFF",
            "bijou128 340282366920938463463374607431768211456 00",
        ] {
            let failure = outcome(line).unwrap_err();
            assert!(failure.contains("does not fit"), "{line}: {failure}");
        }
    }

    /// Each kind of wrong vector is caught, and says which check failed.
    #[test]
    fn a_wrong_vector_fails_the_case() {
        for (line, says) in [
            ("bijou64 301 F834", "decode F834"),
            ("bijou64 300 F83400", "decode F83400"),
            ("bijou64 error:overflow F834", "expected Overflow"),
            ("bijou64 error:truncated F834", "expected Truncated"),
            ("bijou64 error:overflow F8", "expected Overflow"),
        ] {
            let failure = outcome(line).unwrap_err();
            assert!(failure.contains(says), "{line}: {failure}");
        }
    }
}
