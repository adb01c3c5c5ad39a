//! The `tokio_util` codecs end to end: `FramedWrite` into an in-memory
//! duplex pipe with a tiny buffer, `FramedRead` out of it.
//!
//! Every test runs on a runtime whose clock is paused, under a timeout: a
//! codec that holds back an item it has the bytes for leaves reader and
//! writer waiting on each other, the idle runtime then moves its clock to
//! the deadline at once, and the test fails instead of hanging.

use std::future::{Future, poll_fn};
use std::io::{self, ErrorKind};
use std::pin::Pin;
use std::time::Duration;

use bijou_core::DecodeError;
use bijou_io::{FrameCodec, FrameDecoder, FrameEncoder, FrameError, ValueCodec, WriteExt};
use bytes::{Bytes, BytesMut};
use futures_core::Stream;
use futures_sink::Sink;
use proptest::prelude::*;
use tokio::io::AsyncWriteExt;
use tokio_util::codec::{Decoder, Encoder, FramedRead, FramedWrite};

use crate::common::{self, inner_error};

/// Virtual time: the paused clock only moves when every task is waiting.
const DEADLOCK_TIMEOUT: Duration = Duration::from_secs(60);

fn block_on<F: Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("runtime")
        .block_on(async { tokio::time::timeout(DEADLOCK_TIMEOUT, future).await })
        .expect("reader and writer stalled: a codec held back or lost an item")
}

async fn next<S: Stream + Unpin>(stream: &mut S) -> Option<S::Item> {
    poll_fn(|cx| Pin::new(&mut *stream).poll_next(cx)).await
}

async fn collect<S: Stream + Unpin>(mut stream: S) -> Vec<S::Item> {
    let mut items = Vec::new();
    while let Some(item) = next(&mut stream).await {
        items.push(item);
    }
    items
}

async fn send<S: Sink<I> + Unpin, I>(sink: &mut S, item: I) -> Result<(), S::Error> {
    poll_fn(|cx| Pin::new(&mut *sink).poll_ready(cx)).await?;
    Pin::new(&mut *sink).start_send(item)?;
    poll_fn(|cx| Pin::new(&mut *sink).poll_flush(cx)).await
}

async fn close<S: Sink<I> + Unpin, I>(sink: &mut S) -> Result<(), S::Error> {
    poll_fn(|cx| Pin::new(&mut *sink).poll_close(cx)).await
}

/// Sends `items` through a duplex pipe of `capacity` bytes and returns what
/// the reader decodes. The writer keeps the pipe open until the reader has
/// had every item, so each must come out of `decode` as soon as its bytes
/// are in (not from `decode_eof` at the end); then the writer closes and
/// the stream must end cleanly.
async fn cross_pipe<E, D, I>(
    capacity: usize,
    encoder: E,
    decoder: D,
    items: Vec<I>,
) -> Vec<Result<D::Item, D::Error>>
where
    E: Encoder<I> + Send + 'static,
    E::Error: std::fmt::Debug,
    D: Decoder,
    I: Send + 'static,
{
    let (client, server) = tokio::io::duplex(capacity);
    let (all_received, wait_for_reader) = tokio::sync::oneshot::channel::<()>();
    let count = items.len();
    let writer = tokio::spawn(async move {
        let mut sink = FramedWrite::new(client, encoder);
        for item in items {
            send(&mut sink, item).await.unwrap();
        }
        wait_for_reader.await.unwrap();
        close(&mut sink).await.unwrap();
    });
    let mut stream = FramedRead::new(server, decoder);
    let mut received = Vec::with_capacity(count);
    for _ in 0..count {
        received.push(next(&mut stream).await.expect("the stream ended early"));
    }
    all_received.send(()).unwrap();
    assert!(
        next(&mut stream).await.is_none(),
        "an item after the last one sent"
    );
    writer.await.unwrap();
    received
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Frames written by one task through a 7-byte pipe arrive whole.
    #[test]
    fn frames_cross_a_narrow_pipe(payloads in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..300), 0..8)) {
        let sent = payloads.iter().cloned().map(Bytes::from).collect();
        let received = block_on(cross_pipe(7, FrameEncoder::new(), FrameDecoder::new(), sent));
        let received: Vec<Vec<u8>> = received.into_iter().map(|frame| frame.unwrap().to_vec()).collect();
        prop_assert_eq!(received, payloads);
    }

    /// Plain values through `ValueCodec` (as i64; the codec is generic, and
    /// every width's decoding has its own suites elsewhere).
    #[test]
    fn values_cross_a_narrow_pipe(values in proptest::collection::vec(common::spread::<i64>(), 0..50)) {
        let received = block_on(cross_pipe(3, ValueCodec::<i64>::new(), ValueCodec::<i64>::new(), values.clone()));
        let received: Vec<i64> = received.into_iter().map(Result::unwrap).collect();
        prop_assert_eq!(received, values);
    }
}

