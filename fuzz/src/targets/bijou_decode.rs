//! `decode` of every width on arbitrary bytes: it never panics, it agrees
//! with the naive oracle in `testkit` (value, length and error), and a
//! decoded value re-encodes to exactly the bytes it consumed, which is the
//! "canonical by construction" promise: no two byte strings mean one value.

use crate::{FuzzWidth, each_width};
use bijou_core::DecodeError;

fn check<T: FuzzWidth>(data: &[u8]) {
    let ours = T::decode(data);
    let oracle = T::oracle().decode(data);
    match (ours, oracle) {
        (Ok((value, used)), Ok(expected)) => {
            assert_eq!((value.to_oracle(), used), expected, "{} value", T::NAME);
            assert_eq!(&*value.encoded(), &data[..used], "{} re-encoding", T::NAME);
            assert_eq!(T::len_from_tag(data[0]), used, "{} len_from_tag", T::NAME);
        }
        (Err(ours), Err(oracle)) if oracle.matches(ours) => {
            if let DecodeError::Truncated { needed, .. } = ours {
                // What a streaming caller waits for must match the tag's length.
                let announced = data.first().map_or(1, |&tag| T::len_from_tag(tag));
                assert_eq!(needed, announced, "{} truncated length", T::NAME);
            }
        }
        (ours, oracle) => panic!("{}: decode {ours:?}, oracle {oracle:?}", T::NAME),
    }
}

/// Runs the checks on one input; panics if any fails.
pub fn run(data: &[u8]) {
    for check in each_width!(check) {
        check(data);
    }
}
