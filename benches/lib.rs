//! Shared pieces of the criterion benches in `benches/benches/`: workload
//! generators, the [`cycled`] registration helper, the interleaved tables'
//! harness ([`Interleave`], in `interleave.rs`: what it measures that
//! criterion cannot is said there) and the core's throughput ceilings.
//!
//! Everything here is deterministic (a fixed-seed [`SplitMix64`]), so two
//! runs, two machines and two engineers measure the same values.

use bijou_core::bijou64;

mod interleave;

pub use interleave::{
    Contender, Interleave, Stats, TABLES_VAR, clock_ghz, emit_line, is_measuring_run, median,
};

/// Values per batch: one criterion iteration processes one batch, and the
/// benches report `Throughput::Elements(BATCH)` so times read as ns/value.
pub const BATCH: usize = 4096;

/// Batches in an unpredictable workload. Cycling this many different batches
/// (64 Ki values) defeats branch predictors that would otherwise memorise the
/// length pattern of a single repeated batch.
pub const CYCLE: usize = 16;

/// Registers `id` in `group`, benchmarking `run` on `items` in turn, one
/// per iteration, each passed through `black_box` (criterion black-boxes
/// what `run` returns).
pub fn cycled<T, R>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: criterion::BenchmarkId,
    items: &[T],
    mut run: impl FnMut(&T) -> R,
) {
    let mut items = items.iter().cycle();
    group.bench_function(id, |b| {
        b.iter(|| {
            run(std::hint::black_box(
                items.next().expect("cycle of a non-empty slice"),
            ))
        });
    });
}

/// SplitMix64: a tiny, well-mixed generator; statistical quality beyond
/// "no visible pattern" does not matter for workloads.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `len` random bytes, the hash benches' input.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }

    /// A value in `lo..=hi`. The modulo bias is irrelevant for benchmarks.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        match (hi - lo).checked_add(1) {
            Some(span) => lo + self.next_u64() % span,
            None => self.next_u64(),
        }
    }
}

/// How the values of a workload are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distribution {
    /// Uniform in an inclusive range.
    Range(u64, u64),
    /// Values within 2 of every bijou64 tier start.
    TierBoundaries,
    /// 50% tiny, 30% small, 15% medium, 5% large: a plausible mix of
    /// lengths, counts and ids.
    Mix,
    /// A bit width uniform in `1..=64`, then a value of exactly that width:
    /// every encoded length about equally likely for every format.
    BitWidth,
}

/// 0–247: one byte in bijou64 (LEB128 needs two from 128 on).
pub const TINY: Distribution = Distribution::Range(0, 247);
/// 248–65,535: two or three bytes in bijou64.
pub const SMALL: Distribution = Distribution::Range(248, 65_535);
/// 65,536–2^32−1.
pub const MEDIUM: Distribution = Distribution::Range(65_536, u32::MAX as u64);
/// 2^32–2^64−1.
pub const LARGE: Distribution = Distribution::Range(1 << 32, u64::MAX);
/// Every `u64` equally likely (so almost all of them are 8–9 bytes).
pub const UNIFORM: Distribution = Distribution::Range(0, u64::MAX);

impl Distribution {
    /// Draws one value.
    pub fn sample(self, rng: &mut SplitMix64) -> u64 {
        match self {
            Self::Range(lo, hi) => rng.range(lo, hi),
            Self::TierBoundaries => {
                let edges = tier_edges();
                edges[rng.range(0, edges.len() as u64 - 1) as usize]
            }
            Self::Mix => {
                let class = match rng.range(0, 99) {
                    0..50 => TINY,
                    50..80 => SMALL,
                    80..95 => MEDIUM,
                    _ => LARGE,
                };
                class.sample(rng)
            }
            Self::BitWidth => {
                let width = rng.range(1, 64);
                // Keep `width` random bits and force the top one, so the
                // value has exactly that width.
                (rng.next_u64() >> (64 - width)) | (1 << (width - 1))
            }
        }
    }
}

/// The values within 2 of every bijou64 tier start (so the last two values
/// of one tier and the first three of the next), 0–2 and the top 3 values,
/// taken from bijou-core's public tier table: a length that changes
/// unpredictably between neighbouring tiers, the worst case for a decoder
/// that branches on the tier.
fn tier_edges() -> Vec<u64> {
    let mut edges = vec![0, 1, 2, u64::MAX - 2, u64::MAX - 1, u64::MAX];
    for &start in &bijou64::OFFSETS[1..] {
        edges.extend(start - 2..=start + 2);
    }
    edges
}

/// A named set of batches: one batch for a predictable workload, [`CYCLE`]
/// for an unpredictable one.
#[derive(Clone, Debug)]
pub struct Workload {
    /// The criterion parameter label, e.g. `tiny` or `mix-16`.
    pub name: &'static str,
    /// The batches, each [`BATCH`] values long.
    pub batches: Vec<Vec<u64>>,
}

