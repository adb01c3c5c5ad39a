//! Per-batch decode times, the data of the report's decode-time CDF charts:
//! every stream decoder timed on one batch at a time, many times over, so
//! the spread shows beside criterion's medians.
//!
//! Runs when [`CDF_VAR`] names a file (`cargo xtask bench` sets it, and
//! draws the charts from the file); [`CDF_BATCHES_VAR`] sets how many
//! batches each decoder is timed on per workload. Like the interleaved
//! tables, the decoders take turns: each round times every one of them on
//! one batch, the first one rotating, so a slow stretch of the machine
//! lands on all of them.

use bijou_benches::{BATCH, Contender, workloads};
use std::fmt::Write as _;
use std::time::Instant;

/// The file the per-batch times are written to (replaced, not appended).
pub(super) const CDF_VAR: &str = "BIJOU_BENCH_CDF";

/// Batches each decoder is timed on per workload; [`DEFAULT_BATCHES`] when
/// unset.
pub(super) const CDF_BATCHES_VAR: &str = "BIJOU_BENCH_CDF_BATCHES";

/// About 5 s for every workload on a 3 GHz core.
const DEFAULT_BATCHES: usize = 10_000;

/// Calls before timing starts, per decoder: every batch of a cycling
/// workload a few times, so caches and predictors are in their steady state.
const WARM_UP_CALLS: usize = 64;

/// The decoders of the charts: those of the `varint-decode` table except
/// `values` through `for_each` (the `for` loop is the call users write) and
/// vu128 (another format, not a peer the targets name).
const CHARTED: &[&str] = &[
    "bijou-core",
    "bijou-core-batch",
    "bijou-core-values",
    "bijou64",
    "bijoux",
    "prost",
    "integer-encoding",
];

/// Writes the per-batch times to the file [`CDF_VAR`] names, if it is set.
///
/// The file has one line per workload and decoder, tab-separated: the
/// workload, the decoder, then each batch's time in ns per value (space
/// separated, in the order taken). Lines starting with `#` are comments.
///
/// # Panics
///
/// When [`CDF_BATCHES_VAR`] is not a positive count or the file cannot be
/// written: a report must not silently lack its charts.
pub(super) fn write_if_requested() {
    let Some(path) = std::env::var_os(CDF_VAR) else {
        return;
    };
    let batches = match std::env::var(CDF_BATCHES_VAR) {
        Err(_) => DEFAULT_BATCHES,
        Ok(text) => text
            .parse()
            .ok()
            .filter(|&n: &usize| n > 0)
            .unwrap_or_else(|| panic!("{CDF_BATCHES_VAR}={text}: not a positive count")),
    };
    let mut out = format!(
        "# per-batch stream decode times: workload, decoder, ns/value of each batch of {BATCH} values\n"
    );
    for workload in &workloads() {
        let mut contenders: Vec<Contender<'static>> = super::tables::decode_contenders(workload)
            .into_iter()
            .filter(|(name, _)| CHARTED.contains(&name.as_str()))
            .collect();
        for (times, (name, _)) in per_batch_times(&mut contenders, batches)
            .iter()
            .zip(&contenders)
        {
            let _ = write!(out, "{}\t{name}\t", workload.name);
            for (i, ns) in times.iter().enumerate() {
                let separator = if i == 0 { "" } else { " " };
                let _ = write!(out, "{separator}{:.4}", ns / BATCH as f64);
            }
            out.push('\n');
        }
    }
    std::fs::write(&path, out).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    eprintln!(
        "per-batch decode times ({batches} batches a decoder and workload) written to {}",
        path.display()
    );
}

/// Each contender's time in ns for each of `batches` calls (one batch a
/// call), the contenders taking turns.
fn per_batch_times(contenders: &mut [Contender<'_>], batches: usize) -> Vec<Vec<f64>> {
    for (_, run) in contenders.iter_mut() {
        for _ in 0..WARM_UP_CALLS {
            run();
        }
    }
    let count = contenders.len();
    let mut times = vec![Vec::with_capacity(batches); count];
    for round in 0..batches {
        for i in (0..count).map(|i| (i + round) % count) {
            let run = &mut contenders[i].1;
            let start = Instant::now();
            run();
            times[i].push(start.elapsed().as_nanos() as f64);
        }
    }
    times
}
