//! Length-delimited frames over `BytesMut` and `std::io`.

use std::io::{self, ErrorKind, Read};

use bijou_core::{Bijou, DecodeError};
use bijou_io::{
    DEFAULT_MAX_FRAME_LEN, FrameDecoder, FrameEncoder, FrameError, FrameReader, FrameWriter,
    MidValueError, WriteExt,
};
use bytes::BytesMut;
use proptest::prelude::*;

use crate::common::{
    self, Budget, Overclaiming, OverclaimingWriter, Trickle, assert_cut_inside, inner_error,
};
use testkit::largest_allocation;

/// A reader that must never be reached.
struct MustNotRead;

impl Read for MustNotRead {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        panic!("the frame reader waited for a payload it should have refused");
    }
}

/// Every frame `reader` yields, calling `read_frame` again after each
/// `WouldBlock` or `TimedOut` (as a non-blocking caller would once the
/// source is readable again), up to a clean end of stream.
fn read_all_resuming(reader: &mut FrameReader<Trickle<'_>>) -> Vec<Vec<u8>> {
    let mut frames = Vec::new();
    let mut stalls = 0;
    loop {
        match reader.read_frame() {
            Ok(Some(frame)) => frames.push(frame),
            Ok(None) => return frames,
            Err(error) if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                stalls += 1;
                assert!(stalls < 1_000_000, "the reader made no progress");
            }
            Err(error) => panic!("unexpected error: {error}"),
        }
    }
}

fn header(len: u64) -> Vec<u8> {
    let mut out = Vec::new();
    out.write_bijou64(len).unwrap();
    out
}

fn encode_frames(payloads: &[Vec<u8>]) -> BytesMut {
    let encoder = FrameEncoder::new();
    let mut wire = BytesMut::new();
    for payload in payloads {
        encoder.encode(payload, &mut wire).unwrap();
    }
    wire
}

fn payloads() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let payload = prop_oneof![
        3 => proptest::collection::vec(any::<u8>(), 0..8),
        1 => proptest::collection::vec(any::<u8>(), 240..600),
    ];
    proptest::collection::vec(payload, 0..10)
}

