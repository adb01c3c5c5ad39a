//! The SHA-1 shoot-out: sha1-fast's backends against the `sha1` crate
//! (RustCrypto), `ring` and `sha1_smol`.
//!
//! Groups are API levels, functions are implementations and parameters are
//! input sizes, so ids read `digest/sha1_smol/16KiB`:
//! - `digest`: a whole message in one call (`sha1_fast::digest`, which
//!   pads the tail on the stack, against each crate's one-shot);
//! - `compress`: the block function alone, many blocks per call, for the
//!   crates that expose one;
//! - `many`: 1024 independent messages of one size (`1024x64B`,
//!   `1024x1000B`): `sha1_fast::digest_many_into` against a loop of each
//!   crate's one-shot writing into the same kind of output slice;
//! - `hmac`: one HMAC-SHA1 tag from a keyed instance (cloned, as PBKDF2
//!   does), `hmac::Hmac` over sha1-fast's `Sha1` (through its block-level
//!   `Sha1Core`) against `Hmac` over the `sha1` crate, and `SimpleHmac`
//!   over sha1-fast, which needs only the buffering-level traits.
//!
//! - `checked`: collision-detecting SHA-1, `sha1_fast::checked::digest`
//!   (then each other backend) against `sha1dc::digest`, `sha1-checked`
//!   and plain `sha1_fast::digest`; `checked-many` hashes 256 messages of
//!   1000 bytes with `checked::digest_many_into` against a loop of
//!   `sha1dc::digest`.
//!
//! The interleaved tables of `many` and `checked-many` have one more row,
//! `git objects`: every object of this repository, framed as git frames
//! it (`bijou_benches::git_objects`), the mix of sizes a git-like tool
//! hashes.
//!
//! Every benchmark declares `Throughput::Bytes`, so criterion reports MB/s.
//! The first function of each group is sha1-fast's default dispatch, the
//! one `cargo xtask bench` reports ratios against: the public free
//! function (`digest`, `digest_many_into`), or in `compress` the method
//! of the backend `Backend::detect` picks; every other available backend
//! follows, called through its `Backend` method.
//!
//! Run directly (`cargo bench -p bijou-benches --bench sha1`; add
//! `-- '^none$'` to skip criterion), it then prints the same comparisons
//! measured interleaved: every contender is timed once per round, round
//! after round, so a neighbour's load or a clock change slows all of them
//! alike and the ratios stay honest on a shared machine. Medians over the
//! rounds, with cycles per byte from a core-clock estimate taken each round.
//!
//! The `sha1` crate uses SHA-NI when the CPU has it. Its portable backend is
//! benched by building with `RUSTFLAGS='--cfg sha1_backend="soft"'` (the
//! cfg applies to the whole build, so it is one more run); the function is
//! then named `sha1 (soft)`, so the two runs never overwrite each other.

#![allow(missing_docs)] // no docs on a bench binary's items.

use bijou_benches::SplitMix64;
use bijou_benches::{Contender, Interleave, Stats};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use sha1_fast::{Backend, Digest};
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

/// `[$f($args.., name, one), ..]` for each peer crate's one-shot `one`,
/// passed as a function item so that every use is compiled for it (no
/// indirect calls in the peers' loops).
macro_rules! peers {
    ($f:ident($($arg:expr),*)) => {
        [
            $f($($arg,)* SHA1, sha1_digest),
            $f($($arg,)* "ring", ring_digest),
            $f($($arg,)* "sha1_smol", smol_digest),
        ]
    };
}

fn input(len: usize) -> Vec<u8> {
    SplitMix64::new(0x5AA1).bytes(len)
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

/// One `digest_many_into` call: through the public free function for the
/// default dispatch (`default_dispatch`), else through `backend`'s method.
fn many_into(default_dispatch: bool, backend: Backend, messages: &[&[u8]], out: &mut [Digest]) {
    let result = if default_dispatch {
        sha1_fast::digest_many_into(black_box(messages), out)
    } else {
        backend.digest_many_into(black_box(messages), out)
    };
    result.expect("one slot per message");
    black_box(out);
}

fn digest(c: &mut Criterion) {
    let mut group = c.benchmark_group("digest");
    for &(len, name) in SIZES {
        let data = input(len);
        group.throughput(Throughput::Bytes(len as u64));
        for (i, backend) in backends().into_iter().enumerate() {
            let id = BenchmarkId::new(fast_name(backend), name);
            if i == 0 {
                group.bench_with_input(id, &data, |b, data| {
                    b.iter(|| sha1_fast::digest(black_box(data)));
                });
            } else {
                group.bench_with_input(id, &data, |b, data| {
                    b.iter(|| backend.digest(black_box(data)));
                });
            }
        }
        peers!(bench_one(&mut group, name, &data));
    }
    group.finish();
}

/// Benches a peer crate's one-shot `one` on `data`.
fn bench_one(
    group: &mut Group<'_>,
    name: &str,
    data: &[u8],
    peer: &str,
    one: impl Fn(&[u8]) -> [u8; 20],
) {
    group.bench_with_input(BenchmarkId::new(peer, name), data, |b, data| {
        b.iter(|| one(black_box(data)));
    });
}

fn sha1_digest(data: &[u8]) -> [u8; 20] {
    use sha1::Digest as _;
    sha1::Sha1::digest(data).into()
}

fn smol_digest(data: &[u8]) -> [u8; 20] {
    sha1_smol::Sha1::from(data).digest().bytes()
}

fn ring_digest(data: &[u8]) -> [u8; 20] {
    let d = ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, data);
    d.as_ref().try_into().expect("20 bytes")
}

