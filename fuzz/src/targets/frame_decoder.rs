//! Length-delimited frames from arbitrary bytes in arbitrary pieces: the
//! `FrameDecoder` (over a growing `BytesMut`) and the `FrameReader` (over a
//! `Read`, blocking or not: empty pieces are `WouldBlock`, which it must
//! resume from) never panic, never yield a frame longer than `max_frame_len`,
//! never grow their buffer much beyond one maximal frame, and agree with
//! parsing the whole stream at once. Re-encoding the frames with the
//! `FrameEncoder` gives back exactly the bytes they were decoded from.
//!
//! `cargo xtask fuzz` runs this target with `-malloc_limit_mb=1`, and the
//! replay of the kept corpus checks the same bound: inputs are far below
//! 1 MiB and both decoders reserve at most 64 KiB ahead of
//! what arrived, so with or without a frame limit any single allocation of
//! 1 MiB or more means a decoder trusted an announced length.
//!
//! Input: byte 0 sets `max_frame_len` to its square (0 to 64516 bytes, fine
//! steps where frames fit in an input), or with 255 to `usize::MAX` (no
//! limit: buffers must still grow only with what arrives, and a length
//! whose prefix plus payload overflows `usize` must be refused); the rest is
//! the `split_chunks` format.

use crate::{ChunkedReader, split_chunks};
use bijou_core::{Bijou, DecodeError, MAX_ENCODED_LEN};
use bijou_io::{FrameDecoder, FrameEncoder, FrameError, FrameReader};
use bytes::BytesMut;

/// Frames in order, and how the stream ends.
type Outcome = (Vec<Vec<u8>>, Result<(), FrameError>);

/// The reference: frames parsed off the whole stream with `decode`, and the
/// number of bytes they span.
fn parse_whole(mut stream: &[u8], max: usize) -> (Outcome, usize) {
    let mut frames = Vec::new();
    let mut consumed = 0;
    let end = loop {
        if stream.is_empty() {
            break Ok(());
        }
        let (len, header) = match u64::decode(stream) {
            Ok(decoded) => decoded,
            Err(DecodeError::Truncated { needed, available }) => {
                break Err(FrameError::Truncated { needed, available });
            }
            Err(error) => break Err(FrameError::Decode(error)),
        };
        let len = match usize::try_from(len) {
            Ok(len) if len <= max => len,
            _ => break Err(FrameError::FrameTooLarge { len, max }),
        };
        if header.checked_add(len).is_none() {
            let max = usize::MAX - header;
            break Err(FrameError::FrameTooLarge {
                len: len as u64,
                max,
            });
        }
        let Some(frame) = stream.get(header..header + len) else {
            break Err(FrameError::Truncated {
                needed: header + len,
                available: stream.len(),
            });
        };
        frames.push(frame.to_vec());
        stream = &stream[header + len..];
        consumed += header + len;
    };
    ((frames, end), consumed)
}

fn frame_decoder(chunks: &[&[u8]], max: usize, capacity_limit: usize) -> Outcome {
    let decoder = FrameDecoder::with_max_frame_len(max);
    let mut src = BytesMut::new();
    let mut frames = Vec::new();
    // Each piece as it arrives, then `None`: the stream has ended.
    for piece in chunks.iter().map(Some).chain([None]) {
        if let Some(piece) = piece {
            src.extend_from_slice(piece);
        }
        loop {
            let decoded = match piece {
                Some(_) => decoder.decode(&mut src),
                None => decoder.decode_eof(&mut src),
            };
            let capacity = src.capacity();
            assert!(capacity <= capacity_limit, "buffer grew to {capacity}");
            match decoded {
                Ok(Some(frame)) => {
                    let len = frame.len();
                    assert!(len <= max, "frame of {len} bytes, max {max}");
                    frames.push(frame.to_vec());
                }
                Ok(None) if piece.is_some() => break,
                Ok(None) => return (frames, Ok(())),
                Err(error) => return (frames, Err(error)),
            }
        }
    }
    unreachable!("the end of the stream returns")
}

fn frame_reader(source: ChunkedReader<'_>, max: usize) -> Outcome {
    let mut reader = FrameReader::with_max_frame_len(source, max);
    let mut frames = Vec::new();
    loop {
        match reader.read_frame() {
            // A non-blocking source: call again, nothing may be lost.
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {}
            Ok(Some(frame)) => {
                let len = frame.len();
                assert!(len <= max, "frame of {len} bytes, max {max}");
                frames.push(frame);
            }
            Ok(None) => return (frames, Ok(())),
            Err(error) => {
                // Every frame error, prefix or payload, carries a FrameError.
                let source = error.get_ref().expect("frame errors carry a source");
                let Some(&frame_error) = source.downcast_ref::<FrameError>() else {
                    panic!("unexpected error source: {error:?}");
                };
                return (frames, Err(frame_error));
            }
        }
    }
}

/// Runs the checks on one input; panics if any fails.
pub fn run(data: &[u8]) {
    let Some((&max_root, rest)) = data.split_first() else {
        return;
    };
    let max = match max_root {
        255 => usize::MAX,
        root => usize::from(root).pow(2),
    };
    let chunks = split_chunks(rest);
    let stream = chunks.concat();

    let (expected, consumed) = parse_whole(&stream, max);
    // `BytesMut` may double its capacity when it grows, so allow twice what
    // the input plus one maximal frame (and its header) could need; the
    // decoder reserves at most 64 KiB ahead of what arrived, whatever the
    // limit.
    let capacity_limit = 2 * (stream.len() + max.min(64 * 1024) + MAX_ENCODED_LEN);
    let decoded = frame_decoder(&chunks, max, capacity_limit);
    assert_eq!(decoded, expected, "FrameDecoder");
    let reader = ChunkedReader::new(&chunks);
    assert_eq!(frame_reader(reader.clone(), max), expected, "FrameReader");
    let non_blocking = reader.would_block_on_empty_chunks();
    assert_eq!(
        frame_reader(non_blocking, max),
        expected,
        "FrameReader, WouldBlock"
    );

    // Frames are canonical: encoding them again reproduces their bytes.
    let mut encoded = BytesMut::new();
    for frame in &expected.0 {
        FrameEncoder::with_max_frame_len(max)
            .encode(frame, &mut encoded)
            .expect("a decoded frame fits the limit it was decoded under");
    }
    assert_eq!(encoded[..], stream[..consumed]);
}
