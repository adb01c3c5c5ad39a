//! The varint shoot-out: bijou-core's bijou64 against the upstream `bijou64`
//! and `bijoux` crates and the LEB128 and prefix-varint crates users would pick instead.
//!
//! Groups are operations, functions are implementations and parameters are
//! workloads (`benches/lib.rs`), so criterion ids read
//! `varint-decode/prost/mix-16`. Every benchmark processes one batch of
//! `BATCH` values per iteration and declares `Throughput::Elements(BATCH)`:
//! criterion's time divided by `BATCH` is ns/value. In each group the first
//! function is bijou-core, the one `cargo xtask bench` reports ratios against.
//!
//! After criterion, a measuring run (`cargo bench`, `cargo xtask bench`)
//! prints the per-value loops of bijou-core and its peers again in
//! interleaved tables (`tables.rs`), all timed in turn round after round:
//! their criterion medians are closer than run-to-run drift. Filter criterion out
//! to get the tables alone: `cargo bench -p bijou-benches --bench bijou --
//! '^none$'`. With `BIJOU_BENCH_CDF` set it also times every stream
//! decoder batch by batch for the report's decode-time CDF charts
//! (`cdf.rs`).
//!
//! Only public APIs are called, bijou-core's included, so the numbers stay
//! valid as its internals are optimised.

use bijou_benches::{BATCH, Stream, Workload, cycled, workloads};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

mod cdf;
mod tables;

/// One implementation of a u64 varint, reduced to what the operations need.
/// Methods are `#[inline(always)]` in every impl so each generic loop below
/// compiles to the same code as a hand-written loop over that crate's API.
trait Codec {
    /// The criterion function name.
    const NAME: &'static str;
    /// Appends the encoding of `value`.
    fn encode(value: u64, out: &mut Vec<u8>);
    /// Decodes the value at the front of `input` (which is followed by at
    /// least `Stream::PADDING` bytes), returning it and its length.
    fn decode(input: &[u8]) -> Option<(u64, usize)>;
    /// Like `decode`, but rejecting any encoding that is not the shortest
    /// one: what a caller hashing or signing varints must do. Formats that
    /// are canonical by construction, or whose decoder already checks, keep
    /// this default.
    #[inline(always)]
    fn decode_canonical(input: &[u8]) -> Option<(u64, usize)> {
        Self::decode(input)
    }
}

/// The overlong check every LEB128 decoder needs for canonical input: a
/// multi-byte encoding must not end in a zero group (`80 00` is also 0).
#[inline(always)]
fn leb128_shortest(input: &[u8], decoded: Option<(u64, usize)>) -> Option<(u64, usize)> {
    decoded.filter(|&(_, len)| len == 1 || input[len - 1] != 0)
}

struct BijouCore;
impl Codec for BijouCore {
    const NAME: &'static str = "bijou-core";
    #[inline(always)]
    fn encode(value: u64, out: &mut Vec<u8>) {
        bijou_core::bijou64::encode(value, out);
    }
    #[inline(always)]
    fn decode(input: &[u8]) -> Option<(u64, usize)> {
        bijou_core::bijou64::decode(input).ok()
    }
}

struct Upstream;
#[allow(deprecated)] // 0.2.2 points at its successor; the code is unchanged.
impl Codec for Upstream {
    const NAME: &'static str = "bijou64";
    #[inline(always)]
    fn encode(value: u64, out: &mut Vec<u8>) {
        bijou64::encode(value, out);
    }
    #[inline(always)]
    fn decode(input: &[u8]) -> Option<(u64, usize)> {
        bijou64::decode(input).ok()
    }
}

/// Upstream's successor crate (same format, same decoder shape).
struct Bijoux;
impl Codec for Bijoux {
    const NAME: &'static str = "bijoux";
    #[inline(always)]
    fn encode(value: u64, out: &mut Vec<u8>) {
        bijoux::u64::encode(value, out);
    }
    #[inline(always)]
    fn decode(input: &[u8]) -> Option<(u64, usize)> {
        bijoux::u64::decode(input).ok()
    }
}

struct Prost;
impl Codec for Prost {
    const NAME: &'static str = "prost";
    #[inline(always)]
    fn encode(value: u64, out: &mut Vec<u8>) {
        prost::encoding::encode_varint(value, out);
    }
    #[inline(always)]
    fn decode(input: &[u8]) -> Option<(u64, usize)> {
        let mut rest = input;
        let value = prost::encoding::decode_varint(&mut rest).ok()?;
        Some((value, input.len() - rest.len()))
    }
    #[inline(always)]
    fn decode_canonical(input: &[u8]) -> Option<(u64, usize)> {
        leb128_shortest(input, Self::decode(input))
    }
}

