//! Frames written from several slices: `FrameWriter::write_frame_vectored`
//! and `FrameEncoder::encode_vectored`, against the one-slice forms of the
//! joined payload, over writers that take any amount a call.

use std::io::{self, ErrorKind, IoSlice, Write};

use bijou_io::{FrameEncoder, FrameError, FrameWriter, MidValueError};
use bytes::BytesMut;
use proptest::prelude::*;

use crate::common::{self, Budget, OverclaimingWriter, assert_cut_inside, inner_error};

/// A vectored writer that takes at most `step` bytes a call, across as
/// many of the offered slices as that reaches, then fails with
/// `ConnectionReset` once `budget` bytes are in. Counts its calls.
struct Sink {
    written: Vec<u8>,
    step: usize,
    budget: usize,
    calls: usize,
}

impl Sink {
    fn new(step: usize, budget: usize) -> Self {
        Sink {
            written: Vec::new(),
            step,
            budget,
            calls: 0,
        }
    }
}

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.write_vectored(&[IoSlice::new(bytes)])
    }

    fn write_vectored(&mut self, slices: &[IoSlice<'_>]) -> io::Result<usize> {
        self.calls += 1;
        if self.budget == 0 {
            return Err(ErrorKind::ConnectionReset.into());
        }
        let mut room = self.step.min(self.budget);
        let mut taken = 0;
        for slice in slices {
            let len = slice.len().min(room);
            self.written.extend_from_slice(&slice[..len]);
            room -= len;
            taken += len;
        }
        self.budget -= taken;
        Ok(taken)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The frame `write_frame` writes for the joined `parts`.
fn joined_frame(parts: &[Vec<u8>]) -> Vec<u8> {
    let mut writer = FrameWriter::new(Vec::new());
    writer.write_frame(&parts.concat()).unwrap();
    writer.into_inner()
}

fn slices(parts: &[Vec<u8>]) -> Vec<&[u8]> {
    parts.iter().map(Vec::as_slice).collect()
}

/// Up to 20 parts (more than one call's window of 8), empty ones among
/// them, some long enough for a 2-byte length prefix.
fn parts() -> impl Strategy<Value = Vec<Vec<u8>>> {
    proptest::collection::vec(
        prop_oneof![
            Just(Vec::new()),
            proptest::collection::vec(any::<u8>(), 1..40),
            proptest::collection::vec(any::<u8>(), 200..300),
        ],
        0..20,
    )
}

proptest! {
    #![proptest_config(common::config())]

    /// Whatever a call takes, inside a part or across several, the frame
    /// goes out whole and equals the joined payload's.
    #[test]
    fn partial_writes_resume_where_they_stopped(parts in parts(), step in 1usize..64) {
        let mut writer = FrameWriter::new(Sink::new(step, usize::MAX));
        writer.write_frame_vectored(&slices(&parts)).unwrap();
        prop_assert_eq!(&writer.get_ref().written, &joined_frame(&parts));
    }

    /// A writer that fails after `budget` bytes: a `MidValueError` counting
    /// them (the writer's error as is when none went out), and exactly
    /// those bytes of the frame written.
    #[test]
    fn an_error_inside_the_frame_counts_what_went_out(
        parts in parts(),
        step in 1usize..64,
        cut in any::<prop::sample::Index>(),
    ) {
        let frame = joined_frame(&parts);
        let budget = cut.index(frame.len());
        let mut writer = FrameWriter::new(Sink::new(step, budget));
        let error = writer.write_frame_vectored(&slices(&parts)).unwrap_err();
        if budget == 0 {
            prop_assert_eq!(error.kind(), ErrorKind::ConnectionReset);
            prop_assert!(inner_error::<MidValueError>(&error).is_none());
        } else {
            assert_cut_inside(&error, ErrorKind::ConnectionReset, budget, frame.len());
        }
        prop_assert_eq!(&writer.get_ref().written[..], &frame[..budget]);
    }

    /// `encode_vectored` appends what `encode` of the joined payload does.
    #[test]
    fn encode_vectored_equals_encode_of_the_joined_payload(parts in parts()) {
        let mut vectored = BytesMut::from(&b"before"[..]);
        FrameEncoder::new().encode_vectored(&slices(&parts), &mut vectored).unwrap();
        let mut joined = BytesMut::from(&b"before"[..]);
        FrameEncoder::new().encode(&parts.concat(), &mut joined).unwrap();
        prop_assert_eq!(vectored, joined);
    }
}

/// The prefix and the parts reach a vectored writer together: one call
/// for a frame of up to 7 parts (8 slices with the prefix), one more per
/// further 8.
#[test]
fn the_slices_go_out_together() {
    for (count, calls) in [(0, 1), (1, 1), (7, 1), (8, 2), (15, 2), (16, 3)] {
        let parts: Vec<Vec<u8>> = (0..count).map(|i| vec![i; 3]).collect();
        let mut writer = FrameWriter::new(Sink::new(usize::MAX, usize::MAX));
        writer.write_frame_vectored(&slices(&parts)).unwrap();
        assert_eq!(writer.get_ref().calls, calls, "{count} parts");
        assert_eq!(writer.get_ref().written, joined_frame(&parts));
    }
}

/// A writer with std's default `write_vectored` (one slice a call, here
/// two bytes at most, each after an `Interrupted`) still gets the frame.
#[test]
fn a_writer_without_vectored_writes_gets_the_frame_slice_by_slice() {
    let parts = [b"ab".to_vec(), Vec::new(), b"cde".to_vec()];
    let mut writer = FrameWriter::new(Budget::new(usize::MAX, ErrorKind::Other));
    writer.write_frame_vectored(&slices(&parts)).unwrap();
    assert_eq!(writer.get_ref().written, joined_frame(&parts));
}

/// A writer claiming more than it was given is held to the frame.
#[test]
fn an_overclaiming_writer_is_held_to_the_frame() {
    let mut writer = FrameWriter::new(OverclaimingWriter(Vec::new()));
    writer.write_frame_vectored(&[b"a", b"bc"]).unwrap();
    writer.write_frame_vectored(&[]).unwrap();
    assert_eq!(writer.get_ref().0, [0x03, b'a', b'b', b'c', 0x00]);
}

/// The limit applies to the parts' total; nothing is written over it.
#[test]
fn the_limit_counts_all_parts() {
    let too_large = FrameError::PayloadTooLarge { len: 5, max: 4 };
    let mut writer = FrameWriter::with_max_frame_len(Vec::new(), 4);
    let error = writer.write_frame_vectored(&[b"ab", b"cde"]).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidInput);
    assert_eq!(inner_error::<FrameError>(&error), Some(&too_large));
    writer.write_frame_vectored(&[b"ab", b"cd"]).unwrap();
    assert_eq!(writer.get_ref().len(), 5);

    let mut dst = BytesMut::new();
    let encoder = FrameEncoder::with_max_frame_len(4);
    assert_eq!(
        encoder.encode_vectored(&[b"ab", b"cde"], &mut dst),
        Err(too_large)
    );
    assert!(dst.is_empty());
}