proptest! {
    #![proptest_config(common::config())]

    /// Frames arriving in random pieces come out whole, in order, once.
    #[test]
    fn frames_in_random_splits_round_trip(payloads in payloads(), cuts in proptest::collection::vec(any::<usize>(), 0..30)) {
        let wire = encode_frames(&payloads);
        let decoder = FrameDecoder::new();
        let mut src = BytesMut::new();
        let mut frames = Vec::new();
        for piece in common::pieces(&wire, &cuts) {
            src.extend_from_slice(piece);
            while let Some(frame) = decoder.decode(&mut src).unwrap() {
                frames.push(frame.to_vec());
            }
        }
        prop_assert_eq!(decoder.decode_eof(&mut src), Ok(None));
        prop_assert_eq!(frames, payloads);
    }

    /// The std io pair over a trickling, interrupted reader.
    #[test]
    fn frame_writer_and_reader_round_trip(payloads in payloads(), pattern in proptest::collection::vec(0u8..4, 1..12)) {
        let mut writer = FrameWriter::new(Vec::new());
        for payload in &payloads {
            writer.write_frame(payload).unwrap();
        }
        let wire = writer.into_inner();
        prop_assert_eq!(&wire[..], &encode_frames(&payloads)[..]);
        let frames: Vec<Vec<u8>> = FrameReader::new(Trickle::new(&wire, &pattern)).collect::<io::Result<_>>().unwrap();
        prop_assert_eq!(frames, payloads);
    }

    /// Over a non-blocking source, `WouldBlock` anywhere (in a prefix, in
    /// a payload, between frames) loses no byte: calling again resumes.
    #[test]
    fn a_frame_reader_resumes_after_would_block(payloads in payloads(), steps in proptest::collection::vec(0u8..4, 1..12)) {
        let wire = encode_frames(&payloads);
        let mut reader = FrameReader::new(Trickle::new(&wire, &steps).non_blocking());
        prop_assert_eq!(read_all_resuming(&mut reader), payloads);
    }

    /// Any announced length over the limit is refused from the prefix
    /// alone: nothing consumed, nothing reserved, nothing more read.
    #[test]
    fn oversized_lengths_are_refused_at_once(
        max in 0usize..(1 << 20),
        // Just over the limit as often as far over it.
        excess in prop_oneof![1u64..=16, any::<u64>().prop_map(|e| e.max(1))],
    ) {
        let len = (max as u64).saturating_add(excess);
        let prefix = header(len);

        let mut src = BytesMut::from(&prefix[..]);
        let capacity = src.capacity();
        let decoder = FrameDecoder::with_max_frame_len(max);
        prop_assert_eq!(decoder.decode(&mut src), Err(FrameError::FrameTooLarge { len, max }));
        prop_assert_eq!(&src[..], &prefix[..]);
        prop_assert_eq!(src.capacity(), capacity);

        let mut reader = FrameReader::with_max_frame_len((&prefix[..]).chain(MustNotRead), max);
        let error = reader.read_frame().unwrap_err();
        prop_assert_eq!(error.kind(), ErrorKind::InvalidData);
        let expected = FrameError::FrameTooLarge { len, max };
        prop_assert_eq!(inner_error::<FrameError>(&error), Some(&expected));
    }

    /// A stream cut anywhere inside a frame is reported as such at the end.
    #[test]
    fn end_of_stream_inside_a_frame(payloads in payloads().prop_filter("non-empty", |p| !p.is_empty()), cut in any::<usize>()) {
        let wire = encode_frames(&payloads);
        let last_start = wire.len() - {
            let last = payloads.last().unwrap();
            (last.len() as u64).encoded_len() + last.len()
        };
        // Cut strictly inside the last frame.
        let cut = last_start + cut % (wire.len() - last_start);
        let mut src = BytesMut::from(&wire[..cut]);
        let decoder = FrameDecoder::new();
        for _ in 0..payloads.len() - 1 {
            prop_assert!(decoder.decode(&mut src).unwrap().is_some());
        }
        let available = src.len();
        if available == 0 {
            prop_assert_eq!(decoder.decode_eof(&mut src), Ok(None));
        } else {
            match decoder.decode_eof(&mut src) {
                Err(FrameError::Truncated { needed, available: got }) => {
                    prop_assert_eq!(got, available);
                    prop_assert!(needed > available);
                }
                other => prop_assert!(false, "unexpected {other:?}"),
            }
            prop_assert_eq!(src.len(), available);
        }

        let mut reader = FrameReader::new(&wire[..cut]);
        for _ in 0..payloads.len() - 1 {
            prop_assert!(reader.read_frame().unwrap().is_some());
        }
        match reader.read_frame() {
            Ok(None) => prop_assert_eq!(available, 0),
            Ok(Some(frame)) => prop_assert!(false, "got a frame of {} bytes", frame.len()),
            Err(error) => prop_assert_eq!(error.kind(), ErrorKind::UnexpectedEof),
        }
    }
}

#[test]
fn a_2_pow_60_prefix_is_refused_without_allocating() {
    let prefix = header(1 << 60);
    let expected = FrameError::FrameTooLarge {
        len: 1 << 60,
        max: DEFAULT_MAX_FRAME_LEN,
    };

    let mut src = BytesMut::with_capacity(64);
    src.extend_from_slice(&prefix);
    let decoder = FrameDecoder::new();
    largest_allocation::reset();
    assert_eq!(decoder.decode(&mut src), Err(expected));
    assert_eq!(largest_allocation::get(), 0, "the decoder allocated");
    assert_eq!(src.capacity(), 64);

    let mut reader = FrameReader::new((&prefix[..]).chain(MustNotRead));
    largest_allocation::reset();
    let error = reader.read_frame().unwrap_err();
    // Only the io::Error's box is allocated, never the payload.
    assert!(
        largest_allocation::get() < 256,
        "allocated {} bytes",
        largest_allocation::get()
    );
    assert_eq!(error.kind(), ErrorKind::InvalidData);
    assert_eq!(inner_error::<FrameError>(&error), Some(&expected));
}