struct Leb128;
impl Codec for Leb128 {
    const NAME: &'static str = "leb128";
    #[inline(always)]
    fn encode(value: u64, out: &mut Vec<u8>) {
        leb128::write::unsigned(out, value).expect("writing to a Vec cannot fail");
    }
    #[inline(always)]
    fn decode(input: &[u8]) -> Option<(u64, usize)> {
        let mut rest = input;
        let value = leb128::read::unsigned(&mut rest).ok()?;
        Some((value, input.len() - rest.len()))
    }
    #[inline(always)]
    fn decode_canonical(input: &[u8]) -> Option<(u64, usize)> {
        leb128_shortest(input, Self::decode(input))
    }
}

struct IntegerEncoding;
impl Codec for IntegerEncoding {
    const NAME: &'static str = "integer-encoding";
    #[inline(always)]
    fn encode(value: u64, out: &mut Vec<u8>) {
        use integer_encoding::VarInt;
        let mut buf = [0; 10];
        let len = value.encode_var(&mut buf);
        out.extend_from_slice(&buf[..len]);
    }
    #[inline(always)]
    fn decode(input: &[u8]) -> Option<(u64, usize)> {
        integer_encoding::VarInt::decode_var(input)
    }
    #[inline(always)]
    fn decode_canonical(input: &[u8]) -> Option<(u64, usize)> {
        leb128_shortest(input, Self::decode(input))
    }
}

/// Rejects non-minimal encodings itself (`Error::NotMinimal`).
struct UnsignedVarint;
impl Codec for UnsignedVarint {
    const NAME: &'static str = "unsigned-varint";
    #[inline(always)]
    fn encode(value: u64, out: &mut Vec<u8>) {
        let mut buf = unsigned_varint::encode::u64_buffer();
        out.extend_from_slice(unsigned_varint::encode::u64(value, &mut buf));
    }
    #[inline(always)]
    fn decode(input: &[u8]) -> Option<(u64, usize)> {
        let (value, rest) = unsigned_varint::decode::u64(input).ok()?;
        Some((value, input.len() - rest.len()))
    }
}

/// Decodes from a fixed 9-byte window, hence the streams' padding.
struct Vu128;
impl Codec for Vu128 {
    const NAME: &'static str = "vu128";
    #[inline(always)]
    fn encode(value: u64, out: &mut Vec<u8>) {
        let mut buf = [0; 9];
        let len = vu128::encode_u64(&mut buf, value);
        out.extend_from_slice(&buf[..len]);
    }
    #[inline(always)]
    fn decode(input: &[u8]) -> Option<(u64, usize)> {
        let window: &[u8; 9] = input.get(..9)?.try_into().ok()?;
        Some(vu128::decode_u64(window))
    }
    /// vu128 accepts over-long forms and leaves the check to the caller;
    /// it has no value-to-length function, so re-encode and compare.
    #[inline(always)]
    fn decode_canonical(input: &[u8]) -> Option<(u64, usize)> {
        let (value, len) = Self::decode(input)?;
        (vu128::encode_u64(&mut [0; 9], value) == len).then_some((value, len))
    }
}

/// Rejects non-canonical encodings itself (`DecodeError::NonCanonical`).
struct Varu64;
impl Codec for Varu64 {
    const NAME: &'static str = "varu64";
    #[inline(always)]
    fn encode(value: u64, out: &mut Vec<u8>) {
        let mut buf = [0; 9];
        let len = varu64::encode(value, &mut buf);
        out.extend_from_slice(&buf[..len]);
    }
    #[inline(always)]
    fn decode(input: &[u8]) -> Option<(u64, usize)> {
        let (value, rest) = varu64::decode(input).ok()?;
        Some((value, input.len() - rest.len()))
    }
}

/// Calls `$bench::<Codec>($args)` for every codec, bijou-core first.
macro_rules! for_each_codec {
    ($bench:ident($($arg:expr),*)) => {
        $bench::<BijouCore>($($arg),*);
        $bench::<Upstream>($($arg),*);
        $bench::<Bijoux>($($arg),*);
        $bench::<Prost>($($arg),*);
        $bench::<Leb128>($($arg),*);
        $bench::<IntegerEncoding>($($arg),*);
        $bench::<UnsignedVarint>($($arg),*);
        $bench::<Vu128>($($arg),*);
        $bench::<Varu64>($($arg),*);
    };
}