/// The fields of one record of the `records` workload, in order: an id
/// (mostly 3 bytes in bijou64), a kind and a count (1 byte each), a
/// millisecond timestamp (7 bytes) and a hash (9 bytes). The lengths
/// repeat with the record, so a predictor can learn them.
pub const RECORD: [Distribution; 5] = [
    SMALL,
    Distribution::Range(0, 15),
    Distribution::Range(0, 200),
    Distribution::Range(1 << 40, 1 << 41),
    UNIFORM,
];

impl Workload {
    /// `count` batches of [`BATCH`] values drawn from `distribution`; the
    /// seed is derived from `name` so each workload has its own values.
    #[must_use]
    pub fn new(name: &'static str, distribution: Distribution, count: usize) -> Self {
        Self::cycling(name, &[distribution], count)
    }

    /// Like [`Workload::new`], value `i` of a batch drawn from
    /// `fields[i % fields.len()]`: records of fixed fields in a row.
    #[must_use]
    pub fn cycling(name: &'static str, fields: &[Distribution], count: usize) -> Self {
        let seed = name.bytes().fold(0xB1_0B_00_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
        });
        let mut rng = SplitMix64::new(seed);
        let batches = (0..count)
            .map(|_| {
                (0..BATCH)
                    .map(|i| fields[i % fields.len()].sample(&mut rng))
                    .collect()
            })
            .collect();
        Self { name, batches }
    }
}

/// Every workload of the varint shoot-out, in report order: the single-batch
/// distributions first, then the [`CYCLE`]-batch unpredictable ones, then
/// repeating [`RECORD`]s.
#[must_use]
pub fn workloads() -> Vec<Workload> {
    vec![
        Workload::new("tiny", TINY, 1),
        Workload::new("small", SMALL, 1),
        Workload::new("medium", MEDIUM, 1),
        Workload::new("large", LARGE, 1),
        Workload::new("uniform", UNIFORM, 1),
        Workload::new("boundaries", Distribution::TierBoundaries, CYCLE),
        Workload::new("mix", Distribution::Mix, 1),
        Workload::new("mix-16", Distribution::Mix, CYCLE),
        Workload::new("bits-16", Distribution::BitWidth, CYCLE),
        Workload::cycling("records", &RECORD, 1),
    ]
}

/// One batch encoded back to back by some format, with zero padding after
/// the last value for decoders that read a fixed-size window.
#[derive(Clone, Debug)]
pub struct Stream {
    /// The encodings followed by [`Stream::PADDING`] zero bytes.
    pub bytes: Vec<u8>,
    /// Bytes of actual encodings (`bytes.len() - PADDING`).
    pub len: usize,
    /// Where each value's encoding starts.
    pub offsets: Vec<usize>,
}

impl Stream {
    /// Zero bytes after the last encoding: enough for a 16-byte window
    /// starting at any value.
    pub const PADDING: usize = 16;

    /// Encodes `values` one by one with `encode`, which appends to its
    /// vector.
    pub fn encode(values: &[u64], mut encode: impl FnMut(u64, &mut Vec<u8>)) -> Self {
        let mut bytes = Vec::new();
        let mut offsets = Vec::with_capacity(values.len());
        for &value in values {
            offsets.push(bytes.len());
            encode(value, &mut bytes);
        }
        let len = bytes.len();
        bytes.resize(len + Self::PADDING, 0);
        Self {
            bytes,
            len,
            offsets,
        }
    }
}

