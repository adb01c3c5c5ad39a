//! A naive bijou codec written straight from the spec's rules, for one width
//! given at run time. It is deliberately unlike `bijou-core`: tiers found by a
//! linear search over offsets computed by the spec's recurrence, payloads
//! built byte by byte, all arithmetic in checked `u128`.

/// Why the oracle refused to decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OracleError {
    /// Fewer bytes than the tag announces.
    Truncated {
        /// Bytes the value needs.
        needed: usize,
        /// Bytes available.
        available: usize,
    },
    /// The top-tier value exceeds the width's maximum.
    Overflow,
}

impl OracleError {
    /// Whether `ours`, bijou-core's error for the same input, says the same
    /// thing (the same variant, and for `Truncated` the same counts).
    pub fn matches(self, ours: bijou_core::DecodeError) -> bool {
        use bijou_core::DecodeError;
        match (ours, self) {
            (
                DecodeError::Truncated { needed, available },
                OracleError::Truncated {
                    needed: oracle_needed,
                    available: oracle_available,
                },
            ) => (needed, available) == (oracle_needed, oracle_available),
            (DecodeError::Overflow, OracleError::Overflow) => true,
            _ => false,
        }
    }
}

/// One unsigned width: `tiers` = the integer's byte width (4, 8 or 16).
#[derive(Debug, Clone)]
pub struct Width {
    tiers: usize,
    offsets: Vec<u128>,
}

impl Width {
    /// The width whose integers are `bytes` bytes wide (4, 8 or 16).
    pub fn new(bytes: usize) -> Width {
        assert!(
            matches!(bytes, 4 | 8 | 16),
            "bijou widths are 4, 8 or 16 bytes"
        );
        let mut width = Width {
            tiers: bytes,
            offsets: Vec::new(),
        };
        width.offsets = width.compute_offsets();
        width
    }

    /// bijou32.
    pub fn b32() -> Width {
        Width::new(4)
    }

    /// bijou64.
    pub fn b64() -> Width {
        Width::new(8)
    }

    /// bijou128.
    pub fn b128() -> Width {
        Width::new(16)
    }

    /// Largest value of the width.
    pub fn max(&self) -> u128 {
        if self.tiers == 16 {
            u128::MAX
        } else {
            (1u128 << (8 * self.tiers)) - 1
        }
    }

    /// Tag threshold `H = 256 - T`.
    pub fn threshold(&self) -> u128 {
        256 - self.tiers as u128
    }

    /// `OFFSET[0..=T]` by the spec's recurrence.
    pub fn offsets(&self) -> &[u128] {
        &self.offsets
    }

    fn compute_offsets(&self) -> Vec<u128> {
        let mut offsets = vec![0, self.threshold()];
        for n in 2..=self.tiers {
            let step = 256u128.checked_pow(n as u32 - 1).expect("256^(n-1) fits");
            let next = offsets[n - 1].checked_add(step).expect("offset fits");
            offsets.push(next);
        }
        offsets
    }

    /// Encodes `value` (which must not exceed [`Width::max`]).
    pub fn encode(&self, value: u128) -> Vec<u8> {
        assert!(value <= self.max(), "value out of range for the width");
        if value < self.threshold() {
            return vec![value as u8];
        }
        let offsets = self.offsets();
        for tier in 1..=self.tiers {
            let in_tier = tier == self.tiers || value < offsets[tier + 1];
            if value >= offsets[tier] && in_tier {
                let payload = value - offsets[tier];
                let mut out = vec![(self.threshold() as usize + tier - 1) as u8];
                for i in (0..tier).rev() {
                    out.push(((payload >> (8 * i)) & 0xFF) as u8);
                }
                return out;
            }
        }
        unreachable!("every value below max has a tier")
    }

    /// Decodes one value from the front of `input`.
    pub fn decode(&self, input: &[u8]) -> Result<(u128, usize), OracleError> {
        let Some(&tag) = input.first() else {
            return Err(OracleError::Truncated {
                needed: 1,
                available: 0,
            });
        };
        if u128::from(tag) < self.threshold() {
            return Ok((u128::from(tag), 1));
        }
        let tier = usize::from(tag) - (self.threshold() as usize - 1);
        if input.len() < 1 + tier {
            return Err(OracleError::Truncated {
                needed: 1 + tier,
                available: input.len(),
            });
        }
        let mut payload: u128 = 0;
        for &byte in &input[1..=tier] {
            payload = payload
                .checked_mul(256)
                .and_then(|p| p.checked_add(u128::from(byte)))
                .expect("payload fits u128");
        }
        match self.offsets()[tier].checked_add(payload) {
            Some(value) if value <= self.max() => Ok((value, 1 + tier)),
            _ => Err(OracleError::Overflow),
        }
    }
}

/// Zigzag for a signed width of `bits` bits, by the spec's formula on `i128`.
pub fn zigzag(value: i128, bits: u32) -> u128 {
    let mask = if bits == 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    };
    (((value << 1) ^ (value >> (bits - 1))) as u128) & mask
}

/// Inverse of [`zigzag`]: even → non-negative, odd → negative.
pub fn unzigzag(value: u128) -> i128 {
    if value.is_multiple_of(2) {
        (value / 2) as i128
    } else {
        -((value / 2) as i128) - 1
    }
}

