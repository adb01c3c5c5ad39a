//! The Blowfish optimisation ladder: every step of `blowfish_ladder::STEPS`
//! (the seed write-up's worked example, reference to fully unrolled by
//! macro) and then RustCrypto's `blowfish` crate, on the same 4 KiB of
//! blocks under one key.
//!
//! One criterion group, `blowfish-ladder`, whose functions are the steps:
//! `cargo xtask ladder blowfish` runs it briefly and prints each step's
//! time per block and speed-up beside the write-up's own figures.

#![allow(missing_docs)] // no docs on a bench binary's items.

use bijou_benches::SplitMix64;
use blowfish::cipher::generic_array::GenericArray;
use blowfish::cipher::{BlockEncrypt, KeyInit};
use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

/// Bytes per iteration: 512 blocks, which with the 4 KiB of S-boxes stay
/// in L1.
const LEN: usize = 4 << 10;

fn main() {
    let mut rng = SplitMix64::new(0xB10F_15B0);
    let key = rng.bytes(16);
    let blocks: Vec<[u8; 8]> = rng.bytes(LEN).as_chunks::<8>().0.to_vec();
    let ours = blowfish_ladder::Blowfish::new(&key).expect("a 16-byte key");
    let theirs = <blowfish::Blowfish>::new_from_slice(&key).expect("a 16-byte key");

    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut group = criterion.benchmark_group("blowfish-ladder");
    group.throughput(Throughput::Bytes(LEN as u64));
    let id = |name| BenchmarkId::new(name, "4KiB");
    for &(name, encrypt) in blowfish_ladder::STEPS {
        let mut data = blocks.clone();
        group.bench_function(id(name), |b| {
            b.iter(|| encrypt(black_box(&ours), black_box(&mut data)));
        });
    }
    let mut data = blocks.clone();
    group.bench_function(id("blowfish crate"), |b| {
        b.iter(|| {
            for block in black_box(&mut data).iter_mut() {
                theirs.encrypt_block(GenericArray::from_mut_slice(block));
            }
        });
    });
    group.finish();
    criterion.final_summary();
}
