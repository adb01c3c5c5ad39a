//! bijou-io's adapters against what users would reach for instead:
//!
//! - `io-buf-decode`: [`bijou_io::BufExt::try_get_bijou64`] against
//!   `prost::encoding::decode_varint` (LEB128), both through `bytes::Buf`,
//!   over the same buffer types (`&[u8]` and `Bytes`).
//! - `io-read-decode`: [`bijou_io::ReadExt::read_bijou64`] against
//!   `integer_encoding::VarIntReader::read_varint` (LEB128), both through
//!   `std::io::Read`, over `Cursor<&[u8]>` and `BufReader<&[u8]>`.
//!
//! Each format decodes its own encoding of the same [`BATCH`] values, one
//! batch per iteration, with `Throughput::Elements(BATCH)`: criterion's time
//! divided by `BATCH` is ns/value. Ids read
//! `io-buf-decode/bijou-io/slice/mix`; run pinned, e.g.
//! `taskset -c 1 cargo bench -p bijou-benches --bench io`.

#![allow(missing_docs)] // criterion_main! generates an undocumented `main`.

use std::hint::black_box;
use std::io::{BufReader, Cursor, Read};
use std::time::Duration;

use bijou_benches::{BATCH, Distribution, LARGE, TINY, Workload};
use bijou_io::{BufExt, ReadExt};
use bytes::{Buf, Bytes};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use integer_encoding::{VarIntReader, VarIntWriter};

/// The workloads: all one-byte values, a realistic mix, and 5–9-byte values.
fn workloads() -> [Workload; 3] {
    [
        Workload::new("tiny", TINY, 1),
        Workload::new("mix", Distribution::Mix, 1),
        Workload::new("large", LARGE, 1),
    ]
}

/// One batch encoded by both formats.
struct Encoded {
    bijou: Vec<u8>,
    leb128: Vec<u8>,
}

impl Encoded {
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
        Encoded { bijou, leb128 }
    }
}

/// Decodes `BATCH` values from `buf` with `decode`, folding them so none is
/// optimised away.
#[inline(always)]
fn drain_buf<B: Buf>(mut buf: B, mut decode: impl FnMut(&mut B) -> u64) -> u64 {
    let mut sum = 0u64;
    for _ in 0..BATCH {
        sum = sum.wrapping_add(decode(&mut buf));
    }
    sum
}

/// Decodes `BATCH` values from `reader` with `decode`.
#[inline(always)]
fn drain_read<R: Read>(mut reader: R, mut decode: impl FnMut(&mut R) -> u64) -> u64 {
    let mut sum = 0u64;
    for _ in 0..BATCH {
        sum = sum.wrapping_add(decode(&mut reader));
    }
    sum
}

fn bijou_buf<B: Buf>(buf: &mut B) -> u64 {
    buf.try_get_bijou64().expect("valid bijou64")
}

fn prost_buf<B: Buf>(buf: &mut B) -> u64 {
    prost::encoding::decode_varint(buf).expect("valid LEB128")
}

fn bijou_read<R: Read>(reader: &mut R) -> u64 {
    reader.read_bijou64().expect("valid bijou64")
}

fn integer_encoding_read<R: Read>(reader: &mut R) -> u64 {
    reader.read_varint::<u64>().expect("valid LEB128")
}

fn buf_decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("io-buf-decode");
    group.throughput(Throughput::Elements(BATCH as u64));
    for workload in workloads() {
        let encoded = Encoded::new(&workload.batches[0]);
        let expected: u64 = workload.batches[0]
            .iter()
            .fold(0, |sum, &v| sum.wrapping_add(v));
        let bijou_bytes = Bytes::from(encoded.bijou.clone());
        let leb_bytes = Bytes::from(encoded.leb128.clone());
        assert_eq!(drain_buf(&encoded.bijou[..], bijou_buf), expected);
        assert_eq!(drain_buf(&encoded.leb128[..], prost_buf), expected);

        group.bench_function(BenchmarkId::new("bijou-io/slice", workload.name), |b| {
            b.iter(|| drain_buf(black_box(&encoded.bijou[..]), bijou_buf));
        });
        group.bench_function(BenchmarkId::new("prost/slice", workload.name), |b| {
            b.iter(|| drain_buf(black_box(&encoded.leb128[..]), prost_buf));
        });
        group.bench_function(BenchmarkId::new("bijou-io/Bytes", workload.name), |b| {
            b.iter(|| drain_buf(black_box(bijou_bytes.clone()), bijou_buf));
        });
        group.bench_function(BenchmarkId::new("prost/Bytes", workload.name), |b| {
            b.iter(|| drain_buf(black_box(leb_bytes.clone()), prost_buf));
        });
    }
    group.finish();
}

fn read_decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("io-read-decode");
    group.throughput(Throughput::Elements(BATCH as u64));
    for workload in workloads() {
        let encoded = Encoded::new(&workload.batches[0]);
        let expected: u64 = workload.batches[0]
            .iter()
            .fold(0, |sum, &v| sum.wrapping_add(v));
        assert_eq!(
            drain_read(Cursor::new(&encoded.bijou[..]), bijou_read),
            expected
        );
        assert_eq!(
            drain_read(Cursor::new(&encoded.leb128[..]), integer_encoding_read),
            expected
        );

        group.bench_function(BenchmarkId::new("bijou-io/Cursor", workload.name), |b| {
            b.iter(|| drain_read(Cursor::new(black_box(&encoded.bijou[..])), bijou_read));
        });
        group.bench_function(
            BenchmarkId::new("integer-encoding/Cursor", workload.name),
            |b| {
                b.iter(|| {
                    drain_read(
                        Cursor::new(black_box(&encoded.leb128[..])),
                        integer_encoding_read,
                    )
                });
            },
        );
        group.bench_function(BenchmarkId::new("bijou-io/BufReader", workload.name), |b| {
            b.iter(|| drain_read(BufReader::new(black_box(&encoded.bijou[..])), bijou_read));
        });
        group.bench_function(
            BenchmarkId::new("integer-encoding/BufReader", workload.name),
            |b| {
                b.iter(|| {
                    drain_read(
                        BufReader::new(black_box(&encoded.leb128[..])),
                        integer_encoding_read,
                    )
                });
            },
        );
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50)
}

criterion_group! {
    name = benches;
    config = config();
    targets = buf_decode, read_decode
}
criterion_main!(benches);
