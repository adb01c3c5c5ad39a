//! bijou-io's adapters against what users would reach for instead:
//!
//! - `io-buf-decode`: [`bijou_io::BufExt::try_get_bijou64`] against
//!   `prost::encoding::decode_varint` (LEB128), both through `bytes::Buf`,
//!   over the same buffer types (`&[u8]` and `Bytes`), and
//!   [`bijou_io::BufExt::bijou_values`] in a `for` loop over each
//!   (`bijou-io-values/slice`, `bijou-io-values/Bytes`).
//! - `io-read-decode`: [`bijou_io::ReadExt::read_bijou64`] against
//!   `integer_encoding::VarIntReader::read_varint` (LEB128), both through
//!   `std::io::Read`, over `Cursor<&[u8]>` and `BufReader<&[u8]>`, and
//!   [`bijou_io::BufReadExt::read_bijou_buffered`] over the `BufReader`.
//!
//! Each format decodes its own encoding of the same [`BATCH`] values, one
//! batch per iteration, with `Throughput::Elements(BATCH)`: criterion's time
//! divided by `BATCH` is ns/value. The mixed workload cycles through
//! [`CYCLE`] different batches, as the varint bench's `mix-16` does: one
//! repeated batch of mixed lengths lets the branch predictor learn its
//! length pattern, which real streams never allow, and which rewarded the
//! decoders by how well the predictor happened to fit them (a single
//! repeated batch put prost ahead of bijou-io on `&[u8]` by 1.4×; cycled,
//! bijou-io leads). Ids read `io-buf-decode/bijou-io/slice/mix-16`; run
//! pinned, e.g. `taskset -c 1 cargo bench -p bijou-benches --bench io`.

#![allow(missing_docs)] // criterion_main! generates an undocumented `main`.

use std::io::{BufReader, Cursor, Read};
use std::time::Duration;

use bijou_benches::{
    BATCH, CYCLE, Contender, Distribution, Interleave, LARGE, TINY, Workload, cycled,
};
use bijou_io::{BufExt, BufReadExt, ReadExt};
use bytes::{Buf, Bytes};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use integer_encoding::{VarIntReader, VarIntWriter};
use std::hint::black_box;

/// The workloads: all one-byte values, a realistic mix (cycled over
/// [`CYCLE`] batches so its lengths stay unpredictable), and 5–9-byte values.
fn workloads() -> [Workload; 3] {
    [
        Workload::new("tiny", TINY, 1),
        Workload::new("mix-16", Distribution::Mix, CYCLE),
        Workload::new("large", LARGE, 1),
    ]
}

/// One batch encoded by both formats (slices are taken from the same
/// `Bytes`), with the sum its decoders must fold.
struct Encoded {
    bijou: Bytes,
    leb128: Bytes,
    sum: u64,
}

impl Encoded {
    /// Every batch of `workload`, checked to decode back through each
    /// adapter measured (so a misused peer API fails loudly).
    fn all(workload: &Workload) -> Vec<Self> {
        let encoded: Vec<Self> = workload.batches.iter().map(|b| Self::new(b)).collect();
        for e in &encoded {
            assert_eq!(drain(&e.bijou[..], bijou_buf), e.sum);
            assert_eq!(drain(&e.leb128[..], prost_buf), e.sum);
            assert_eq!(bijou_values(&e.bijou[..]), e.sum);
            assert_eq!(bijou_values(e.bijou.clone()), e.sum);
            assert_eq!(drain(Cursor::new(&e.bijou[..]), bijou_read), e.sum);
            assert_eq!(drain(BufReader::new(&e.bijou[..]), bijou_buf_read), e.sum);
            assert_eq!(
                drain(Cursor::new(&e.leb128[..]), integer_encoding_read),
                e.sum
            );
        }
        encoded
    }

    fn new(values: &[u64]) -> Self {
        let mut bijou = Vec::new();
        let mut leb128 = Vec::new();
        for &value in values {
            bijou_core::bijou64::encode(value, &mut bijou);
            prost::encoding::encode_varint(value, &mut leb128);
        }
        let mut check = Vec::new();
        for &value in values {
            check.write_varint(value).expect("Vec never fails");
        }
        assert_eq!(check, leb128, "prost and integer-encoding agree on LEB128");
        Encoded {
            bijou: Bytes::from(bijou),
            leb128: Bytes::from(leb128),
            sum: values.iter().fold(0, |sum, &v| sum.wrapping_add(v)),
        }
    }
}