#[test]
fn framed_duplex_codec_round_trips() {
    block_on(async {
        let (client, server) = tokio::io::duplex(4096);
        let mut client =
            tokio_util::codec::Framed::new(client, FrameCodec::with_max_frame_len(1024));
        let mut server =
            tokio_util::codec::Framed::new(server, FrameCodec::with_max_frame_len(1024));
        send(&mut client, Bytes::from_static(b"ping"))
            .await
            .unwrap();
        let frame = next(&mut server).await.unwrap().unwrap();
        assert_eq!(&frame[..], b"ping");
        send(&mut server, Bytes::from(vec![7u8; 1000]))
            .await
            .unwrap();
        assert_eq!(next(&mut client).await.unwrap().unwrap().len(), 1000);
        let error = send(&mut client, Bytes::from(vec![0u8; 1025]))
            .await
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidInput);
        assert!(matches!(
            inner_error::<FrameError>(&error),
            Some(FrameError::PayloadTooLarge {
                len: 1025,
                max: 1024
            })
        ));
    });
}

#[test]
fn an_oversized_frame_ends_the_stream_with_invalid_data() {
    let mut wire = Vec::new();
    wire.write_bijou64(1 << 60).unwrap();
    let items = block_on(collect(FramedRead::new(&wire[..], FrameDecoder::new())));
    assert_eq!(items.len(), 1);
    let error = items.into_iter().next().unwrap().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidData);
    assert!(
        matches!(inner_error::<FrameError>(&error), Some(FrameError::FrameTooLarge { len, .. }) if *len == 1 << 60)
    );
}

#[test]
fn a_stream_cut_inside_a_frame_or_value_is_unexpected_eof() {
    let wire = [0x05, b'a', b'b'];
    let items = block_on(collect(FramedRead::new(&wire[..], FrameDecoder::new())));
    let error = items.into_iter().next().unwrap().unwrap_err();
    common::assert_unexpected_eof(
        &error,
        FrameError::Truncated {
            needed: 6,
            available: 3,
        },
    );

    let wire = [0x01, 0xF9, 0x00];
    let items = block_on(collect(FramedRead::new(
        &wire[..],
        ValueCodec::<u64>::new(),
    )));
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].as_ref().unwrap(), &1);
    let error = items[1].as_ref().unwrap_err();
    common::assert_unexpected_eof(
        error,
        DecodeError::Truncated {
            needed: 3,
            available: 2,
        },
    );
}

#[test]
fn value_codec_overflow_is_invalid_data_and_nothing_is_consumed() {
    let mut codec = ValueCodec::<u32>::new();
    let mut src = BytesMut::from(&[0xFF; 5][..]);
    let error: io::Error = codec.decode(&mut src).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidData);
    assert_eq!(src.len(), 5);
}