#[test]
fn an_unlimited_decoder_still_checks_the_usize_arithmetic() {
    let prefix = header(u64::MAX);
    let mut src = BytesMut::from(&prefix[..]);
    let decoder = FrameDecoder::with_max_frame_len(usize::MAX);
    // On 64-bit targets the length fits usize but prefix + payload does not.
    let expected = if usize::BITS == 64 {
        FrameError::FrameTooLarge {
            len: u64::MAX,
            max: usize::MAX - prefix.len(),
        }
    } else {
        FrameError::FrameTooLarge {
            len: u64::MAX,
            max: usize::MAX,
        }
    };
    assert_eq!(decoder.decode(&mut src), Err(expected));
    assert_eq!(&src[..], &prefix[..]);
    // The reader too, with a payload cut short after it: refused, not read.
    let mut wire = prefix.clone();
    wire.extend_from_slice(b"abc");
    let mut reader = FrameReader::with_max_frame_len(&wire[..], usize::MAX);
    let error = reader.read_frame().unwrap_err();
    assert_eq!(inner_error::<FrameError>(&error), Some(&expected));
    assert_eq!(reader.get_ref(), b"abc");
}

#[test]
fn a_corrupt_length_prefix_is_a_decode_error() {
    let mut src = BytesMut::from(&[0xFF; 9][..]);
    assert_eq!(
        FrameDecoder::new().decode(&mut src),
        Err(FrameError::Decode(DecodeError::Overflow))
    );
    assert_eq!(&src[..], &[0xFF; 9], "nothing consumed");
    let error = FrameReader::new(&[0xFF; 9][..]).read_frame().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidData);
    assert_eq!(
        inner_error::<FrameError>(&error),
        Some(&FrameError::Decode(DecodeError::Overflow))
    );
}

/// A frame of exactly `max_frame_len` bytes passes; one byte more does not.
#[test]
fn the_limit_itself_is_allowed() {
    for max in [0, 1, 247, 248, 5000] {
        let fits = encode_frames(&[vec![7; max]]);
        let decoder = FrameDecoder::with_max_frame_len(max);
        assert_eq!(
            decoder.decode(&mut fits.clone()).unwrap().unwrap().len(),
            max
        );
        let mut reader = FrameReader::with_max_frame_len(&fits[..], max);
        assert_eq!(reader.read_frame().unwrap().unwrap().len(), max);
        assert!(
            FrameEncoder::with_max_frame_len(max)
                .encode(&vec![7; max], &mut BytesMut::new())
                .is_ok()
        );

        let over = encode_frames(&[vec![7; max + 1]]);
        let expected = FrameError::FrameTooLarge {
            len: max as u64 + 1,
            max,
        };
        assert_eq!(decoder.decode(&mut over.clone()), Err(expected));
        let error = FrameReader::with_max_frame_len(&over[..], max)
            .read_frame()
            .unwrap_err();
        assert_eq!(inner_error::<FrameError>(&error), Some(&expected));
        assert_eq!(
            FrameEncoder::with_max_frame_len(max).encode(&vec![7; max + 1], &mut BytesMut::new()),
            Err(FrameError::PayloadTooLarge { len: max + 1, max })
        );
    }
}

/// With no practical limit, an announced frame of half the address space
/// (2^63 − 1 bytes on 64-bit targets, 2^31 − 1 on 32-bit ones) is waited for, not
/// allocated: the decoder reserves at most 64 KiB ahead of the data.
#[test]
fn an_unlimited_decoder_reserves_little_ahead() {
    let prefix = header(u64::try_from(usize::MAX / 2).unwrap());
    let mut src = BytesMut::from(&prefix[..]);
    let decoder = FrameDecoder::with_max_frame_len(usize::MAX);
    largest_allocation::reset();
    assert_eq!(decoder.decode(&mut src), Ok(None));
    assert!(
        largest_allocation::get() <= 128 * 1024,
        "allocated {} bytes",
        largest_allocation::get()
    );
    assert!(src.capacity() < 128 * 1024);
    assert_eq!(&src[..], &prefix[..]);
}

/// `Ok(None)` leaves room for the rest of the frame, or for 64 KiB of it,
/// so the caller's next read fills the buffer without growing it.
#[test]
fn an_incomplete_frame_reserves_the_rest_up_to_64_kib() {
    let decoder = FrameDecoder::new();
    // A 10-byte payload, 1 byte of it arrived: room for all 11 bytes.
    let mut src = BytesMut::from(&[0x0A, b'x'][..]);
    assert_eq!(decoder.decode(&mut src), Ok(None));
    assert!(src.capacity() >= 11, "capacity {}", src.capacity());
    // 1 MiB announced, only the prefix arrived: 64 KiB ahead, no less.
    let mut src = BytesMut::from(&header(1 << 20)[..]);
    assert_eq!(decoder.decode(&mut src), Ok(None));
    let ahead = src.capacity() - src.len();
    assert!(
        (64 * 1024..128 * 1024).contains(&ahead),
        "{ahead} bytes ahead"
    );
}