type Group<'a> = BenchmarkGroup<'a, WallTime>;

/// Each batch of `workload` encoded by `C`, checked to decode back (so a
/// misused peer API fails loudly instead of timing garbage).
fn streams<C: Codec>(workload: &Workload) -> Vec<Stream> {
    let streams: Vec<Stream> = workload
        .batches
        .iter()
        .map(|batch| Stream::encode(batch, C::encode))
        .collect();
    for (batch, stream) in workload.batches.iter().zip(&streams) {
        let mut out = vec![0; BATCH];
        assert_eq!(
            decode_stream::<C>(stream, &mut out),
            stream.len,
            "{}",
            C::NAME
        );
        assert_eq!(&out, batch, "{} round trip", C::NAME);
        canonical_stream::<C>(stream, &mut out);
        assert_eq!(&out, batch, "{} canonical round trip", C::NAME);
    }
    streams
}

/// Appends each value to a reused vector, as a message encoder would.
#[inline(always)]
fn encode_values<C: Codec>(batch: &[u64], out: &mut Vec<u8>) {
    out.clear();
    for &value in batch {
        C::encode(value, out);
    }
    black_box(out);
}

fn encode<C: Codec>(group: &mut Group<'_>, workload: &Workload) {
    let mut out = Vec::with_capacity(BATCH * 10);
    cycled(group, id::<C>(workload), &workload.batches, |batch| {
        encode_values::<C>(batch, &mut out);
    });
}

/// The stream loop: decode, advance by the length, repeat. Each position
/// depends on the previous value's length, so this measures latency.
#[inline(always)]
fn decode_stream<C: Codec>(stream: &Stream, out: &mut [u64]) -> usize {
    decode_prefix::<C>(&stream.bytes, stream.len, out)
}

/// The stream loop over the values in the first `len` bytes of `bytes`
/// (a stream's padding after them, or nothing); returns where it stopped.
#[inline(always)]
fn decode_prefix<C: Codec>(bytes: &[u8], len: usize, out: &mut [u64]) -> usize {
    let (mut pos, mut i) = (0, 0);
    while pos < len {
        let (value, value_len) = C::decode(&bytes[pos..]).expect("valid stream");
        out[i] = value;
        (pos, i) = (pos + value_len, i + 1);
    }
    pos
}

/// [`decode_stream`] with each crate's canonical check.
#[inline(always)]
fn canonical_stream<C: Codec>(stream: &Stream, out: &mut [u64]) {
    let (bytes, mut pos, mut i) = (&stream.bytes[..], 0, 0);
    while pos < stream.len {
        let (value, len) = C::decode_canonical(&bytes[pos..]).expect("canonical stream");
        out[i] = value;
        (pos, i) = (pos + len, i + 1);
    }
}

fn decode<C: Codec>(group: &mut Group<'_>, workload: &Workload) {
    let mut out = vec![0; BATCH];
    cycled(group, id::<C>(workload), &streams::<C>(workload), |s| {
        decode_stream::<C>(s, &mut out);
        black_box(&out);
    });
}

/// Decodes at known offsets (an index, a fixed layout): no value waits for
/// the previous one's length, so this measures throughput.
#[inline(always)]
fn decode_at_offsets<C: Codec>(stream: &Stream, out: &mut [u64]) {
    for (slot, &offset) in out.iter_mut().zip(&stream.offsets) {
        *slot = C::decode(&stream.bytes[offset..]).expect("valid stream").0;
    }
    black_box(out);
}

fn decode_offsets<C: Codec>(group: &mut Group<'_>, workload: &Workload) {
    let mut out = vec![0; BATCH];
    cycled(group, id::<C>(workload), &streams::<C>(workload), |s| {
        decode_at_offsets::<C>(s, &mut out);
    });
}

fn decode_canonical<C: Codec>(group: &mut Group<'_>, workload: &Workload) {
    let mut out = vec![0; BATCH];
    cycled(group, id::<C>(workload), &streams::<C>(workload), |s| {
        canonical_stream::<C>(s, &mut out);
        black_box(&out);
    });
}

fn id<C: Codec>(workload: &Workload) -> BenchmarkId {
    BenchmarkId::new(C::NAME, workload.name)
}

/// bijou-core's batch APIs, benchmarked in the same groups as the per-value
/// loops so the report shows what batching buys.
const BATCH_NAME: &str = "bijou-core-batch";

