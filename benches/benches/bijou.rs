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
//! prints the per-value loops of bijou-core and upstream `bijou64` again in
//! interleaved tables, the two timed in turn round after round: their
//! criterion medians are closer than run-to-run drift. Filter criterion out
//! to get the tables alone: `cargo bench -p bijou-benches --bench bijou --
//! '^none$'`.
//!
//! Only public APIs are called, bijou-core's included, so the numbers stay
//! valid as its internals are optimised.

use bijou_benches::{BATCH, Contender, Interleave, Stats, Stream, Workload, cycled, workloads};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

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
    let (bytes, mut pos, mut i) = (&stream.bytes[..], 0, 0);
    while pos < stream.len {
        let (value, len) = C::decode(&bytes[pos..]).expect("valid stream");
        out[i] = value;
        (pos, i) = (pos + len, i + 1);
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

/// How the interleaved tables measure: 101 rounds, each timing every
/// contender on 64 Ki values (16 batches, a few hundred microseconds).
const INTERLEAVE: Interleave = Interleave {
    rounds: 101,
    sample_bytes: 16 * BATCH,
    clock_links: 1 << 16,
};

/// The per-value loops the interleaved tables time, named as their
/// criterion groups.
#[derive(Clone, Copy)]
enum Loop {
    Encode,
    Decode,
    DecodeOffsets,
}

impl Loop {
    fn group(self) -> &'static str {
        match self {
            Self::Encode => "varint-encode",
            Self::Decode => "varint-decode",
            Self::DecodeOffsets => "varint-decode-offsets",
        }
    }

    /// `C`'s loop over `workload`, one batch a call, the batches in turn.
    fn contender<C: Codec>(self, workload: &Workload) -> Contender<'static> {
        let mut at = 0;
        let run: Box<dyn FnMut()> = match self {
            Self::Encode => {
                let (batches, mut out) = (workload.batches.clone(), Vec::with_capacity(BATCH * 10));
                Box::new(move || {
                    encode_values::<C>(black_box(&batches[at]), &mut out);
                    at = (at + 1) % batches.len();
                })
            }
            Self::Decode | Self::DecodeOffsets => {
                let (streams, mut out) = (streams::<C>(workload), vec![0; BATCH]);
                let offsets = matches!(self, Self::DecodeOffsets);
                Box::new(move || {
                    let stream = black_box(&streams[at]);
                    if offsets {
                        decode_at_offsets::<C>(stream, &mut out);
                    } else {
                        black_box(decode_stream::<C>(stream, &mut out));
                        black_box(&out);
                    }
                    at = (at + 1) % streams.len();
                })
            }
        };
        (C::NAME.to_owned(), run)
    }
}

/// Formats `stats` (one per contender) as a table row's cells.
fn cells(stats: &[Stats]) -> String {
    // `Interleave` counts units per second; here a unit is a value.
    stats
        .iter()
        .map(|s| format!(" {:.2} ns, {:.1} cycles |", 1e3 / s.rate, s.cpb))
        .collect()
}

/// Prints a table's title after a blank line, then its header row (the
/// first column a name, the others numbers) and the alignment row.
fn table_head(title: &str, columns: &[&str]) {
    bijou_benches::emit!("\n{title}");
    bijou_benches::emit!("| {} |", columns.join(" | "));
    bijou_benches::emit!("| :--- |{}", " ---: |".repeat(columns.len() - 1));
}

/// The per-value loops of bijou-core and upstream `bijou64` side by side.
/// Both are one bijective decoder a value, and their criterion medians
/// land within the drift between two runs of one binary (BENCHMARKS.md);
/// timed in turn, round after round, the drift hits both alike and their
/// ratio means something.
fn interleaved_tables() {
    let workloads = workloads();
    for op in [Loop::Encode, Loop::DecodeOffsets] {
        table_head(
            &format!(
                "{}: bijou-core against upstream bijou64 (interleaved medians: ns/value, cycles/value, upstream ÷ bijou-core)",
                op.group()
            ),
            &["workload", BijouCore::NAME, Upstream::NAME],
        );
        for workload in &workloads {
            let mut contenders = [
                op.contender::<BijouCore>(workload),
                op.contender::<Upstream>(workload),
            ];
            let (stats, _) = INTERLEAVE.run(&mut contenders, BATCH);
            bijou_benches::emit!(
                "| {} |{} **{:.2}×** |",
                workload.name,
                cells(&stats).trim_end_matches('|'),
                stats[0].rate / stats[1].rate,
            );
        }
    }
    decode_table(&workloads);
    signed_decode_table(&workloads);
}

