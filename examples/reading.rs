//! A sensor reading on the wire, encoded into a caller's stack buffer
//! with nothing but `core` and bijou-core's allocator-free API
//! (`encode_into`, `decode`, `MAX_ENCODED_LEN`): what firmware or a
//! `no_std` protocol crate writes. The library this module is in is
//! `#![no_std]` and declares no `alloc`, and depends on bijou-core with
//! `default-features = false`, so `cargo build -p bijou-examples --lib`
//! (which CI runs) proves the code needs neither.

use bijou_core::{DecodeError, EncodeError, MAX_ENCODED_LEN, bijou32, bijou64s, bijou128};

/// A sensor reading as it goes on the wire: a bijou32 sensor id, a
/// bijou64s change since the last reading, a bijou128 timestamp.
#[derive(Debug, PartialEq, Eq)]
pub struct Reading {
    /// Which sensor.
    pub sensor: u32,
    /// The change since that sensor's last reading.
    pub delta: i64,
    /// When, in nanoseconds since the Unix epoch.
    pub nanos: u128,
}

/// Room for any reading: three values of at most `MAX_ENCODED_LEN` bytes.
pub const READING_MAX: usize = 3 * MAX_ENCODED_LEN;

impl Reading {
    /// Writes the reading into `out`, returning the bytes used.
    ///
    /// # Errors
    ///
    /// [`EncodeError::BufferTooSmall`] when `out` is too short; a buffer
    /// of [`READING_MAX`] bytes never is.
    pub fn encode(&self, out: &mut [u8]) -> Result<usize, EncodeError> {
        let mut len = bijou32::encode_into(self.sensor, out)?;
        len += bijou64s::encode_into(self.delta, &mut out[len..])?;
        len += bijou128::encode_into(self.nanos, &mut out[len..])?;
        Ok(len)
    }

    /// Reads a reading from the front of `input`, returning it and the
    /// bytes it used.
    ///
    /// # Errors
    ///
    /// The [`DecodeError`] of the first value that is cut short or
    /// overflows.
    pub fn decode(input: &[u8]) -> Result<(Reading, usize), DecodeError> {
        let (sensor, mut len) = bijou32::decode(input)?;
        let (delta, used) = bijou64s::decode(&input[len..])?;
        len += used;
        let (nanos, used) = bijou128::decode(&input[len..])?;
        let reading = Reading {
            sensor,
            delta,
            nanos,
        };
        Ok((reading, len + used))
    }
}