fn encode_batch(group: &mut Group<'_>, workload: &Workload) {
    let mut out = Vec::with_capacity(BATCH * 10);
    // Checked first, as `streams` checks the per-value codecs: the batch
    // encoder writes what a loop of `encode` writes.
    for batch in &workload.batches {
        out.clear();
        bijou_core::bijou64::encode_batch(batch, &mut out);
        let stream = Stream::encode(batch, BijouCore::encode);
        assert_eq!(out, stream.bytes[..stream.len], "{BATCH_NAME} encode");
    }
    let id = BenchmarkId::new(BATCH_NAME, workload.name);
    cycled(group, id, &workload.batches, |batch| {
        out.clear();
        bijou_core::bijou64::encode_batch(batch, &mut out);
        black_box(&out);
    });
}

fn decode_batch(group: &mut Group<'_>, workload: &Workload) {
    let mut out = vec![0; BATCH];
    let streams = streams::<BijouCore>(workload);
    // Checked first: every value decoded, every byte consumed, the values
    // right (`decode_batch` returns early, without error, at a cut tail).
    for (batch, s) in workload.batches.iter().zip(&streams) {
        let done = bijou_core::bijou64::decode_batch(&s.bytes[..s.len], &mut out);
        assert_eq!(done, Ok((BATCH, s.len)), "{BATCH_NAME} decode");
        assert_eq!(&out, batch, "{BATCH_NAME} round trip");
    }
    let id = BenchmarkId::new(BATCH_NAME, workload.name);
    cycled(group, id, &streams, |s| {
        let done = bijou_core::bijou64::decode_batch(&s.bytes[..s.len], &mut out);
        black_box(done.expect("valid stream"));
        black_box(&out);
    });
}

/// bijou64s, the zigzag-signed sibling, on each workload's values mapped
/// through `unzigzag` (so every value keeps its encoded length): a loop of
/// `encode` against one `encode_batch`.
fn encode_signed(group: &mut Group<'_>, workload: &Workload) {
    let batches: Vec<Vec<i64>> = workload
        .batches
        .iter()
        .map(|batch| {
            batch
                .iter()
                .map(|&v| bijou_core::bijou64s::unzigzag(v))
                .collect()
        })
        .collect();
    let mut out = Vec::with_capacity(BATCH * 10);
    for batch in &batches {
        let mut looped = Vec::new();
        for &value in batch {
            bijou_core::bijou64s::encode(value, &mut looped);
        }
        out.clear();
        bijou_core::bijou64s::encode_batch(batch, &mut out);
        assert_eq!(out, looped, "{BATCH_NAME} signed encode");
    }
    let id = BenchmarkId::new(BijouCore::NAME, workload.name);
    cycled(group, id, &batches, |batch| {
        out.clear();
        for &value in batch {
            bijou_core::bijou64s::encode(value, &mut out);
        }
        black_box(&out);
    });
    let id = BenchmarkId::new(BATCH_NAME, workload.name);
    cycled(group, id, &batches, |batch| {
        out.clear();
        bijou_core::bijou64s::encode_batch(batch, &mut out);
        black_box(&out);
    });
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> Group<'a> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(BATCH as u64));
    group
}

fn varints(c: &mut Criterion) {
    let workloads = workloads();

    let mut g = group(c, "varint-encode");
    for w in &workloads {
        for_each_codec!(encode(&mut g, w));
        encode_batch(&mut g, w);
    }
    g.finish();

    let mut g = group(c, "varint-encode-signed");
    for w in &workloads {
        encode_signed(&mut g, w);
    }
    g.finish();

    let mut g = group(c, "varint-decode");
    for w in &workloads {
        for_each_codec!(decode(&mut g, w));
        decode_batch(&mut g, w);
    }
    g.finish();

    let mut g = group(c, "varint-decode-offsets");
    for w in &workloads {
        for_each_codec!(decode_offsets(&mut g, w));
    }
    g.finish();

    let mut g = group(c, "varint-decode-canonical");
    for w in &workloads {
        for_each_codec!(decode_canonical(&mut g, w));
    }
    g.finish();
}

/// ~300 benchmarks: shorter than criterion's default 3 s + 5 s each keeps
/// this bench near 20 minutes (pinned to one core: about 35). CLI flags (`--quick` in the xtask)
/// override these.
fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
}

fn main() {
    let mut criterion = config().configure_from_args();
    varints(&mut criterion);
    criterion.final_summary();
    if bijou_benches::is_measuring_run() {
        tables::interleaved_tables();
    }
    cdf::write_if_requested();
}
