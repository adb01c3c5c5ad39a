//! Runs one parsed bijou vector against `bijou-core`, for tests and xtask.

use crate::vectors::{BijouCase, BijouExpect};
use bijou_core::{Bijou, DecodeError};
use std::str::FromStr;

fn hex(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "-".to_owned()
    } else {
        bytes.iter().map(|b| format!("{b:02X}")).collect()
    }
}

fn check<T>(case: &BijouCase) -> Result<(), String>
where
    T: Bijou + FromStr,
{
    let decoded = T::decode(&case.bytes);
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
            let encoded = value.encoded();
            if *encoded != case.bytes[..] {
                return Err(format!(
                    "encode {value}: expected {}, got {}",
                    hex(&case.bytes),
                    hex(&encoded)
                ));
            }
            if value.encoded_len() != case.bytes.len()
                || T::len_from_tag(case.bytes[0]) != case.bytes.len()
            {
                return Err(format!("length of {value}: expected {}", case.bytes.len()));
            }
            Ok(())
        }
        BijouExpect::Truncated => match decoded {
            Err(DecodeError::Truncated { .. }) => Ok(()),
            other => Err(format!(
                "decode {}: expected Truncated, got {}",
                hex(&case.bytes),
                describe(other)
            )),
        },
        BijouExpect::Overflow => match decoded {
            Err(DecodeError::Overflow) => Ok(()),
            other => Err(format!(
                "decode {}: expected Overflow, got {}",
                hex(&case.bytes),
                describe(other)
            )),
        },
    }
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
        "bijou32" => check::<u32>(case),
        "bijou64" => check::<u64>(case),
        "bijou128" => check::<u128>(case),
        "bijou32s" => check::<i32>(case),
        "bijou64s" => check::<i64>(case),
        "bijou128s" => check::<i128>(case),
        other => Err(format!("unknown width {other}")),
    }
}
