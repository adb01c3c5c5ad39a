//! The SHA-1 shoot-out: sha1-fast's backends against the `sha1` crate
//! (RustCrypto) and `sha1_smol`.
//!
//! Groups are API levels, functions are implementations and parameters are
//! input sizes, so ids read `digest/sha1_smol/16KiB`:
//! - `digest`: a whole message through each crate's hasher (one shot);
//! - `compress`: the block function alone, many blocks per call, for the
//!   crates that expose one.
//!
//! Every benchmark declares `Throughput::Bytes`, so criterion reports MB/s.
//! The first function of each group is sha1-fast on its best backend, the
//! one `cargo xtask bench` reports ratios against; every other available
//! backend follows.
//!
//! The `sha1` crate uses SHA-NI when the CPU has it. Its portable backend is
//! benched by building with `RUSTFLAGS='--cfg sha1_backend="soft"'` (the
//! cfg applies to the whole build, so it is one more run); the function is
//! then named `sha1 (soft)`, so the two runs never overwrite each other.

#![allow(missing_docs)] // criterion_main! generates an undocumented `main`.

use bijou_benches::SplitMix64;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use sha1_fast::{Backend, Sha1};
use std::hint::black_box;
use std::time::Duration;

/// Input sizes: one block plus padding, a small file, the sizes the speed
/// target is stated at (16 KiB: L1-resident; 1 MiB: streaming from L2/L3).
const SIZES: &[(usize, &str)] = &[
    (64, "64B"),
    (1024, "1KiB"),
    (16 << 10, "16KiB"),
    (1 << 20, "1MiB"),
];

/// The `sha1` crate's function name, saying which backend this build gave it.
const SHA1: &str = if cfg!(sha1_backend = "soft") {
    "sha1 (soft)"
} else {
    "sha1"
};

type Group<'a> = BenchmarkGroup<'a, WallTime>;

fn input(len: usize) -> Vec<u8> {
    let mut rng = SplitMix64::new(0x5AA1);
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// sha1-fast's available backends, the one `Sha1::new` picks first.
fn backends() -> Vec<Backend> {
    let best = Backend::detect();
    let mut list = vec![best];
    list.extend(
        Backend::ALL
            .iter()
            .copied()
            .filter(|&b| b != best && b.is_available()),
    );
    list
}

fn fast_name(backend: Backend) -> String {
    format!("sha1-fast ({})", backend.name())
}

fn digest(c: &mut Criterion) {
    let mut group = c.benchmark_group("digest");
    for &(len, name) in SIZES {
        let data = input(len);
        group.throughput(Throughput::Bytes(len as u64));
        for backend in backends() {
            group.bench_with_input(
                BenchmarkId::new(fast_name(backend), name),
                &data,
                |b, data| {
                    b.iter(|| {
                        let mut hasher = Sha1::with_backend(backend).expect("available");
                        hasher.update(black_box(data));
                        hasher.finalize()
                    });
                },
            );
        }
        group.bench_with_input(BenchmarkId::new(SHA1, name), &data, |b, data| {
            use sha1::Digest as _;
            b.iter(|| sha1::Sha1::digest(black_box(data)));
        });
        group.bench_with_input(BenchmarkId::new("sha1_smol", name), &data, |b, data| {
            b.iter(|| sha1_smol::Sha1::from(black_box(data)).digest().bytes());
        });
    }
    group.finish();
}

fn blocks(
    group: &mut Group<'_>,
    name: &str,
    data: &[[u8; 64]],
    compress: impl Fn(&mut [u32; 5], &[[u8; 64]]),
) {
    group.bench_with_input(
        BenchmarkId::new(name, size_name(data.len() * 64)),
        data,
        |b, data| {
            let mut state = [
                0x6745_2301,
                0xEFCD_AB89,
                0x98BA_DCFE,
                0x1032_5476,
                0xC3D2_E1F0,
            ];
            b.iter(|| compress(black_box(&mut state), black_box(data)));
        },
    );
}

fn size_name(len: usize) -> &'static str {
    SIZES
        .iter()
        .find(|&&(l, _)| l == len)
        .map_or("?", |&(_, n)| n)
}

fn compress(c: &mut Criterion) {
    let mut group = c.benchmark_group("compress");
    for &(len, _) in SIZES.iter().filter(|&&(len, _)| len >= 16 << 10) {
        let bytes = input(len);
        let data: Vec<[u8; 64]> = bytes.as_chunks::<64>().0.to_vec();
        group.throughput(Throughput::Bytes(len as u64));
        for backend in backends() {
            blocks(&mut group, &fast_name(backend), &data, |s, d| {
                backend.compress(s, d)
            });
        }
        blocks(&mut group, SHA1, &data, sha1::block_api::compress);
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion::criterion_group! {
    name = benches;
    config = config();
    targets = digest, compress
}
criterion::criterion_main!(benches);