/// The decoder's read-ahead stays within 64 KiB of the bytes received
/// while it is called again and again on a frame that arrives slowly: it
/// reserves only when the buffer is full, so a second call cannot make
/// `BytesMut` double a buffer it had already given 64 KiB of room (99
/// bytes received once left a capacity of 131,270).
#[test]
fn repeated_calls_keep_the_read_ahead_within_64_kib() {
    const AHEAD: usize = 64 * 1024;
    let decoder = FrameDecoder::new();
    let mut src = BytesMut::from(&header(1 << 20)[..]);
    assert_eq!(decoder.decode(&mut src), Ok(None));
    let ahead = src.capacity() - src.len();
    assert!((AHEAD..AHEAD + 64).contains(&ahead), "{ahead} bytes ahead");
    src.extend_from_slice(&[0xAB; 99][src.len()..]); // 99 bytes received
    assert_eq!(src.len(), 99);
    assert_eq!(decoder.decode(&mut src), Ok(None));
    assert!(
        src.capacity() <= 99 + AHEAD + 64,
        "capacity {} for 99 bytes received",
        src.capacity()
    );
    // A frame arriving in pieces of every size, decoded after each: the
    // buffer holds what arrived plus at most 64 KiB, or twice what arrived
    // once that is past 64 KiB (`BytesMut` grows by doubling when full).
    let prefix = header(1 << 20);
    let total = prefix.len() + (1 << 20);
    for piece in [1, 7, 1000, 40_000, 70_000] {
        let mut src = BytesMut::from(&prefix[..]);
        let mut frame = None;
        while frame.is_none() {
            frame = decoder.decode(&mut src).unwrap();
            let len = src.len();
            let bound = (len + AHEAD).max(2 * len) + 64;
            assert!(
                src.capacity() <= bound,
                "piece {piece}: capacity {} at {len}",
                src.capacity()
            );
            if frame.is_none() {
                let rest = (total - len).min(piece);
                src.extend_from_slice(&vec![0xCD; rest]);
            }
        }
        assert_eq!(frame.unwrap().len(), 1 << 20);
    }
}

/// After an error the iterator stops: the bytes after a refused prefix are
/// payload, and read as frames they would be garbage.
#[test]
fn the_iterator_stops_at_the_first_error() {
    // A 3-byte frame over a 2-byte limit whose payload reads as frames.
    let wire = [0x03, 0x01, b'x', 0x00];
    let mut frames = FrameReader::with_max_frame_len(&wire[..], 2);
    let error = frames.next().unwrap().unwrap_err();
    assert_eq!(
        inner_error::<FrameError>(&error),
        Some(&FrameError::FrameTooLarge { len: 3, max: 2 })
    );
    assert!(frames.next().is_none());
    assert!(frames.next().is_none());
    // `read_frame` itself goes on, on the caller's responsibility.
    assert_eq!(frames.read_frame().unwrap(), Some(b"x".to_vec()));
}

#[test]
fn a_payload_cut_short_reports_frame_bytes() {
    let mut wire = header(5);
    wire.extend_from_slice(b"abc");
    let error = FrameReader::new(&wire[..]).read_frame().unwrap_err();
    common::assert_unexpected_eof(
        &error,
        FrameError::Truncated {
            needed: 6,
            available: 4,
        },
    );
    let mut src = BytesMut::from(&wire[..]);
    assert_eq!(
        FrameDecoder::new().decode_eof(&mut src),
        Err(FrameError::Truncated {
            needed: 6,
            available: 4
        }),
    );
    // A cut inside the length prefix is counted against the prefix.
    let error = FrameReader::new(&[0xF9, 0x00][..])
        .read_frame()
        .unwrap_err();
    common::assert_unexpected_eof(
        &error,
        FrameError::Truncated {
            needed: 3,
            available: 2,
        },
    );
    let mut src = BytesMut::from(&[0xF9, 0x00][..]);
    assert_eq!(
        FrameDecoder::new().decode_eof(&mut src),
        Err(FrameError::Truncated {
            needed: 3,
            available: 2
        }),
    );
}