#[test]
fn a_reader_half_closed_mid_write_is_reported() {
    // The writer shuts down after half a frame.
    let error = block_on(async {
        let (mut client, server) = tokio::io::duplex(16);
        client.write_all(&[0x04, b'x', b'y']).await.unwrap();
        client.shutdown().await.unwrap();
        let mut frames = FramedRead::new(server, FrameCodec::new());
        next(&mut frames).await.unwrap().unwrap_err()
    });
    assert_eq!(error.kind(), ErrorKind::UnexpectedEof);
}

#[test]
fn value_codec_debug_names_the_width() {
    assert_eq!(
        format!("{:?}", ValueCodec::<i64>::new()),
        "ValueCodec { width: \"bijou64s\" }"
    );
}

/// The cancel-safety the docs promise, pinned: a `next()` dropped while a
/// value or frame is half in (a `select!` whose other branch won, a
/// timeout) loses nothing, because the partial bytes live in
/// `FramedRead`'s buffer, not in the future, and the next `next()`
/// completes them. Also the loop `StreamDecoder` documents: read into a
/// buffer, push it into a decoder that outlives the future.
#[test]
fn a_cancelled_read_loses_no_bytes() {
    /// Awaits `future` briefly; `None` if it was still pending and has been
    /// dropped (the paused clock moves on once nothing else can run).
    async fn cancelled_or<F: Future>(future: F) -> Option<F::Output> {
        tokio::time::timeout(Duration::from_millis(10), future)
            .await
            .ok()
    }

    block_on(async {
        // 2^63 + 1 as bijou64 (9 bytes), then 5, sent as 4 + 6 bytes.
        let mut wire = Vec::new();
        wire.write_bijou64((1 << 63) + 1).unwrap();
        wire.write_bijou64(5).unwrap();
        let (mut client, server) = tokio::io::duplex(64);
        let mut values = FramedRead::new(server, ValueCodec::<u64>::new());
        client.write_all(&wire[..4]).await.unwrap();
        assert!(cancelled_or(next(&mut values)).await.is_none());
        client.write_all(&wire[4..]).await.unwrap();
        assert_eq!(next(&mut values).await.unwrap().unwrap(), (1 << 63) + 1);
        assert_eq!(next(&mut values).await.unwrap().unwrap(), 5);

        // A frame whose length prefix and payload arrive in three pieces,
        // with a cancelled `next()` after each of the first two.
        let mut wire = Vec::new();
        wire.write_bijou64(300).unwrap(); // two-byte length prefix
        wire.extend((0..300).map(|i| i as u8));
        let (mut client, server) = tokio::io::duplex(1024);
        let mut frames = FramedRead::new(server, FrameCodec::new());
        for piece in [&wire[..1], &wire[1..100]] {
            client.write_all(piece).await.unwrap();
            assert!(cancelled_or(next(&mut frames)).await.is_none());
        }
        client.write_all(&wire[100..]).await.unwrap();
        assert_eq!(next(&mut frames).await.unwrap().unwrap(), wire[2..]);

        // StreamDecoder under a read loop whose future is dropped mid-value.
        let (mut client, mut server) = tokio::io::duplex(64);
        let mut decoder = bijou_io::StreamDecoder::<u64>::new();
        let mut received = Vec::new();
        let wire = [0xF9, 0x01, 0xF0, 0x07]; // 1000, 7
        for piece in [&wire[..1], &wire[1..2], &wire[2..]] {
            client.write_all(piece).await.unwrap();
            let read_and_push = async {
                use tokio::io::AsyncReadExt;
                loop {
                    let mut buf = [0u8; 16];
                    let n = server.read(&mut buf).await.unwrap();
                    let before = received.len();
                    for value in decoder.values(&buf[..n]) {
                        received.push(value.unwrap());
                    }
                    if received.len() > before {
                        break;
                    }
                }
            };
            cancelled_or(read_and_push).await;
        }
        assert_eq!(received, [1000, 7]);
        assert!(decoder.finish().is_ok());
    });
}
