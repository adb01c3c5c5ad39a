//! The Blowfish optimisation ladder: every step of `blowfish_ladder::STEPS`
//! (the seed write-up's worked example, reference to fully unrolled by
//! macro) and then RustCrypto's `blowfish` crate, on the same 4 KiB of
//! blocks under one key.
//!
//! One criterion group, `blowfish-ladder`, whose functions are the steps:
//! `cargo xtask ladder blowfish` runs it briefly and prints each step's
//! time per block and speed-up beside the write-up's own figures.
//!
//! A measuring run (`cargo bench`, `cargo xtask`) then prints a table of
//! its own, measured interleaved as `sha1_ladder`'s are: every contender
//! timed in turn, round after round, so a neighbour's build slows all of
//! them alike; medians over the rounds, cycles from a clock estimate taken
//! every round.

#![allow(missing_docs)] // no docs on a bench binary's items.

use bijou_benches::{Contender, Interleave, SplitMix64};
use blowfish::cipher::generic_array::GenericArray;
use blowfish::cipher::{BlockEncrypt, KeyInit};
use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

/// Bytes per call: 512 blocks, which with the 4 KiB of S-boxes stay in L1.
const LEN: usize = 4 << 10;

/// How the table measures: 51 rounds of 256 KiB samples (about a second
/// for the ladder on this machine).
const INTERLEAVE: Interleave = Interleave {
    rounds: 51,
    sample_bytes: 1 << 18,
    clock_links: 1 << 18,
};

/// A contender: encrypts its blocks in place.
type Encrypt<'a> = Box<dyn Fn(&mut [[u8; 8]]) + 'a>;

/// The steps, then the `blowfish` crate, all under `key`.
fn contenders(
    ours: &blowfish_ladder::Blowfish,
    theirs: &blowfish::Blowfish,
) -> Vec<(String, Encrypt<'static>)> {
    let mut list: Vec<(String, Encrypt<'static>)> = Vec::new();
    for &(name, encrypt) in blowfish_ladder::STEPS {
        let ours = ours.clone();
        list.push((
            name.into(),
            Box::new(move |blocks| encrypt(black_box(&ours), blocks)),
        ));
    }
    let theirs = theirs.clone();
    list.push((
        "blowfish crate".into(),
        Box::new(move |blocks| {
            for block in blocks {
                theirs.encrypt_block(GenericArray::from_mut_slice(block));
            }
        }),
    ));
    list
}

fn table(encryptors: &[(String, Encrypt<'static>)], blocks: &[[u8; 8]]) {
    let mut data: Vec<Vec<[u8; 8]>> = encryptors.iter().map(|_| blocks.to_vec()).collect();
    let mut contenders: Vec<Contender<'_>> = encryptors
        .iter()
        .zip(&mut data)
        .map(|((name, encrypt), data)| -> Contender<'_> {
            (name.clone(), Box::new(move || encrypt(black_box(data))))
        })
        .collect();
    let (stats, ghz) = INTERLEAVE.run(&mut contenders, LEN);
    bijou_benches::emit!(
        "\nBlowfish ladder: {LEN} bytes per call, interleaved medians, core clock ≈ {ghz:.2} GHz"
    );
    bijou_benches::emit!("| step | ns/block | cycles/block | vs reference |");
    bijou_benches::emit!("| :--- | ---: | ---: | ---: |");
    for ((name, _), s) in contenders.iter().zip(&stats) {
        bijou_benches::emit!(
            "| {name} | {:.1} | {:.0} | {:.2}× |",
            8e3 / s.rate,
            8.0 * s.cpb,
            s.rate / stats[0].rate,
        );
    }
}

fn main() {
    let mut rng = SplitMix64::new(0xB10F_15B0);
    let key = rng.bytes(16);
    let blocks: Vec<[u8; 8]> = rng.bytes(LEN).as_chunks::<8>().0.to_vec();
    let ours = blowfish_ladder::Blowfish::new(&key).expect("a 16-byte key");
    let theirs = <blowfish::Blowfish>::new_from_slice(&key).expect("a 16-byte key");
    let encryptors = contenders(&ours, &theirs);

    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut group = criterion.benchmark_group("blowfish-ladder");
    group.throughput(Throughput::Bytes(LEN as u64));
    for (name, encrypt) in &encryptors {
        let mut data = blocks.clone();
        group.bench_function(BenchmarkId::new(name, "4KiB"), |b| {
            b.iter(|| encrypt(black_box(&mut data)));
        });
    }
    group.finish();
    criterion.final_summary();

    if bijou_benches::is_measuring_run() {
        table(&encryptors, &blocks);
    }
}