/// A cut length prefix is counted against the prefix, and the message does
/// not claim that count is the frame's: "1 of its 9 bytes arrived" would
/// call a frame announcing any length a 9-byte one.
#[test]
fn a_cut_length_prefix_is_not_reported_as_the_frame_length() {
    let mut src = BytesMut::from(&[0xFF][..]);
    let error = FrameDecoder::with_max_frame_len(1024)
        .decode_eof(&mut src)
        .unwrap_err();
    assert_eq!(
        error,
        FrameError::Truncated {
            needed: 9,
            available: 1
        }
    );
    assert_eq!(
        error.to_string(),
        "stream ended inside a frame: 9 bytes needed, 1 arrived"
    );
}

/// A stream that ends after the first byte of a multi-byte length prefix
/// has cut a frame, not ended cleanly.
#[test]
fn a_stream_ending_after_one_prefix_byte_is_truncated() {
    let error = FrameReader::new(&[0xF9][..]).read_frame().unwrap_err();
    common::assert_unexpected_eof(
        &error,
        FrameError::Truncated {
            needed: 3,
            available: 1,
        },
    );
    let mut src = BytesMut::from(&[0xF9][..]);
    assert_eq!(
        FrameDecoder::new().decode_eof(&mut src),
        Err(FrameError::Truncated {
            needed: 3,
            available: 1
        }),
    );
}

/// A payload cut short abandons its frame: the reader holds nothing of it
/// and starts over at a length prefix.
#[test]
fn a_reader_abandons_a_frame_whose_payload_was_cut_short() {
    let mut reader = FrameReader::new(&[0x05, b'a', b'b'][..]);
    let error = reader.read_frame().unwrap_err();
    common::assert_unexpected_eof(
        &error,
        FrameError::Truncated {
            needed: 6,
            available: 3,
        },
    );
    assert!(!reader.has_partial());
    assert_eq!(reader.read_frame().unwrap(), None);
    // Fed more bytes, it reads them as a new frame, not as the old payload.
    *reader.get_mut() = &[0x01, b'z'];
    assert_eq!(reader.read_frame().unwrap(), Some(b"z".to_vec()));
}

/// A source that ends once and then has more (a file being appended to).
struct EndsThenResumes {
    ended: bool,
    rest: &'static [u8],
}

impl Read for EndsThenResumes {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.ended {
            self.ended = true;
            return Ok(0);
        }
        self.rest.read(buf)
    }
}

/// The iterator is fused: after `None` it stays `None` even if the source
/// has more to give (`read_frame` still reads it).
#[test]
fn the_iterator_stays_ended_after_none() {
    let mut frames = FrameReader::new(EndsThenResumes {
        ended: false,
        rest: &[0x01, b'x'],
    });
    assert!(frames.next().is_none());
    assert!(frames.next().is_none());
    assert_eq!(frames.read_frame().unwrap(), Some(b"x".to_vec()));
}

/// A length over `usize::MAX` is refused whole, never truncated to fit:
/// on a 32-bit target, 2^32 + 5 is not a 5-byte frame. (On 64-bit targets
/// it fits `usize`, and the unlimited decoder waits for the payload.)
#[test]
fn a_length_over_usize_max_is_refused_not_truncated() {
    let len = (1u64 << 32) + 5;
    let mut wire = header(len);
    wire.extend_from_slice(b"01234");
    let mut src = BytesMut::from(&wire[..]);
    let result = FrameDecoder::with_max_frame_len(usize::MAX).decode(&mut src);
    if usize::BITS == 32 {
        let expected = FrameError::FrameTooLarge {
            len,
            max: usize::MAX,
        };
        assert_eq!(result, Err(expected));
        let error = FrameReader::with_max_frame_len(&wire[..], usize::MAX)
            .read_frame()
            .unwrap_err();
        assert_eq!(inner_error::<FrameError>(&error), Some(&expected));
    } else {
        assert_eq!(result, Ok(None));
    }
    assert_eq!(&src[..], &wire[..]);
}

