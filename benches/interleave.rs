//! The interleaved tables' harness, beside criterion: peers timed in turn,
//! round after round, in one process.
//!
//! Criterion measures one benchmark at a time, so drift between two peers'
//! measuring windows (a neighbour's build on a shared machine, the clock
//! under a hypervisor) lands in their ratio; for peers within about 1.5×
//! of each other it is as large as the difference. [`Interleave`] times
//! every contender once a round, the first one rotating, and takes medians
//! over the rounds, so drift slows all of them alike; a clock sample each
//! round turns times into cycles. Its tables add to a bench's criterion
//! groups, printed after them on a measuring run through [`emit!`](crate::emit)
//! (docs/BENCHMARKS.md, "Two harnesses").

/// Whether this bench binary was started to measure, and so should print
/// its interleaved tables after criterion: `cargo bench` passes `--bench`;
/// criterion's `--list` and `cargo test --benches` are not measuring runs.
#[must_use]
pub fn is_measuring_run() -> bool {
    let args: Vec<String> = std::env::args().collect();
    args.iter().any(|a| a == "--bench") && !args.iter().any(|a| a == "--list")
}

/// The environment variable naming the file a bench appends its
/// interleaved tables to, besides printing them; `cargo xtask bench` sets
/// it per run and puts the file's contents in its report.
pub const TABLES_VAR: &str = "BIJOU_BENCH_TABLES";

/// Prints one line of an interleaved table and, when [`TABLES_VAR`] names a
/// file, appends it there too. Use it through [`emit!`].
///
/// # Panics
///
/// When the file cannot be written: a report missing its tables should
/// not look complete.
pub fn emit_line(line: &str) {
    use std::io::Write as _;
    println!("{line}");
    if let Some(path) = std::env::var_os(TABLES_VAR) {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        writeln!(file, "{line}").unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// `println!` for the interleaved tables: see [`emit_line`].
#[macro_export]
macro_rules! emit {
    ($($arg:tt)*) => {
        $crate::emit_line(&::std::format!($($arg)*))
    };
}

/// The median of `values` (sorted in place); interleaved SHA-1 tables use it.
/// For an even count it is the upper of the two middle values (the tables
/// take odd counts of rounds, so theirs is the true median).
///
/// # Panics
///
/// When `values` is empty.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// A contender of an interleaved table: its name and one call's work.
pub type Contender<'a> = (String, Box<dyn FnMut() + 'a>);

/// One contender's medians over the rounds of [`Interleave::run`].
#[derive(Clone, Copy, Debug)]
pub struct Stats {
    /// 10^6 bytes per second.
    pub rate: f64,
    /// Core cycles per byte, each sample priced at the clock measured in
    /// its own round.
    pub cpb: f64,
}

/// How the interleaved tables measure: every contender is timed in turn,
/// round after round (each round starting one contender later), after a
/// clock sample each round, so a neighbour's build or a clock change slows
/// all of them alike and the ratios stay honest on a shared machine.
#[derive(Clone, Copy, Debug)]
pub struct Interleave {
    /// Rounds; each contender is timed once a round.
    pub rounds: usize,
    /// Bytes hashed per sample, so every sample lasts about as long and
    /// timer resolution does not matter.
    pub sample_bytes: usize,
    /// Links of the [`clock_ghz`] chain sampled each round.
    pub clock_links: u32,
}

impl Interleave {
    /// Times each contender (one call hashes `len` bytes); returns each
    /// one's medians, in order, and the median clock in GHz.
    pub fn run(&self, contenders: &mut [Contender<'_>], len: usize) -> (Vec<Stats>, f64) {
        let calls = self.sample_bytes.div_ceil(len);
        let mut samples = vec![
            (
                Vec::with_capacity(self.rounds),
                Vec::with_capacity(self.rounds)
            );
            contenders.len()
        ];
        let mut clocks = Vec::with_capacity(self.rounds);
        let count = contenders.len();
        for round in 0..self.rounds {
            let ghz = clock_ghz(self.clock_links);
            clocks.push(ghz);
            // Each round starts with the next contender, so none is always
            // the one timed right after the clock sample or after a given
            // neighbour.
            for i in (0..count).map(|i| (i + round) % count) {
                let ((_, run), (rates, cpbs)) = (&mut contenders[i], &mut samples[i]);
                let start = std::time::Instant::now();
                for _ in 0..calls {
                    run();
                }
                let rate = (calls * len) as f64 / start.elapsed().as_secs_f64() / 1e6;
                rates.push(rate);
                cpbs.push(ghz * 1e3 / rate);
            }
        }
        let stats = samples
            .iter_mut()
            .map(|(rates, cpbs)| Stats {
                rate: median(rates),
                cpb: median(cpbs),
            })
            .collect();
        (stats, median(&mut clocks))
    }
}

/// The core clock in GHz, from `links` steps of a dependent chain of add +
/// rotate: two one-cycle operations per link, which no compiler can shorten.
pub fn clock_ghz(links: u32) -> f64 {
    let step = std::hint::black_box(0x9E37_79B9_u32);
    let mut x = std::hint::black_box(1u32);
    let start = std::time::Instant::now();
    for _ in 0..links {
        x = x.wrapping_add(step).rotate_left(7);
    }
    std::hint::black_box(x);
    2.0 * f64::from(links) / start.elapsed().as_nanos() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleave_times_every_contender_every_round() {
        use std::cell::Cell;
        let calls = [Cell::new(0), Cell::new(0)];
        let mut contenders: Vec<Contender<'_>> = calls
            .iter()
            .enumerate()
            .map(|(i, count)| -> Contender<'_> {
                (
                    format!("c{i}"),
                    Box::new(move || count.set(count.get() + 1)),
                )
            })
            .collect();
        let interleave = Interleave {
            rounds: 3,
            sample_bytes: 100,
            clock_links: 1 << 10,
        };
        // 100 bytes a sample at 10 bytes a call: 10 calls a round.
        let (stats, ghz) = interleave.run(&mut contenders, 10);
        drop(contenders);
        assert_eq!(calls.map(|c| c.get()), [30, 30]);
        assert_eq!(stats.len(), 2);
        assert!(ghz > 0.0);
        for s in stats {
            assert!(s.rate > 0.0 && s.cpb > 0.0, "{s:?}");
        }
    }

    #[test]
    fn median_takes_the_middle_value() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [5.0]), 5.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 3.0);
    }

    /// A contender of known speed: 1000 bytes a call, each call at least
    /// 2 ms, so at most 0.5 MB/s; cycles per byte follow from the clock.
    #[test]
    fn interleave_prices_a_known_rate() {
        let mut contenders: Vec<Contender<'_>> = vec![(
            "sleeper".to_owned(),
            Box::new(|| std::thread::sleep(std::time::Duration::from_millis(2))),
        )];
        let interleave = Interleave {
            rounds: 3,
            sample_bytes: 1000,
            clock_links: 1 << 10,
        };
        let (stats, ghz) = interleave.run(&mut contenders, 1000);
        let s = stats[0];
        // Sleeps overshoot, never undershoot; 0.05 allows 20 ms a call.
        assert!((0.05..=0.5).contains(&s.rate), "{s:?}");
        // cpb = cycles a µs / bytes a µs; with one clock reading per round
        // the medians agree closely.
        let expected = ghz * 1e3 / s.rate;
        assert!((s.cpb / expected - 1.0).abs() < 0.5, "{s:?} at {ghz} GHz");
    }
}