/// The stream decode loops of bijou-core, its batch decoder, both upstream
/// crates, the two LEB128 decoders to beat and vu128, timed in turn; the
/// ratios are bijou-core's time over the best peer's of each kind (lower is
/// better: 0.50× is twice as fast), as issue 25's targets are stated.
fn decode_table(workloads: &[Workload]) {
    table_head(
        "varint-decode: every peer, interleaved (medians: ns/value, cycles/value; ratios are time ÷ the best peer's time)",
        &[
            "workload",
            "bijou-core",
            "bijou-core-batch",
            "bijou64",
            "bijoux",
            "prost",
            "integer-encoding",
            "vu128",
            "core ÷ upstream",
            "core ÷ LEB128",
            "core ÷ vu128",
            "batch ÷ upstream",
        ],
    );
    for workload in workloads {
        let op = Loop::Decode;
        let mut contenders = [
            op.contender::<BijouCore>(workload),
            batch_contender(workload),
            op.contender::<Upstream>(workload),
            op.contender::<Bijoux>(workload),
            op.contender::<Prost>(workload),
            op.contender::<IntegerEncoding>(workload),
            op.contender::<Vu128>(workload),
        ];
        let (stats, _) = INTERLEAVE.run(&mut contenders, BATCH);
        let time = |i: usize| 1.0 / stats[i].rate;
        let best = |peers: &[usize]| peers.iter().map(|&i| time(i)).fold(f64::INFINITY, f64::min);
        bijou_benches::emit!(
            "| {} |{} {:.2}× | {:.2}× | {:.2}× | {:.2}× |",
            workload.name,
            cells(&stats),
            time(0) / best(&[2, 3]),
            time(0) / best(&[4, 5]),
            time(0) / time(6),
            time(1) / best(&[2, 3]),
        );
    }
}

/// The signed batch decoder against the signed per-value loop and the
/// unsigned batch decoder, on the same streams read as bijou64s (any bytes
/// that decode as bijou64 decode as bijou64s, to the zigzag images).
fn signed_decode_table(workloads: &[Workload]) {
    table_head(
        "varint-decode-signed: bijou64s on the same streams (interleaved medians: ns/value, cycles/value; ratios are time ÷ time)",
        &[
            "workload",
            "bijou64s decode loop",
            "bijou64s decode_batch",
            "bijou64 decode_batch",
            "signed batch ÷ loop",
            "signed ÷ unsigned batch",
        ],
    );
    for workload in workloads {
        let mut contenders = [
            signed_loop_contender(workload),
            signed_batch_contender(workload),
            batch_contender(workload),
        ];
        let (stats, _) = INTERLEAVE.run(&mut contenders, BATCH);
        let time = |i: usize| 1.0 / stats[i].rate;
        bijou_benches::emit!(
            "| {} |{} {:.2}× | {:.2}× |",
            workload.name,
            cells(&stats),
            time(1) / time(0),
            time(1) / time(2),
        );
    }
}

/// A `while` loop of `bijou64s::decode` over `workload`'s streams.
fn signed_loop_contender(workload: &Workload) -> Contender<'static> {
    let (streams, mut out, mut at) = (streams::<BijouCore>(workload), vec![0i64; BATCH], 0);
    let run = Box::new(move || {
        let s = black_box(&streams[at]);
        let (mut pos, mut k) = (0, 0);
        while pos < s.len {
            let (value, len) = bijou_core::bijou64s::decode(&s.bytes[pos..]).expect("valid stream");
            out[k] = value;
            (pos, k) = (pos + len, k + 1);
        }
        black_box(&out);
        at = (at + 1) % streams.len();
    });
    ("bijou64s-loop".to_owned(), run)
}

/// `decode_batch` over `workload`'s streams, one batch a call, in turn.
fn batch_contender(workload: &Workload) -> Contender<'static> {
    batch_contender_with(workload, BATCH_NAME, bijou_core::bijou64::decode_batch)
}

/// `bijou64s::decode_batch` over `workload`'s streams, one batch a call.
fn signed_batch_contender(workload: &Workload) -> Contender<'static> {
    batch_contender_with(
        workload,
        "bijou64s-batch",
        bijou_core::bijou64s::decode_batch,
    )
}

/// A width's `decode_batch`.
type DecodeBatch<T> = fn(&[u8], &mut [T]) -> Result<(usize, usize), bijou_core::BatchDecodeError>;

/// `decode_batch`, named `name`, over `workload`'s streams, one batch a
/// call, in turn.
fn batch_contender_with<T: Copy + Default + 'static>(
    workload: &Workload,
    name: &str,
    decode_batch: DecodeBatch<T>,
) -> Contender<'static> {
    let (streams, mut out, mut at) = (streams::<BijouCore>(workload), vec![T::default(); BATCH], 0);
    let run = Box::new(move || {
        let s = black_box(&streams[at]);
        let done = decode_batch(&s.bytes[..s.len], &mut out);
        black_box(done.expect("valid stream"));
        black_box(&out);
        at = (at + 1) % streams.len();
    });
    (name.to_owned(), run)
}

fn main() {
    let mut criterion = config().configure_from_args();
    varints(&mut criterion);
    criterion.final_summary();
    if bijou_benches::is_measuring_run() {
        interleaved_tables();
    }
}