#[test]
fn encoders_refuse_frames_over_the_limit_and_write_nothing() {
    let mut dst = BytesMut::new();
    let encoder = FrameEncoder::with_max_frame_len(3);
    assert_eq!(
        encoder.encode(b"four", &mut dst),
        Err(FrameError::PayloadTooLarge { len: 4, max: 3 })
    );
    assert!(dst.is_empty());
    encoder.encode(b"abc", &mut dst).unwrap();
    assert_eq!(dst.len(), 4);

    let mut writer = FrameWriter::with_max_frame_len(Vec::new(), 3);
    let error = writer.write_frame(b"four").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidInput);
    assert_eq!(
        inner_error::<FrameError>(&error),
        Some(&FrameError::PayloadTooLarge { len: 4, max: 3 })
    );
    assert!(writer.get_ref().is_empty());
}

/// A writer's error inside a frame, in its length prefix, at the payload's
/// start or inside the payload, is a `MidValueError` counting the frame's
/// bytes written (a retry would write a second prefix into the frame); one
/// before the frame's first byte comes as the writer gave it.
#[test]
fn a_frame_writer_error_inside_a_frame_is_a_mid_value_error() {
    let payload = [0xAB; 300];
    let frame_len = 2 + payload.len();
    let mut frame = header(300);
    frame.extend_from_slice(&payload);
    for kind in [ErrorKind::WouldBlock, ErrorKind::ConnectionReset] {
        for budget in 0..frame_len {
            let mut writer = FrameWriter::new(Budget::new(budget, kind));
            let error = writer.write_frame(&payload).unwrap_err();
            if budget == 0 {
                assert_eq!(error.kind(), kind);
                assert!(inner_error::<MidValueError>(&error).is_none(), "{error}");
            } else {
                assert_cut_inside(&error, kind, budget, frame_len);
            }
            assert_eq!(writer.get_ref().written, frame[..budget]);
        }
    }
    // Enough budget for one frame: the next one's error comes before its
    // first byte, and the sink is at a frame boundary.
    let mut writer = FrameWriter::new(Budget::new(frame_len, ErrorKind::WouldBlock));
    writer.write_frame(&payload).unwrap();
    let error = writer.write_frame(b"").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::WouldBlock);
    assert_eq!(writer.get_ref().written, frame);
}

#[test]
fn a_mid_frame_write_error_explains_itself() {
    let mut writer = FrameWriter::new(Budget::new(1, ErrorKind::WouldBlock));
    let error = writer.write_frame(b"hi").unwrap_err();
    assert_eq!(
        error.to_string(),
        "writing a frame failed after 1 of its 3 bytes; the output is out of step"
    );
}

/// A writer that claims more than it was given is held to the frame's
/// bytes (std's `write_all` panics on it).
#[test]
fn a_frame_writer_caps_a_writer_claiming_more_than_it_was_given() {
    let mut writer = FrameWriter::new(OverclaimingWriter(Vec::new()));
    writer.write_frame(b"hi").unwrap();
    writer.write_frame(b"").unwrap();
    assert_eq!(writer.get_ref().0, [0x02, b'h', b'i', 0x00]);
}

/// The review's value case, for frames: a source alternating `WouldBlock`
/// and one byte, under a loop that retries on `WouldBlock`. Unlike
/// `ReadExt`, a `FrameReader` keeps the partial frame, so every
/// `WouldBlock`, in the prefix or the payload, is safe to retry.
#[test]
fn a_frame_reader_keeps_its_partial_frame_across_would_block() {
    let payloads = vec![vec![0x5A; 300], b"x".to_vec()];
    let wire = encode_frames(&payloads);
    assert_eq!(wire[..2], [0xF8, 0x34], "a 2-byte length prefix");
    let mut reader = FrameReader::new(Trickle::new(&wire, &[0]).non_blocking());
    assert_eq!(
        reader.read_frame().unwrap_err().kind(),
        ErrorKind::WouldBlock
    );
    assert!(!reader.has_partial());
    let error = reader.read_frame().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::WouldBlock);
    assert!(error.get_ref().is_none(), "wrapped: {error}");
    assert!(reader.has_partial(), "the prefix's first byte is kept");
    assert_eq!(read_all_resuming(&mut reader), payloads);
}

