//! Encoding into a stack buffer, with nothing but `core`: what firmware or
//! a `no_std` protocol crate does with `bijou-core` built with
//! `default-features = false` (no allocator). Only the allocator-free API
//! appears below: `encode_into`, `encode_array`, `decode` and
//! `MAX_ENCODED_LEN`; `main` prints the result.

use bijou_core::{DecodeError, EncodeError, MAX_ENCODED_LEN, bijou32, bijou64s, bijou128};

/// A sensor reading as it goes on the wire: a bijou32 sensor id, a
/// bijou64s change since the last reading, a bijou128 timestamp.
#[derive(Debug, PartialEq)]
struct Reading {
    sensor: u32,
    delta: i64,
    nanos: u128,
}

/// Room for any reading: three values of at most `MAX_ENCODED_LEN` bytes.
const READING_MAX: usize = 3 * MAX_ENCODED_LEN;

/// Writes `reading` into `out`, returning the bytes used.
fn encode(reading: &Reading, out: &mut [u8]) -> Result<usize, EncodeError> {
    let mut len = bijou32::encode_into(reading.sensor, out)?;
    len += bijou64s::encode_into(reading.delta, &mut out[len..])?;
    len += bijou128::encode_into(reading.nanos, &mut out[len..])?;
    Ok(len)
}

/// Reads a reading back, returning it and the bytes it used.
fn decode(input: &[u8]) -> Result<(Reading, usize), DecodeError> {
    let (sensor, mut len) = bijou32::decode(input)?;
    let (delta, used) = bijou64s::decode(&input[len..])?;
    len += used;
    let (nanos, used) = bijou128::decode(&input[len..])?;
    Ok((
        Reading {
            sensor,
            delta,
            nanos,
        },
        len + used,
    ))
}

fn main() {
    let reading = Reading {
        sensor: 300,
        delta: -2,
        nanos: 1_700_000_000_123_456_789,
    };
    let mut buf = [0u8; READING_MAX];
    let len = encode(&reading, &mut buf).expect("READING_MAX fits any reading");
    // 300 is FC 30 in bijou32; -2 zigzags to 3, one byte.
    assert_eq!(buf[..3], [0xFC, 0x30, 0x03]);
    assert_eq!(decode(&buf[..len]), Ok((reading, len)));

    // A buffer too small is an error, not a panic, and says how much it needed.
    let mut small = [0u8; 1];
    assert_eq!(
        bijou32::encode_into(300, &mut small),
        Err(EncodeError::BufferTooSmall {
            needed: 2,
            available: 1
        })
    );

    // Without even a slice to write into: a fixed array and its length.
    let (bytes, used) = bijou64s::encode_array(-2);
    assert_eq!(bytes[..used], [0x03]);

    println!(
        "stack_encode: a reading in {len} of {READING_MAX} bytes: {:02X?}",
        &buf[..len]
    );
}