/// What `decode_batch` must do, written as the plain loop the API describes:
/// `decode` until `out` is full, the input ends, or a value is cut off (left
/// unconsumed, not an error); an overflow is an error naming its offset and
/// the values written before it.
pub fn repeated_decode<T: bijou_core::Bijou>(
    input: &[u8],
    out: &mut [T],
) -> Result<(usize, usize), bijou_core::BatchDecodeError> {
    use bijou_core::{BatchDecodeError, DecodeError};
    let (mut written, mut consumed) = (0, 0);
    while written < out.len() && consumed < input.len() {
        match T::decode(&input[consumed..]) {
            Ok((value, len)) => {
                out[written] = value;
                written += 1;
                consumed += len;
            }
            Err(DecodeError::Truncated { .. }) => break,
            Err(DecodeError::Overflow) => {
                return Err(BatchDecodeError::Overflow {
                    offset: consumed,
                    written,
                });
            }
        }
    }
    Ok((written, consumed))
}

/// Asserts the batch contract on `input`: `decode_batch` into `out` returns
/// what [`repeated_decode`] returns into `expected` (a slice of the same
/// length), and writes the same values before it stops. `what` names the
/// case in a failure.
///
/// # Panics
///
/// When the two disagree, or the slices differ in length.
pub fn assert_batch_agrees<T: bijou_core::Bijou>(
    input: &[u8],
    out: &mut [T],
    expected: &mut [T],
    what: &str,
) {
    assert_eq!(out.len(), expected.len(), "{what}: one capacity for both");
    let got = T::decode_batch(input, out);
    let want = repeated_decode(input, expected);
    assert_eq!(got, want, "{what} on {input:02X?}");
    let written = match want {
        Ok((written, _)) | Err(bijou_core::BatchDecodeError::Overflow { written, .. }) => written,
    };
    assert_eq!(out[..written], expected[..written], "{what}");
}

/// The values (or overflows) of a stream in order, and how it ends:
/// `Ok(())` between two values, `Err(Truncated)` inside one.
pub type Outcome<T> = (
    Vec<Result<T, bijou_core::DecodeError>>,
    Result<(), bijou_core::DecodeError>,
);

/// What a stream decoder must report for `stream`, written as `decode` on
/// the whole slice, value after value: each value or `Overflow` in order
/// (skipping an overflowing value's bytes, as the stream decoders
/// document), how the stream ends, and the bytes of a trailing partial
/// value.
pub fn stream_outcomes<T: bijou_core::Bijou>(mut stream: &[u8]) -> (Outcome<T>, &[u8]) {
    use bijou_core::DecodeError;
    let mut items = Vec::new();
    loop {
        match T::decode(stream) {
            Ok((value, len)) => {
                items.push(Ok(value));
                stream = &stream[len..];
            }
            Err(DecodeError::Overflow) => {
                items.push(Err(DecodeError::Overflow));
                stream = &stream[T::len_from_tag(stream[0])..];
            }
            Err(truncated) => {
                let end = if stream.is_empty() {
                    Ok(())
                } else {
                    Err(truncated)
                };
                return ((items, end), stream);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{OracleError, Width, zigzag};
    use crate::vectors::{BijouExpect, Format, files, load_bijou};

    /// The oracle checked on its own against every vector file, not only
    /// through its agreement with bijou-core: the sweeps stop at three
    /// bytes and random bytes rarely reach a top tier, so without this the
    /// oracle's overflow rule (one of the format's two failure modes) would
    /// rest on bijou-core's.
    #[test]
    fn the_oracle_meets_every_vector_on_its_own() {
        // Which widths met an overflow vector: the rule this test exists for.
        let mut overflows = std::collections::BTreeSet::new();
        for file in files(Format::Bijou) {
            for case in load_bijou(file.path).unwrap() {
                let at = format!("{}:{} {}", file.path, case.line, case.width);
                let signed = case.width.ends_with('s');
                let width = match case.width.trim_end_matches('s') {
                    "bijou32" => Width::b32(),
                    "bijou64" => Width::b64(),
                    "bijou128" => Width::b128(),
                    other => panic!("{at}: unknown width {other}"),
                };
                let bits = (8 * width.tiers) as u32;
                let decoded = width.decode(&case.bytes);
                match &case.expect {
                    BijouExpect::Value(text) => {
                        let value = if signed {
                            // Beyond i128 the parse itself fails.
                            let value: i128 = text.parse().unwrap();
                            if bits < 128 {
                                let half = 1i128 << (bits - 1);
                                let range = -half..half;
                                assert!(range.contains(&value), "{at}: {value} out of range");
                            }
                            zigzag(value, bits)
                        } else {
                            let value: u128 = text.parse().unwrap();
                            assert!(value <= width.max(), "{at}: {value} out of range");
                            value
                        };
                        assert_eq!(decoded, Ok((value, case.bytes.len())), "{at}");
                        assert_eq!(width.encode(value), case.bytes, "{at}");
                    }
                    BijouExpect::Truncated => {
                        assert!(
                            matches!(decoded, Err(OracleError::Truncated { .. })),
                            "{at}: {decoded:?}"
                        );
                    }
                    BijouExpect::Overflow => {
                        assert_eq!(decoded, Err(OracleError::Overflow), "{at}");
                        overflows.insert(width.tiers);
                    }
                }
            }
        }
        assert_eq!(overflows.into_iter().collect::<Vec<_>>(), [4, 8, 16]);
    }
}
