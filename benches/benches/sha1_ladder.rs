//! The SHA-1 optimisation ladder: every step from the FIPS 180-4 reference
//! to sha1-fast's scalar core (`sha1_fast::ladder::STEPS`, in order), on the
//! same 16 KiB of blocks.
//!
//! One criterion group, `sha1-ladder`, whose functions are the steps, so
//! `cargo xtask bench --ladder` prints each step's time and speed-up.
//!
//! Run directly (`cargo bench -p bijou-benches --bench sha1_ladder`), it then
//! prints two tables of its own, measured interleaved: every sample of every
//! contender is taken in turn, round after round, so a neighbour's build or
//! a clock change slows all of them alike and the ratios stay honest on a
//! shared machine. Numbers are medians over the rounds.
//! - the ladder, with cycles per byte from an estimate of the core clock
//!   taken every round (a chain of dependent add-rotate pairs, two cycles
//!   each on any x86-64 or AArch64 core), and on x86-64 the integer ALU
//!   ceiling in operations per cycle (the scalar core is bound by it) and
//!   the rotate ceiling;
//! - the scalar core's one-shot digest against the `sha1` crate and
//!   `sha1_smol` at 16 KiB and 1 MiB. Build with
//!   `RUSTFLAGS='--cfg sha1_backend="soft"'` to meet the `sha1` crate's
//!   portable backend instead of SHA-NI; the table says which it got.

#![allow(missing_docs)] // no docs on a bench binary's items.

use bijou_benches::SplitMix64;
use bijou_benches::{
    Contender, Interleave, Stats, alu_ops_per_ns, clock_ghz, median, rotates_per_ns,
};
use criterion::{BenchmarkId, Criterion, Throughput};
use sha1_fast::{Backend, Sha1};
use std::hint::black_box;
use std::time::Duration;

const LEN: usize = 16 << 10;

/// How the tables measure: 151 rounds of 1 MiB samples.
const INTERLEAVE: Interleave = Interleave {
    rounds: 151,
    sample_bytes: 1 << 20,
    clock_links: 1 << 20,
};

fn input(len: usize, seed: u64) -> Vec<u8> {
    SplitMix64::new(seed).bytes(len)
}

fn ladder(c: &mut Criterion, blocks: &[[u8; 64]]) {
    let mut group = c.benchmark_group("sha1-ladder");
    group.throughput(Throughput::Bytes(LEN as u64));
    for &(name, step) in sha1_fast::ladder::STEPS {
        group.bench_with_input(BenchmarkId::new(name, "16KiB"), blocks, |b, blocks| {
            let mut state = sha1_fast::INITIAL_STATE;
            b.iter(|| step(black_box(&mut state), black_box(blocks)));
        });
    }
    group.finish();
}

/// The throughput ceilings in operations per cycle, `[adds, rotates]`:
/// the medians over rounds of [`alu_ops_per_ns`] and [`rotates_per_ns`],
/// both priced at the clock estimate taken once each round.
fn ceilings() -> Option<[f64; 2]> {
    let mut per_cycle = [const { Vec::new() }; 2];
    for _ in 0..INTERLEAVE.rounds {
        let ghz = clock_ghz(INTERLEAVE.clock_links);
        per_cycle[0].push(alu_ops_per_ns(1 << 16)? / ghz);
        per_cycle[1].push(rotates_per_ns(1 << 16)? / ghz);
    }
    Some(per_cycle.map(|mut samples| median(&mut samples)))
}

fn ladder_table(blocks: &[[u8; 64]]) {
    let mut contenders: Vec<Contender<'_>> = sha1_fast::ladder::STEPS
        .iter()
        .map(|&(name, step)| -> Contender<'_> {
            let run = move || {
                let mut state = sha1_fast::INITIAL_STATE;
                step(black_box(&mut state), black_box(blocks));
                black_box(state);
            };
            (name.to_string(), Box::new(run))
        })
        .collect();
    let (stats, ghz) = INTERLEAVE.run(&mut contenders, LEN);
    bijou_benches::emit!(
        "\nSHA-1 ladder: {LEN} bytes per call, interleaved medians, core clock ≈ {ghz:.2} GHz"
    );
    if let Some([adds, rotates]) = ceilings() {
        bijou_benches::emit!(
            "Integer ALU ceiling ≈ {adds:.2} operations/cycle, rotates ≈ {rotates:.2}/cycle \
             (8 independent chains of `add`, of `rol r, 5`)"
        );
    }
    bijou_benches::emit!("| step | time | MB/s | cycles/byte | vs reference | vs previous |");
    bijou_benches::emit!("| :--- | ---: | ---: | ---: | ---: | ---: |");
    for (i, ((name, _), s)) in contenders.iter().zip(&stats).enumerate() {
        let previous = stats[i.saturating_sub(1)].rate;
        bijou_benches::emit!(
            "| {name} | {:.2} µs | {:.0} | {:.2} | {:.2}× | {:.2}× |",
            LEN as f64 / s.rate,
            s.rate,
            s.cpb,
            s.rate / stats[0].rate,
            s.rate / previous,
        );
    }
}

fn peers_table() {
    let sha1 = if cfg!(sha1_backend = "soft") {
        "sha1 (soft)"
    } else {
        "sha1 (default)"
    };
    bijou_benches::emit!(
        "\nOne-shot digest, interleaved medians (MB/s, cycles/byte; ratio: scalar is r× as fast)"
    );
    bijou_benches::emit!("| input | sha1-fast (scalar) | {sha1} | sha1_smol |");
    bijou_benches::emit!("| :--- | ---: | ---: | ---: |");
    for (len, label) in [(16 << 10, "16KiB"), (1 << 20, "1MiB")] {
        let data = input(len, 0x5AA1);
        let data = &data[..];
        let mut contenders: [Contender<'_>; 3] = [
            (
                "sha1-fast (scalar)".to_string(),
                Box::new(|| {
                    let mut hasher = Sha1::with_backend(Backend::Scalar).expect("always available");
                    hasher.update(black_box(data));
                    black_box(hasher.finalize());
                }),
            ),
            (
                sha1.to_string(),
                Box::new(|| {
                    use sha1::Digest as _;
                    black_box(sha1::Sha1::digest(black_box(data)));
                }),
            ),
            (
                "sha1_smol".to_string(),
                Box::new(|| {
                    black_box(sha1_smol::Sha1::from(black_box(data)).digest().bytes());
                }),
            ),
        ];
        let (stats, _) = INTERLEAVE.run(&mut contenders, len);
        let ours = &stats[0];
        let cell = |s: &Stats| {
            format!(
                "{:.0} ({:.2} cpb, {:.2}×)",
                s.rate,
                s.cpb,
                ours.rate / s.rate
            )
        };
        bijou_benches::emit!(
            "| {label} | {:.0} ({:.2} cpb) | {} | {} |",
            ours.rate,
            ours.cpb,
            cell(&stats[1]),
            cell(&stats[2]),
        );
    }
}

fn main() {
    let blocks: Vec<[u8; 64]> = input(LEN, 0x1ADD).as_chunks::<64>().0.to_vec();
    let mut criterion = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    ladder(&mut criterion, &blocks);
    criterion.final_summary();

    if bijou_benches::is_measuring_run() {
        ladder_table(&blocks);
        peers_table();
    }
}