/// Decodes `BATCH` values from `source` (a `Buf` or a `Read`) with
/// `decode`, folding them so none is optimised away.
#[inline(always)]
fn drain<S>(mut source: S, mut decode: impl FnMut(&mut S) -> u64) -> u64 {
    let mut sum = 0u64;
    for _ in 0..BATCH {
        sum = sum.wrapping_add(decode(&mut source));
    }
    sum
}

fn bijou_buf<B: Buf>(buf: &mut B) -> u64 {
    buf.try_get_bijou64().expect("valid bijou64")
}

/// The whole batch through `BufExt::bijou_values` in a `for` loop: the
/// current chunk decoded ahead with `decode_batch`.
fn bijou_values<B: Buf>(mut buf: B) -> u64 {
    let mut sum = 0u64;
    for value in buf.bijou_values::<u64>() {
        sum = sum.wrapping_add(value.expect("valid bijou64"));
    }
    sum
}

fn prost_buf<B: Buf>(buf: &mut B) -> u64 {
    prost::encoding::decode_varint(buf).expect("valid LEB128")
}

fn bijou_read<R: Read>(reader: &mut R) -> u64 {
    reader.read_bijou64().expect("valid bijou64")
}

fn bijou_buf_read<R: std::io::BufRead>(reader: &mut R) -> u64 {
    reader.read_bijou_buffered().expect("valid bijou64")
}

fn integer_encoding_read<R: Read>(reader: &mut R) -> u64 {
    reader.read_varint::<u64>().expect("valid LEB128")
}

