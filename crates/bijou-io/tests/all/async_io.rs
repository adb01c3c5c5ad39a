//! `AsyncReadBijouExt` and `AsyncWriteBijouExt` (feature `tokio`) over a
//! reader and a writer that move a few bytes a poll and return `Pending`
//! between polls, against the `std::io` forms' bytes and errors.

use std::future::Future;
use std::io::{self, ErrorKind};
use std::pin::Pin;
use std::task::{Context, Poll};

use bijou_core::DecodeError;
use bijou_io::{AsyncReadBijouExt, AsyncWriteBijouExt, MidValueError, WriteExt};
use proptest::prelude::*;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::common::{self, assert_cut_inside, assert_unexpected_eof, inner_error, spread};

fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime")
        .block_on(future)
}

/// Moves at most `step` bytes a poll, `Pending` (woken at once) before
/// each, and fails with `kind` once `budget` bytes have moved.
struct Slow {
    bytes: Vec<u8>,
    at: usize,
    step: usize,
    budget: usize,
    kind: ErrorKind,
    ready: bool,
}

impl Slow {
    fn new(bytes: Vec<u8>, step: usize) -> Self {
        Slow {
            bytes,
            at: 0,
            step,
            budget: usize::MAX,
            kind: ErrorKind::ConnectionReset,
            ready: false,
        }
    }

    fn failing_after(mut self, budget: usize, kind: ErrorKind) -> Self {
        self.budget = budget;
        self.kind = kind;
        self
    }

    /// How many bytes this poll may move, or its `Pending` or error.
    fn poll_room(&mut self, cx: &mut Context<'_>, wanted: usize) -> Poll<io::Result<usize>> {
        self.ready = !self.ready;
        if !self.ready {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        if self.budget == 0 {
            return Poll::Ready(Err(io::Error::new(self.kind, "the stream broke")));
        }
        let room = wanted.min(self.step).min(self.budget);
        self.budget -= room;
        Poll::Ready(Ok(room))
    }
}

impl AsyncRead for Slow {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let left = self.bytes.len() - self.at;
        let len = std::task::ready!(self.poll_room(cx, buf.remaining().min(left)))?;
        let at = self.at;
        buf.put_slice(&self.bytes[at..at + len]);
        self.at += len;
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Slow {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        let len = std::task::ready!(self.poll_room(cx, bytes.len()))?;
        self.bytes.extend_from_slice(&bytes[..len]);
        Poll::Ready(Ok(len))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

proptest! {
    #![proptest_config(common::config())]

    /// Values written a few bytes a poll come out as `WriteExt` writes
    /// them, and read back a few bytes a poll, then `None` at the end.
    #[test]
    fn values_round_trip_a_few_bytes_a_poll(
        unsigned in proptest::collection::vec(spread::<u64>(), 0..20),
        signed in proptest::collection::vec(spread::<i128>(), 0..20),
        step in 1usize..20,
    ) {
        let mut expected = Vec::new();
        for (&u, &s) in unsigned.iter().zip(&signed) {
            WriteExt::write_bijou(&mut expected, u).unwrap();
            WriteExt::write_bijou(&mut expected, s).unwrap();
        }
        let (written, read) = block_on(async {
            let mut writer = Slow::new(Vec::new(), step);
            for (&u, &s) in unsigned.iter().zip(&signed) {
                writer.write_bijou(u).await.unwrap();
                writer.write_bijou(s).await.unwrap();
            }
            let mut reader = Slow::new(writer.bytes.clone(), step);
            let mut read = Vec::new();
            while let Some(u) = reader.try_read_bijou::<u64>().await.unwrap() {
                read.push((u, reader.read_bijou::<i128>().await.unwrap()));
            }
            (writer.bytes, read)
        });
        prop_assert_eq!(written, expected);
        let pairs: Vec<(u64, i128)> = unsigned.iter().copied().zip(signed.iter().copied()).collect();
        prop_assert_eq!(read, pairs);
    }
}

/// A reader's error inside a value is a `MidValueError` (never a bare
/// error that a retry would follow out of step); one before it is as is.
#[test]
fn a_read_error_inside_a_value_is_a_mid_value_error() {
    let wire = vec![0xF9, 0x01, 0xF0]; // 1000 in bijou64
    for budget in 0..wire.len() {
        let error = block_on(async {
            let mut reader = Slow::new(wire.clone(), 1).failing_after(budget, ErrorKind::TimedOut);
            reader.read_bijou::<u64>().await.unwrap_err()
        });
        if budget == 0 {
            assert_eq!(error.kind(), ErrorKind::TimedOut);
            assert!(inner_error::<MidValueError>(&error).is_none(), "{error}");
        } else {
            assert_cut_inside(&error, ErrorKind::TimedOut, budget, 3);
        }
    }
}

/// The same for a writer, with exactly the bytes before the error written.
#[test]
fn a_write_error_inside_a_value_is_a_mid_value_error() {
    for budget in 0..3 {
        let (error, written) = block_on(async {
            let mut writer = Slow::new(Vec::new(), 1).failing_after(budget, ErrorKind::BrokenPipe);
            (writer.write_bijou(1000u64).await.unwrap_err(), writer.bytes)
        });
        if budget == 0 {
            assert_eq!(error.kind(), ErrorKind::BrokenPipe);
            assert!(inner_error::<MidValueError>(&error).is_none(), "{error}");
        } else {
            assert_cut_inside(&error, ErrorKind::BrokenPipe, budget, 3);
        }
        assert_eq!(written, [0xF9, 0x01, 0xF0][..budget]);
    }
}

/// The end of the stream: `None` before a value, `UnexpectedEof` inside
/// one (or, for `read_bijou`, before one); overflow is `InvalidData`.
#[test]
fn ends_and_overflow_are_the_std_forms_errors() {
    block_on(async {
        let mut empty: &[u8] = &[];
        assert_eq!(empty.try_read_bijou::<u32>().await.unwrap(), None);
        let error = empty.read_bijou::<u32>().await.unwrap_err();
        assert_unexpected_eof(
            &error,
            DecodeError::Truncated {
                needed: 1,
                available: 0,
            },
        );

        let mut cut = Slow::new(vec![0xF9, 0x01], 1);
        let error = cut.try_read_bijou::<u64>().await.unwrap_err();
        assert_unexpected_eof(
            &error,
            DecodeError::Truncated {
                needed: 3,
                available: 2,
            },
        );

        let mut corrupt: &[u8] = &[0xFF; 5];
        let error = corrupt.read_bijou::<u32>().await.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidData);
        assert_eq!(
            inner_error::<DecodeError>(&error),
            Some(&DecodeError::Overflow)
        );
        assert!(corrupt.is_empty(), "the value's bytes were read");
    });
}