#[test]
fn frame_errors_convert_into_io_errors() {
    let cases = [
        (
            FrameError::FrameTooLarge { len: 9, max: 1 },
            ErrorKind::InvalidData,
        ),
        (
            FrameError::Decode(DecodeError::Overflow),
            ErrorKind::InvalidData,
        ),
        (
            FrameError::Truncated {
                needed: 2,
                available: 1,
            },
            ErrorKind::UnexpectedEof,
        ),
        (
            FrameError::PayloadTooLarge { len: 9, max: 1 },
            ErrorKind::InvalidInput,
        ),
    ];
    for (frame_error, kind) in cases {
        let error = io::Error::from(frame_error);
        assert_eq!(error.kind(), kind);
        assert_eq!(inner_error::<FrameError>(&error), Some(&frame_error));
    }
}

/// Each message names the numbers and what to do, and says each thing
/// once: a chain printer (`anyhow`'s `{:#}`) shows the message, then each
/// source's.
#[test]
fn frame_error_messages_are_complete_and_not_repeated() {
    use std::error::Error;

    let incoming = FrameError::FrameTooLarge { len: 9, max: 1 };
    let message = incoming.to_string();
    assert_eq!(
        message,
        "incoming frame of 9 bytes is over the limit of 1 byte"
    );
    let outgoing = FrameError::PayloadTooLarge { len: 9, max: 1 }.to_string();
    assert_eq!(
        outgoing,
        "payload of 9 bytes is over the frame limit of 1 byte"
    );
    let one_byte_over = FrameError::PayloadTooLarge { len: 1, max: 0 }.to_string();
    assert_eq!(
        one_byte_over,
        "payload of 1 byte is over the frame limit of 0 bytes"
    );

    let cut = FrameError::Truncated {
        needed: 6,
        available: 4,
    };
    assert_eq!(
        cut.to_string(),
        "stream ended inside a frame: 6 bytes needed, 4 arrived"
    );
    let decode = FrameError::Decode(DecodeError::Overflow);
    assert!(
        decode
            .to_string()
            .starts_with("bad frame length prefix: bijou value overflows"),
        "{decode}"
    );
    assert!(
        decode.source().is_none(),
        "the inner error is in the message"
    );
    assert_eq!(FrameError::from(DecodeError::Overflow), decode);
    // A truncated length prefix is a truncated frame.
    assert_eq!(
        FrameError::from(DecodeError::Truncated {
            needed: 3,
            available: 2
        }),
        FrameError::Truncated {
            needed: 3,
            available: 2
        }
    );
}

#[test]
fn a_frame_reader_stops_exactly_after_each_frame() {
    let mut wire = header(2);
    wire.extend_from_slice(b"hi");
    wire.push(0xAB);
    let mut reader = FrameReader::new(&wire[..]);
    assert_eq!(reader.read_frame().unwrap(), Some(b"hi".to_vec()));
    assert_eq!(reader.into_inner(), &[0xAB]);
}

/// A reader that claims more bytes than it was given is held to the
/// buffer in a length prefix (its first byte would otherwise read as the
/// end of the stream). In a payload std's `Take` panics on it, as
/// documented on `FrameReader`, so the frames here are empty.
#[test]
fn a_frame_reader_caps_a_reader_claiming_more_than_the_buffer_in_prefixes() {
    let wire = header(0).repeat(3);
    let mut reader = FrameReader::new(Overclaiming(&wire));
    for _ in 0..3 {
        assert_eq!(reader.read_frame().unwrap(), Some(Vec::new()));
    }
    assert_eq!(reader.read_frame().unwrap(), None);
}

/// An inner error at any byte position, in every part of a frame (each
/// length-prefix size up to 4 bytes, empty and long payloads), is resumed
/// from with nothing lost.
#[test]
fn a_frame_reader_resumes_after_an_error_at_any_position() {
    let payloads = vec![
        Vec::new(),
        b"x".to_vec(),
        vec![7u8; 300],
        Vec::new(),
        vec![9u8; 70_000],
        b"end".to_vec(),
    ];
    let wire = encode_frames(&payloads);
    let prefix_of_long = encode_frames(&payloads[..4]).len();
    assert_eq!(
        wire[prefix_of_long..].len(),
        4 + 70_000 + 1 + 3,
        "a 4-byte prefix"
    );
    // Every position up to and into the long frame's payload, then a few
    // inside it and around its end.
    let positions = (0..prefix_of_long + 8).chain([
        prefix_of_long + 40_000,
        wire.len() - 5,
        wire.len() - 1,
        wire.len(),
    ]);
    for position in positions {
        let mut reader = FrameReader::new(
            Trickle::new(&wire, &[3]).failing_once_at(position, ErrorKind::TimedOut),
        );
        assert_eq!(
            read_all_resuming(&mut reader),
            payloads,
            "stalled at byte {position}"
        );
        assert!(
            !reader.get_ref().failure_pending(),
            "the stall at {position} was reached"
        );
    }
}