/// Defines a probe that returns how many of one register instruction the
/// core retires per nanosecond at best: eight independent chains of it, 24
/// a loop iteration, written in assembly so no compiler can vectorise, fuse
/// or drop them. `$instruction` names the chain register `\r` (the
/// assembler's `.irp` symbol) and may use `{s:e}`, a register holding 1.
/// `None` off x86-64.
macro_rules! throughput_probe {
    ($(#[$doc:meta])* $name:ident, $instruction:literal) => {
        $(#[$doc])*
        pub fn $name(iterations: u64) -> Option<f64> {
            #[cfg(target_arch = "x86_64")]
            {
                let start = std::time::Instant::now();
                // SAFETY: the assembly reads and writes only the registers
                // bound as operands below (no memory, no stack, flags
                // clobbered as `asm!` assumes by default) and ends once `n`
                // counts down to zero; `iterations.max(1)` keeps the count
                // from wrapping.
                unsafe {
                    std::arch::asm!(
                        "2:",
                        ".rept 3",
                        ".irp r, {a:e}, {b:e}, {c:e}, {d:e}, {e:e}, {f:e}, {g:e}, {h:e}",
                        $instruction,
                        ".endr",
                        ".endr",
                        "sub {n}, {s}",
                        "jnz 2b",
                        n = inout(reg) iterations.max(1) => _,
                        s = in(reg) 1u64,
                        a = inout(reg) 0u32 => _,
                        b = inout(reg) 0u32 => _,
                        c = inout(reg) 0u32 => _,
                        d = inout(reg) 0u32 => _,
                        e = inout(reg) 0u32 => _,
                        f = inout(reg) 0u32 => _,
                        g = inout(reg) 0u32 => _,
                        h = inout(reg) 0u32 => _,
                        options(nomem, nostack),
                    );
                }
                Some(24.0 * iterations.max(1) as f64 / start.elapsed().as_nanos() as f64)
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                let _ = iterations;
                None
            }
        }
    };
}

throughput_probe!(
    /// Integer ALU operations (register adds) the core retires per
    /// nanosecond at best. Divided by [`clock_ghz`], it is the ceiling that
    /// the SHA-1 scalar core's integer operations per cycle are compared
    /// with (`docs/sha1.md`). `None` off x86-64.
    alu_ops_per_ns,
    "add \\r, {s:e}"
);

throughput_probe!(
    /// Rotates by a constant (`rol r, 5`, as in SHA-1's `rotl5`) the core
    /// retires per nanosecond at best; fewer execution units take shifts
    /// and rotates than take adds. `None` off x86-64.
    rotates_per_ns,
    "rol \\r, 5"
);

/// Every object of the git repository that holds this package, framed as
/// git hashes it (`<type> <size>\0` and the bytes), or `None` where
/// `git cat-file` cannot list them (no git, or not a checkout).
///
/// Real objects mix sizes as no synthetic batch does: many small trees
/// and commits, a long tail of large blobs.
#[must_use]
pub fn git_objects() -> Option<Vec<Vec<u8>>> {
    let output = std::process::Command::new("git")
        .args(["cat-file", "--batch-all-objects", "--batch"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let mut rest = output.stdout.as_slice();
    let mut objects = Vec::new();
    while let Some(end) = rest.iter().position(|&b| b == b'\n') {
        let header = std::str::from_utf8(&rest[..end]).ok()?;
        let mut fields = header.split(' ').skip(1);
        let (kind, size) = (fields.next()?, fields.next()?.parse::<usize>().ok()?);
        let body = rest.get(end + 1..end + 1 + size)?;
        let mut framed = format!("{kind} {size}\0").into_bytes();
        framed.extend_from_slice(body);
        objects.push(framed);
        rest = rest.get(end + 2 + size..)?;
    }
    Some(objects)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workloads_are_deterministic_and_in_range() {
        let (a, b) = (workloads(), workloads());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.batches, y.batches, "{}", x.name);
            assert!(x.batches.iter().all(|batch| batch.len() == BATCH));
        }
        let tiny = &a[0].batches[0];
        assert!(tiny.iter().all(|&v| v <= 247));
        assert!(tiny.iter().any(|&v| v != tiny[0]));
        let mix = a.iter().find(|w| w.name == "mix-16").unwrap();
        assert_eq!(mix.batches.len(), CYCLE);
        assert_ne!(mix.batches[0], mix.batches[1]);
    }

    #[test]
    fn throughput_probes_run_and_are_plausible() {
        for probe in [alu_ops_per_ns, rotates_per_ns] {
            // The best of five, so a preempted run cannot fail the test.
            let rate = (0..5).filter_map(|_| probe(1 << 12)).reduce(f64::max);
            if cfg!(target_arch = "x86_64") {
                // Any x86-64 core retires more than one add or rotate per
                // ns (the low bound leaves twenty-fold room for a loaded
                // machine) and none retires a hundred: a loop that ran no
                // iterations, or far fewer than counted, lands above.
                let rate = rate.expect("x86-64 has the probes");
                assert!((0.05..100.0).contains(&rate), "{rate}");
            } else {
                assert_eq!(rate, None);
            }
        }
    }

    #[test]
    fn bit_width_covers_every_width() {
        let mut rng = SplitMix64::new(1);
        let mut seen = [false; 65];
        for _ in 0..10_000 {
            let v = Distribution::BitWidth.sample(&mut rng);
            seen[(64 - v.leading_zeros()) as usize] = true;
        }
        assert!(seen[1..].iter().all(|&s| s));
        assert!(!seen[0]);
    }

    #[test]
    fn mix_proportions_are_close() {
        let mut rng = SplitMix64::new(2);
        let n = 100_000;
        let tiny = (0..n)
            .filter(|_| Distribution::Mix.sample(&mut rng) <= 247)
            .count();
        assert!((45_000..55_000).contains(&tiny), "{tiny}");
    }

    #[test]
    fn tier_edges_straddle_every_tier() {
        let lens: std::collections::BTreeSet<usize> =
            tier_edges().into_iter().map(bijou64::encoded_len).collect();
        assert_eq!(
            lens.into_iter().collect::<Vec<_>>(),
            (1..=9).collect::<Vec<_>>()
        );
    }

    #[test]
    fn stream_records_offsets_and_pads() {
        let s = Stream::encode(&[1, 300, 2], bijou64::encode);
        assert_eq!(s.offsets, [0, 1, 3]);
        assert_eq!(s.len, 4);
        assert_eq!(s.bytes.len(), 4 + Stream::PADDING);
    }
}
