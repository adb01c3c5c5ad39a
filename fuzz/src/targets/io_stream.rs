//! bijou-io's incremental readers, fed arbitrary bytes in arbitrary pieces,
//! yield exactly what decoding the whole stream as one slice yields: the
//! `StreamDecoder`, the `Buf` adapter (over a many-chunk buffer, with and
//! without vectored peeking), the `Read` adapter and the tokio
//! `ValueCodec`, for every width.
//!
//! Input: the `split_chunks` format (piece lengths, then the stream).

use crate::{ChunkedBuf, ChunkedReader, FuzzWidth, each_width, split_chunks};
use bijou_core::DecodeError;
use bijou_io::{BufExt, ReadExt, StreamDecoder, ValueCodec};
use bytes::{Buf, BytesMut};
use testkit::oracle::{Outcome, stream_outcomes};
use tokio_util::codec::Decoder;

fn stream_decoder<T: FuzzWidth>(chunks: &[&[u8]]) -> (Outcome<T>, Vec<u8>) {
    let mut decoder = StreamDecoder::<T>::new();
    let mut items = Vec::new();
    for chunk in chunks {
        let mut values = decoder.values(chunk);
        items.extend(values.by_ref());
        assert!(values.remainder().is_empty(), "values() left input behind");
    }
    ((items, decoder.finish()), decoder.pending().to_vec())
}

fn buf_adapter<T: FuzzWidth>(chunks: &[&[u8]], vectored: bool) -> Outcome<T> {
    let mut buf = ChunkedBuf::new(chunks, vectored);
    let mut items = Vec::new();
    loop {
        let before = buf.remaining();
        let in_chunk = buf.chunk().len();
        let tag = buf.chunk().first().copied();
        match buf.try_get_bijou::<T>() {
            Ok(value) => {
                assert_eq!(before - buf.remaining(), value.encoded_len());
                items.push(Ok(value));
            }
            Err(DecodeError::Overflow) => {
                let len = T::len_from_tag(tag.expect("overflow needs a tag"));
                // Documented: nothing is consumed unless the value is split
                // across chunks the buffer cannot show without advancing.
                let forced = !vectored && in_chunk < len;
                let consumed = before - buf.remaining();
                assert_eq!(consumed, if forced { len } else { 0 }, "overflow consumed");
                // Skip the bad value, as the other readers do.
                buf.advance(len - consumed);
                items.push(Err(DecodeError::Overflow));
            }
            Err(truncated) => {
                assert_eq!(buf.remaining(), before, "truncated read consumed bytes");
                let end = if before == 0 { Ok(()) } else { Err(truncated) };
                return (items, end);
            }
        }
    }
}

/// The `DecodeError` inside an `io::Error` from bijou-io.
fn decode_error(error: &std::io::Error) -> DecodeError {
    *error
        .get_ref()
        .and_then(|source| source.downcast_ref::<DecodeError>())
        .unwrap_or_else(|| panic!("not a DecodeError: {error:?}"))
}

fn read_adapter<T: FuzzWidth>(chunks: &[&[u8]]) -> Outcome<T> {
    let mut reader = ChunkedReader::new(chunks);
    let mut items = Vec::new();
    loop {
        match reader.try_read_bijou::<T>() {
            Ok(Some(value)) => items.push(Ok(value)),
            Ok(None) => return (items, Ok(())),
            Err(error) => match decode_error(&error) {
                // The reader has consumed exactly the bad value.
                DecodeError::Overflow => items.push(Err(DecodeError::Overflow)),
                truncated => return (items, Err(truncated)),
            },
        }
    }
}

/// A `Decoder` error ends a tokio stream, so the codec's outcome is its
/// values up to the first overflow, then that overflow as the end.
fn value_codec<T: FuzzWidth>(chunks: &[&[u8]]) -> Outcome<T> {
    let mut codec = ValueCodec::<T>::new();
    let mut src = BytesMut::new();
    let mut items = Vec::new();
    for chunk in chunks {
        src.extend_from_slice(chunk);
        loop {
            match codec.decode(&mut src) {
                Ok(Some(value)) => items.push(Ok(value)),
                Ok(None) => break,
                Err(error) => return (items, Err(decode_error(&error))),
            }
        }
    }
    loop {
        match codec.decode_eof(&mut src) {
            Ok(Some(value)) => items.push(Ok(value)),
            Ok(None) => return (items, Ok(())),
            Err(error) => return (items, Err(decode_error(&error))),
        }
    }
}

/// What [`value_codec`] should give, from the reference outcome.
fn until_first_overflow<T: FuzzWidth>((items, end): Outcome<T>) -> Outcome<T> {
    match items.iter().position(Result::is_err) {
        Some(at) => (items[..at].to_vec(), Err(DecodeError::Overflow)),
        None => (items, end),
    }
}

fn check<T: FuzzWidth>(chunks: &[&[u8]]) {
    let stream = chunks.concat();
    let (expected, tail) = stream_outcomes::<T>(&stream);
    let (streamed, pending) = stream_decoder::<T>(chunks);
    assert_eq!(streamed, expected, "{} StreamDecoder", T::NAME);
    assert_eq!(pending, tail, "{} StreamDecoder pending", T::NAME);
    for vectored in [false, true] {
        let got = buf_adapter::<T>(chunks, vectored);
        assert_eq!(got, expected, "{} Buf (vectored: {vectored})", T::NAME);
    }
    assert_eq!(read_adapter::<T>(chunks), expected, "{} Read", T::NAME);
    let codec_expected = until_first_overflow(expected);
    assert_eq!(
        value_codec::<T>(chunks),
        codec_expected,
        "{} ValueCodec",
        T::NAME
    );
}

/// Runs the checks on one input; panics if any fails.
pub fn run(data: &[u8]) {
    let chunks = split_chunks(data);
    for check in each_width!(check) {
        check(&chunks);
    }
}