/// Every workload's batches, encoded and checked once for both groups.
type Encodings = [(&'static str, Vec<Encoded>)];

fn decode(c: &mut Criterion) {
    let encodings: Vec<_> = workloads()
        .iter()
        .map(|workload| (workload.name, Encoded::all(workload)))
        .collect();
    buf_decode(c, &encodings);
    read_decode(c, &encodings);
}

fn buf_decode(c: &mut Criterion, encodings: &Encodings) {
    let mut group = c.benchmark_group("io-buf-decode");
    group.throughput(Throughput::Elements(BATCH as u64));
    for (workload, batches) in encodings {
        let id = |name: &str| BenchmarkId::new(name, workload);
        cycled(&mut group, id("bijou-io/slice"), batches, |e| {
            drain(&e.bijou[..], bijou_buf)
        });
        cycled(&mut group, id("prost/slice"), batches, |e| {
            drain(&e.leb128[..], prost_buf)
        });
        cycled(&mut group, id("bijou-io/Bytes"), batches, |e| {
            drain(e.bijou.clone(), bijou_buf)
        });
        cycled(&mut group, id("prost/Bytes"), batches, |e| {
            drain(e.leb128.clone(), prost_buf)
        });
        cycled(&mut group, id("bijou-io-values/slice"), batches, |e| {
            bijou_values(&e.bijou[..])
        });
        cycled(&mut group, id("bijou-io-values/Bytes"), batches, |e| {
            bijou_values(e.bijou.clone())
        });
    }
    group.finish();
}

fn read_decode(c: &mut Criterion, encodings: &Encodings) {
    let mut group = c.benchmark_group("io-read-decode");
    group.throughput(Throughput::Elements(BATCH as u64));
    for (workload, batches) in encodings {
        let id = |name: &str| BenchmarkId::new(name, workload);
        cycled(&mut group, id("bijou-io/Cursor"), batches, |e| {
            drain(Cursor::new(&e.bijou[..]), bijou_read)
        });
        cycled(&mut group, id("integer-encoding/Cursor"), batches, |e| {
            drain(Cursor::new(&e.leb128[..]), integer_encoding_read)
        });
        cycled(&mut group, id("bijou-io/BufReader"), batches, |e| {
            drain(BufReader::new(&e.bijou[..]), bijou_read)
        });
        cycled(&mut group, id("integer-encoding/BufReader"), batches, |e| {
            drain(BufReader::new(&e.leb128[..]), integer_encoding_read)
        });
        cycled(&mut group, id("bijou-io/BufReadExt"), batches, |e| {
            drain(BufReader::new(&e.bijou[..]), bijou_buf_read)
        });
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
}

/// Times `runs` in turn round after round (the `bijou` bench's
/// `Interleave`) on each workload's batches: per workload, each run's
/// median ns/value. Criterion's one-after-another medians of close peers
/// moved by 2× between two runs on a shared machine.
fn interleaved_ns(runs: &[fn(&Encoded) -> u64]) -> Vec<(&'static str, Vec<f64>)> {
    const INTERLEAVE: Interleave = Interleave {
        rounds: 51,
        sample_bytes: 16 * BATCH,
        clock_links: 1 << 16,
    };
    let mut rows = Vec::new();
    for workload in workloads() {
        let batches = Encoded::all(&workload);
        let contender = |run: fn(&Encoded) -> u64| -> Contender<'_> {
            let mut at = 0;
            let batches = &batches;
            let call = move || {
                black_box(run(black_box(&batches[at])));
                at = (at + 1) % batches.len();
            };
            (String::new(), Box::new(call))
        };
        let mut contenders: Vec<Contender<'_>> = runs.iter().map(|&run| contender(run)).collect();
        let (stats, _) = INTERLEAVE.run(&mut contenders, BATCH);
        rows.push((workload.name, stats.iter().map(|s| 1e3 / s.rate).collect()));
    }
    rows
}

/// The `std::io` readers again, interleaved.
fn interleaved_read_table() {
    bijou_benches::emit!(
        "\nio-read-decode, interleaved (medians: ns/value; ratios: bijou-io's time ÷ integer-encoding's over the same BufReader)"
    );
    bijou_benches::emit!(
        "| workload | bijou-io/BufReader (ReadExt) | bijou-io/BufReadExt | integer-encoding/BufReader | ReadExt ÷ VarIntReader | BufReadExt ÷ VarIntReader |"
    );
    bijou_benches::emit!("| :--- | ---: | ---: | ---: | ---: | ---: |");
    let rows = interleaved_ns(&[
        |e| drain(BufReader::new(&e.bijou[..]), bijou_read),
        |e| drain(BufReader::new(&e.bijou[..]), bijou_buf_read),
        |e| drain(BufReader::new(&e.leb128[..]), integer_encoding_read),
    ]);
    for (workload, ns) in rows {
        bijou_benches::emit!(
            "| {workload} | {:.2} | {:.2} | {:.2} | {:.2}× | {:.2}× |",
            ns[0],
            ns[1],
            ns[2],
            ns[0] / ns[2],
            ns[1] / ns[2],
        );
    }
}

/// `bytes::Buf`, interleaved: a loop of `try_get_bijou64` against
/// `bijou_values` on the same buffer type, and prost's loop.
fn interleaved_buf_table() {
    bijou_benches::emit!(
        "\nio-buf-decode, interleaved (medians: ns/value; ratios: time ÷ the try_get_bijou64 loop's on the same buffer)"
    );
    bijou_benches::emit!(
        "| workload | try_get_bijou64/slice | bijou_values/slice | prost/slice | try_get_bijou64/Bytes | bijou_values/Bytes | values ÷ try_get, slice | values ÷ try_get, Bytes | prost ÷ try_get, slice |"
    );
    bijou_benches::emit!("| :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let rows = interleaved_ns(&[
        |e| drain(&e.bijou[..], bijou_buf),
        |e| bijou_values(&e.bijou[..]),
        |e| drain(&e.leb128[..], prost_buf),
        |e| drain(e.bijou.clone(), bijou_buf),
        |e| bijou_values(e.bijou.clone()),
    ]);
    for (workload, ns) in rows {
        bijou_benches::emit!(
            "| {workload} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2}× | {:.2}× | {:.2}× |",
            ns[0],
            ns[1],
            ns[2],
            ns[3],
            ns[4],
            ns[1] / ns[0],
            ns[4] / ns[3],
            ns[2] / ns[0],
        );
    }
}

criterion_group! {
    name = benches;
    config = config();
    targets = decode
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    if bijou_benches::is_measuring_run() {
        interleaved_read_table();
        interleaved_buf_table();
    }
}