/// Message counts and sizes of the `many` group: objects the size of small
/// git blobs and trees.
const MANY: &[(usize, usize, &str)] = &[(1024, 64, "1024x64B"), (1024, 1000, "1024x1000B")];

/// Benches a peer crate's one-shot `one` in a loop over `messages` (see
/// [`each_message`]).
fn bench_each(
    group: &mut Group<'_>,
    name: &str,
    messages: &[&[u8]],
    peer: &str,
    one: impl Fn(&[u8]) -> [u8; 20],
) {
    let mut out = vec![[0u8; 20]; messages.len()];
    group.bench_function(BenchmarkId::new(peer, name), |b| {
        b.iter(|| {
            for (message, digest) in messages.iter().zip(&mut out) {
                *digest = one(black_box(message));
            }
            black_box(&out);
        });
    });
}

fn many(c: &mut Criterion) {
    let mut group = c.benchmark_group("many");
    for &(count, len, name) in MANY {
        let data = input(count * len);
        let messages: Vec<&[u8]> = data.chunks_exact(len).collect();
        group.throughput(Throughput::Bytes((count * len) as u64));
        let mut out = vec![Digest::from_bytes([0; 20]); count];
        for (i, backend) in backends().into_iter().enumerate() {
            group.bench_function(BenchmarkId::new(fast_name(backend), name), |b| {
                b.iter(|| many_into(i == 0, backend, &messages, &mut out));
            });
        }
        peers!(bench_each(&mut group, name, &messages));
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
            let mut state = sha1_fast::INITIAL_STATE;
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

/// How the tables measure: 101 rounds of 256 KiB samples, short enough
/// that a round of a dozen contenders stays in the tens of ms.
const INTERLEAVE: Interleave = Interleave {
    rounds: 101,
    sample_bytes: 256 << 10,
    clock_links: 1 << 18,
};

/// Prints one markdown row per input: the first contender's MB/s and
/// cycles/byte, then every other one's with how many times faster the first
/// is.
fn table<'a>(title: &str, rows: Vec<(&str, usize, Vec<Contender<'a>>)>) {
    bijou_benches::emit!("\n{title} (interleaved medians: MB/s, cycles/byte, first ÷ this)");
    let mut header = true;
    for (label, len, mut contenders) in rows {
        if header {
            let names: Vec<&str> = contenders.iter().map(|(n, _)| n.as_str()).collect();
            bijou_benches::emit!("| input | {} |", names.join(" | "));
            bijou_benches::emit!("| :--- |{}", " ---: |".repeat(names.len()));
            header = false;
        }
        let (stats, _) = INTERLEAVE.run(&mut contenders, len);
        let first = stats[0].rate;
        let cells: Vec<String> = stats
            .iter()
            .enumerate()
            .map(|(i, &Stats { rate, cpb })| match i {
                0 => format!("{rate:.0}, {cpb:.2} cpb"),
                _ => format!("{rate:.0}, {cpb:.2} cpb, **{:.2}×**", first / rate),
            })
            .collect();
        bijou_benches::emit!("| {label} | {} |", cells.join(" | "));
    }
}

/// A peer's one-shot of `data`, for the interleaved table.
fn one_shot<'a>(data: &'a [u8], peer: &str, one: impl Fn(&[u8]) -> [u8; 20] + 'a) -> Contender<'a> {
    let run = move || {
        black_box(one(black_box(data)));
    };
    (peer.to_owned(), Box::new(run))
}

