//! Encoding into a stack buffer with no allocator: a `Reading` (from this
//! package's `#![no_std]` library, `reading.rs`) encoded into an array on
//! the stack and read back; `main` checks and prints the result.

use bijou_core::{EncodeError, bijou32, bijou64s};
use bijou_examples::reading::{READING_MAX, Reading};

fn main() {
    let reading = Reading {
        sensor: 300,
        delta: -2,
        nanos: 1_700_000_000_123_456_789,
    };
    let mut buf = [0u8; READING_MAX];
    let len = reading
        .encode(&mut buf)
        .expect("READING_MAX fits any reading");
    // 300 is FC 30 in bijou32; -2 zigzags to 3, one byte.
    assert_eq!(buf[..3], [0xFC, 0x30, 0x03]);
    assert_eq!(Reading::decode(&buf[..len]), Ok((reading, len)));

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