/// A frame error still abandons the frame: the next call starts afresh.
#[test]
fn a_frame_error_after_a_stall_abandons_the_frame() {
    // A 3-byte frame over a 2-byte limit, its prefix arriving after a stall.
    let wire = [0x03, 0x01, b'x', 0x00];
    let mut reader =
        FrameReader::with_max_frame_len(Trickle::new(&wire, &[0, 1]).non_blocking(), 2);
    let error = loop {
        match reader.read_frame() {
            Err(error) if error.kind() == ErrorKind::WouldBlock => {}
            other => break other.unwrap_err(),
        }
    };
    assert_eq!(
        inner_error::<FrameError>(&error),
        Some(&FrameError::FrameTooLarge { len: 3, max: 2 })
    );
    let mut rest = read_all_resuming(&mut reader);
    assert_eq!(rest.remove(0), b"x".to_vec());
    assert_eq!(rest, [Vec::<u8>::new()]);
}

/// A reader holding a large partial frame prints its size, not its bytes.
#[test]
fn a_frame_reader_debug_counts_the_partial_payload() {
    let mut wire = header(1 << 20);
    wire.extend_from_slice(&[0xAB; 100_000]);
    let mut reader = FrameReader::new(
        Trickle::new(&wire, &[3]).failing_once_at(wire.len(), ErrorKind::TimedOut),
    );
    assert_eq!(reader.read_frame().unwrap_err().kind(), ErrorKind::TimedOut);
    assert!(reader.has_partial());
    let debug = format!("{reader:?}");
    assert!(debug.contains("read: 100000"), "{debug}");
    assert!(debug.len() < 1000, "{} characters", debug.len());
}

/// A partial length prefix is held too, and a prefix cut by the end of the
/// stream is abandoned: the next call sees a clean end.
#[test]
fn a_frame_reader_holds_a_partial_prefix() {
    // 70 000 announced in a 4-byte prefix; a stall after its first 2 bytes.
    let wire = header(70_000);
    assert_eq!(wire.len(), 4);
    let mut reader =
        FrameReader::new(Trickle::new(&wire[..2], &[1]).failing_once_at(2, ErrorKind::TimedOut));
    assert!(!reader.has_partial());
    assert_eq!(reader.read_frame().unwrap_err().kind(), ErrorKind::TimedOut);
    assert!(reader.has_partial());
    let error = reader.read_frame().unwrap_err();
    common::assert_unexpected_eof(
        &error,
        FrameError::Truncated {
            needed: 4,
            available: 2,
        },
    );
    assert!(!reader.has_partial());
    assert_eq!(reader.read_frame().unwrap(), None);
}

/// The payload buffer grows with what arrives and never past the frame:
/// `read_to_end` alone would double it, up to twice the frame.
#[test]
fn a_frame_reader_allocates_at_most_the_frame() {
    let len = (1 << 20) + 1;
    let mut wire = header(len as u64);
    wire.resize(wire.len() + len, 0x5A);
    let mut reader = FrameReader::new(&wire[..]);
    largest_allocation::reset();
    let frame = reader.read_frame().unwrap().unwrap();
    assert_eq!(frame.len(), len);
    assert_eq!(largest_allocation::get(), len, "the largest allocation");

    // 100 000 bytes of an announced MiB: about what arrived, not the MiB.
    let mut wire = header(1 << 20);
    wire.resize(wire.len() + 100_000, 0x5A);
    let mut reader = FrameReader::new(&wire[..]);
    largest_allocation::reset();
    assert!(reader.read_frame().is_err());
    let largest = largest_allocation::get();
    assert!(
        largest <= 2 * 100_000 + 64 * 1024,
        "allocated {largest} bytes"
    );
}