/// A peer's one-shot in a loop over `messages`, each digest stored in an
/// output slice like `digest_many_into`'s.
fn each_message<'a>(
    messages: &[&'a [u8]],
    peer: &str,
    one: impl Fn(&[u8]) -> [u8; 20] + 'a,
) -> Contender<'a> {
    let messages = messages.to_vec();
    let mut out = vec![[0u8; 20]; messages.len()];
    let run = move || {
        for (message, digest) in messages.iter().zip(&mut out) {
            *digest = one(black_box(message));
        }
        black_box(&out);
    };
    (peer.to_owned(), Box::new(run))
}

/// One input of each of [`SIZES`]: (length, name, bytes).
fn sized_inputs() -> Vec<(usize, &'static str, Vec<u8>)> {
    SIZES
        .iter()
        .map(|&(len, name)| (len, name, input(len)))
        .collect()
}

/// The `digest` group, interleaved.
fn digest_table() {
    let inputs = sized_inputs();
    let rows = inputs
        .iter()
        .map(|(len, name, data)| {
            let data = &data[..];
            let mut contenders: Vec<Contender<'_>> = Vec::new();
            for (i, backend) in backends().into_iter().enumerate() {
                let run: Box<dyn FnMut()> = if i == 0 {
                    Box::new(move || {
                        black_box(sha1_fast::digest(black_box(data)));
                    })
                } else {
                    Box::new(move || {
                        black_box(backend.digest(black_box(data)));
                    })
                };
                contenders.push((fast_name(backend), run));
            }
            contenders.extend(peers!(one_shot(data)));
            (*name, *len, contenders)
        })
        .collect();
    table("One-shot digest", rows);
}

/// sha1-fast's `digest_many_into` on each backend, then the peers' loops,
/// on `messages`.
fn many_contenders<'a>(messages: &[&'a [u8]]) -> Vec<Contender<'a>> {
    let mut contenders: Vec<Contender<'a>> = Vec::new();
    for (i, backend) in backends().into_iter().enumerate() {
        let messages = messages.to_vec();
        let mut out = vec![Digest::from_bytes([0; 20]); messages.len()];
        let run: Box<dyn FnMut()> =
            Box::new(move || many_into(i == 0, backend, &messages, &mut out));
        contenders.push((fast_name(backend), run));
    }
    contenders.extend(peers!(each_message(messages)));
    contenders
}

/// The `many` group, interleaved, and the repository's objects.
fn many_table() {
    let owned_objects = bijou_benches::git_objects().unwrap_or_default();
    let inputs: Vec<(usize, &str, Vec<u8>)> = MANY
        .iter()
        .map(|&(count, len, name)| (len, name, input(count * len)))
        .collect();
    let chunked: Vec<Vec<&[u8]>> = inputs
        .iter()
        .map(|(len, _, data)| data.chunks_exact(*len).collect())
        .collect();
    let mut rows: Vec<_> = inputs
        .iter()
        .zip(&chunked)
        .map(|((_, name, data), messages)| (*name, data.len(), many_contenders(messages)))
        .collect();
    let objects: Vec<&[u8]> = owned_objects.iter().map(Vec::as_slice).collect();
    if !objects.is_empty() {
        let len = objects.iter().map(|o| o.len()).sum();
        rows.push(("git objects", len, many_contenders(&objects)));
    }
    table(
        "Many messages: digest_many against a loop of one-shots",
        rows,
    );
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

/// The tag of `message` from `keyed`, a MAC instance already keyed.
fn tag<M: hmac::Mac + Clone>(keyed: &M, message: &[u8]) -> impl Sized {
    let mut mac = keyed.clone();
    mac.update(message);
    mac.finalize().into_bytes()
}

fn hmac(c: &mut Criterion) {
    use hmac::{Hmac, KeyInit, SimpleHmac};
    let key = input(20);
    let keyed = Hmac::<sha1_fast::Sha1>::new_from_slice(&key).expect("any key length");
    let simple = SimpleHmac::<sha1_fast::Sha1>::new_from_slice(&key).expect("any key length");
    let theirs = Hmac::<sha1::Sha1>::new_from_slice(&key).expect("any key length");
    let mut group = c.benchmark_group("hmac");
    for &(len, name) in &SIZES[..2] {
        let message = input(len);
        group.throughput(Throughput::Bytes(len as u64));
        group.bench_function(BenchmarkId::new("sha1-fast", name), |b| {
            b.iter(|| tag(&keyed, black_box(&message)));
        });
        group.bench_function(BenchmarkId::new("sha1-fast SimpleHmac", name), |b| {
            b.iter(|| tag(&simple, black_box(&message)));
        });
        group.bench_function(BenchmarkId::new(SHA1, name), |b| {
            b.iter(|| tag(&theirs, black_box(&message)));
        });
    }
    group.finish();
}

/// The collision-detecting contenders of the `checked` group on `data`:
/// sha1-fast's default dispatch, its other backends, then the peers.
fn checked_contenders(data: &[u8]) -> Vec<Contender<'_>> {
    let mut contenders: Vec<Contender<'_>> = Vec::new();
    for (i, backend) in backends().into_iter().enumerate() {
        let run: Box<dyn FnMut()> = if i == 0 {
            Box::new(move || {
                let _ = black_box(sha1_fast::checked::digest(black_box(data)));
            })
        } else {
            Box::new(move || {
                let mut hasher =
                    sha1_fast::checked::Sha1::with_backend(backend).expect("available");
                hasher.update(black_box(data));
                let _ = black_box(hasher.finalize());
            })
        };
        contenders.push((format!("checked ({})", backend.name()), run));
    }
    contenders.push(one_shot(data, "sha1dc", |d| {
        *sha1dc::digest(d).unwrap_or_else(|c| c.digest()).as_bytes()
    }));
    contenders.push(one_shot(data, "sha1-checked", |d| {
        sha1_checked::Sha1::try_digest(d)
            .hash()
            .as_slice()
            .try_into()
            .expect("20 bytes")
    }));
    contenders.push(one_shot(data, "sha1-fast (plain)", |d| {
        sha1_fast::digest(d).to_bytes()
    }));
    contenders
}

/// How many messages, and how long, `checked-many` hashes.
const CHECKED_MANY: (usize, usize) = (256, 1000);

fn checked_many_contenders<'a>(messages: &[&'a [u8]]) -> Vec<Contender<'a>> {
    let owned = messages.to_vec();
    let mut out = vec![Ok(Digest::from_bytes([0; 20])); owned.len()];
    let run: Box<dyn FnMut() + 'a> = Box::new(move || {
        sha1_fast::checked::digest_many_into(black_box(&owned), &mut out)
            .expect("one slot per message");
        black_box(&out);
    });
    vec![
        ("checked digest_many".to_owned(), run),
        each_message(messages, "sha1dc loop", |d| {
            *sha1dc::digest(d).unwrap_or_else(|c| c.digest()).as_bytes()
        }),
    ]
}

/// Runs each contender under criterion in `group`.
fn bench_contenders(group: &mut Group<'_>, name: &str, contenders: Vec<Contender<'_>>) {
    for (peer, mut run) in contenders {
        group.bench_function(BenchmarkId::new(peer, name), |b| b.iter(&mut run));
    }
}

fn checked(c: &mut Criterion) {
    let mut group = c.benchmark_group("checked");
    for &(len, name) in SIZES {
        let data = input(len);
        group.throughput(Throughput::Bytes(len as u64));
        bench_contenders(&mut group, name, checked_contenders(&data));
    }
    group.finish();
    let (count, len) = CHECKED_MANY;
    let data = input(count * len);
    let messages: Vec<&[u8]> = data.chunks_exact(len).collect();
    let mut group = c.benchmark_group("checked-many");
    group.throughput(Throughput::Bytes(data.len() as u64));
    bench_contenders(&mut group, "256x1000B", checked_many_contenders(&messages));
    group.finish();
}

/// The `checked` groups, interleaved.
fn checked_table() {
    let inputs = sized_inputs();
    let rows = inputs
        .iter()
        .map(|(len, name, data)| (*name, *len, checked_contenders(data)))
        .collect();
    table("Collision-detecting one-shot digest", rows);
    let (count, len) = CHECKED_MANY;
    let data = input(count * len);
    let messages: Vec<&[u8]> = data.chunks_exact(len).collect();
    let objects = bijou_benches::git_objects().unwrap_or_default();
    let objects: Vec<&[u8]> = objects.iter().map(Vec::as_slice).collect();
    let mut rows = vec![("256x1000B", data.len(), checked_many_contenders(&messages))];
    if !objects.is_empty() {
        let len = objects.iter().map(|o| o.len()).sum();
        rows.push(("git objects", len, checked_many_contenders(&objects)));
    }
    table(
        "Collision-detecting digest_many against a loop of sha1dc",
        rows,
    );
}

fn main() {
    let mut criterion = config().configure_from_args();
    digest(&mut criterion);
    checked(&mut criterion);
    compress(&mut criterion);
    many(&mut criterion);
    hmac(&mut criterion);
    criterion.final_summary();

    if bijou_benches::is_measuring_run() {
        digest_table();
        checked_table();
        many_table();
    }
}
