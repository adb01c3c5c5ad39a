//! The per-batch decode-time CDF charts: the `bijou` bench times every
//! stream decoder on one batch at a time (`benches/benches/bijou/cdf.rs`),
//! and this module runs it for those times and draws, per workload, the
//! fraction of batches decoded within each time, one line per decoder.
//! A median says where a decoder usually is; the CDF also shows how far
//! its slow batches stray.

use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The chart's file name in a report directory.
pub(crate) const CHART_FILE: &str = "varint-decode-cdf.svg";

/// What the bench reads: the samples file, and batches per decoder.
const CDF_VAR: &str = "BIJOU_BENCH_CDF";
const CDF_BATCHES_VAR: &str = "BIJOU_BENCH_CDF_BATCHES";

/// The bench whose executable times the batches.
pub(crate) const BENCH: &str = "bijou";

/// Batches per decoder and workload: a full run and `--quick`.
pub(crate) const FULL_BATCHES: usize = 10_000;
pub(crate) const QUICK_BATCHES: usize = 1_000;

/// Each decoder's colour, the same in every panel: bijou-core's calls in
/// blues and greens, upstream in oranges, the LEB128 decoders in greys.
const COLOURS: &[(&str, RGBColor)] = &[
    ("bijou-core", RGBColor(31, 119, 180)),
    ("bijou-core-batch", RGBColor(44, 160, 44)),
    ("bijou-core-values", RGBColor(23, 190, 207)),
    ("bijou64", RGBColor(255, 127, 14)),
    ("bijoux", RGBColor(214, 39, 40)),
    ("prost", RGBColor(127, 127, 127)),
    ("integer-encoding", RGBColor(148, 103, 189)),
];

/// One decoder's per-batch times on one workload, in ns per value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Series {
    pub(crate) workload: String,
    pub(crate) decoder: String,
    pub(crate) times: Vec<f64>,
}

/// Runs the bench `executable` (built by `cargo bench --no-run`) for its
/// per-batch times alone, `batches` per decoder and workload, into
/// `samples`: criterion filtered to nothing, and no `--bench`, so no
/// interleaved tables either.
pub(crate) fn sample(
    executable: &Path,
    package_dir: &Path,
    samples: &Path,
    batches: usize,
) -> Result<(), String> {
    eprintln!("\n=== {BENCH}: per-batch decode times ({batches} batches a decoder) ===");
    let status = Command::new(executable)
        .arg("^no benchmark$")
        .current_dir(package_dir)
        .env(CDF_VAR, samples)
        .env(CDF_BATCHES_VAR, batches.to_string())
        .status()
        .map_err(|e| format!("running {}: {e}", executable.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "timing the batches of bench {BENCH} failed ({status})"
        ))
    }
}

/// Where the samples go: beside criterion's results, so `--no-run` can
/// draw the last ones again.
pub(crate) fn samples_file(criterion_dir: &Path) -> PathBuf {
    criterion_dir.join("varint-decode-batches.tsv")
}

/// Reads the bench's samples file (its format is described in the bench).
pub(crate) fn parse(text: &str) -> Result<Vec<Series>, String> {
    let mut series = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |what: &str| format!("samples line {}: {what}", number + 1);
        let mut fields = line.split('\t');
        let (Some(workload), Some(decoder), Some(times), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad("not three tab-separated fields"));
        };
        let times = times
            .split(' ')
            .map(|t| t.parse::<f64>().ok().filter(|t| t.is_finite() && *t >= 0.0))
            .collect::<Option<Vec<f64>>>()
            .filter(|times| !times.is_empty())
            .ok_or_else(|| bad("a time that is not a non-negative number"))?;
        series.push(Series {
            workload: workload.to_owned(),
            decoder: decoder.to_owned(),
            times,
        });
    }
    if series.is_empty() {
        return Err("the samples file holds no times".to_owned());
    }
    Ok(series)
}

/// The fractions at which each line is drawn: every percent, and every
/// tenth of a percent in the top percent, where the slow batches are. A
/// line through every sample would make a chart of megabytes.
fn fractions() -> impl Iterator<Item = f64> {
    (0..99)
        .map(|i| f64::from(i) / 100.0)
        .chain((990..=1000).map(|i| f64::from(i) / 1000.0))
}

/// The time within which `fraction` of the batches were decoded (`sorted`
/// ascending, not empty): the smallest sample with at least that share of
/// the samples at or below it.
fn quantile(sorted: &[f64], fraction: f64) -> f64 {
    let rank = (fraction * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The points of a decoder's CDF line, `(ns per value, fraction)`, up to
/// `x_end`; a line whose slowest batches lie past it runs to the edge.
fn cdf_points(times: &[f64], x_end: f64) -> Vec<(f64, f64)> {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut points: Vec<(f64, f64)> = fractions()
        .map(|f| (quantile(&sorted, f), f))
        .take_while(|&(x, _)| x <= x_end)
        .collect();
    if let Some(&(x, last)) = points.last()
        && last < 1.0
        && x < x_end
    {
        points.push((x_end, last));
    }
    points
}

/// The x axis's end for one workload's panel: a little past the slowest
/// decoder's 99th percentile, so a rare preempted batch does not squash
/// every line against the left edge.
fn x_end(series: &[&Series]) -> f64 {
    let p99 = series
        .iter()
        .map(|s| {
            let mut sorted = s.times.clone();
            sorted.sort_by(f64::total_cmp);
            quantile(&sorted, 0.99)
        })
        .fold(0.0, f64::max);
    if p99 > 0.0 { p99 * 1.15 } else { 1.0 }
}

/// The workloads in the samples' order, each with its series.
fn by_workload(series: &[Series]) -> Vec<(&str, Vec<&Series>)> {
    let mut workloads: Vec<(&str, Vec<&Series>)> = Vec::new();
    for s in series {
        match workloads.iter_mut().find(|(w, _)| *w == s.workload) {
            Some((_, list)) => list.push(s),
            None => workloads.push((&s.workload, vec![s])),
        }
    }
    workloads
}

fn colour(decoder: &str) -> RGBColor {
    COLOURS
        .iter()
        .find(|(name, _)| *name == decoder)
        .map_or(BLACK, |&(_, c)| c)
}

/// Draws `series` as an SVG grid of CDF panels, one per workload, two
/// panels a row, titled `title`.
pub(crate) fn draw(series: &[Series], path: &Path, title: &str) -> Result<(), String> {
    let workloads = by_workload(series);
    let rows = workloads.len().div_ceil(2);
    let size = (1100, 40 + 330 * rows as u32);
    let failed = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failed(&e))?;
    let root = root
        .titled(title, ("sans-serif", 20))
        .map_err(|e| failed(&e))?;
    for (panel, (workload, list)) in root.split_evenly((rows, 2)).iter().zip(&workloads) {
        let end = x_end(list);
        let mut chart = ChartBuilder::on(panel)
            .caption(*workload, ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(48)
            .build_cartesian_2d(0.0..end, 0.0..1.0)
            .map_err(|e| failed(&e))?;
        chart
            .configure_mesh()
            .x_desc("ns per value (each batch of 4096 values)")
            .y_desc("fraction of batches")
            .x_labels(8)
            .y_labels(6)
            // The bold grid at the labels only: light lines between them
            // would be a third of the file.
            .max_light_lines(0)
            .draw()
            .map_err(|e| failed(&e))?;
        for s in list {
            let c = colour(&s.decoder);
            chart
                .draw_series(LineSeries::new(
                    cdf_points(&s.times, end),
                    c.stroke_width(2),
                ))
                .map_err(|e| failed(&e))?
                .label(s.decoder.clone())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], c.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .label_font(("sans-serif", 12))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .draw()
            .map_err(|e| failed(&e))?;
    }
    root.present().map_err(|e| failed(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_benchs_samples() {
        let text = "# comment\ntiny\tbijou-core\t0.5000 0.7500\nmix\tprost\t2.0\n";
        let series = parse(text).unwrap();
        assert_eq!(series.len(), 2);
        assert_eq!(series[0].workload, "tiny");
        assert_eq!(series[0].decoder, "bijou-core");
        assert_eq!(series[0].times, [0.5, 0.75]);
        assert_eq!(series[1].times, [2.0]);
        for bad in [
            "tiny\tbijou-core\n",
            "tiny\tx\t1 y\n",
            "tiny\tx\t-1\n",
            "tiny\tx\t1\textra\n",
            "# only a comment\n",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        assert!(parse("tiny\tx\t1 y\n").unwrap_err().contains("line 1"));
    }

    #[test]
    fn quantiles_are_samples_with_that_share_at_or_below() {
        let sorted: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&sorted, 0.0), 1.0);
        assert_eq!(quantile(&sorted, 0.5), 50.0);
        assert_eq!(quantile(&sorted, 0.505), 51.0);
        assert_eq!(quantile(&sorted, 0.99), 99.0);
        assert_eq!(quantile(&sorted, 1.0), 100.0);
        assert_eq!(quantile(&[7.0], 0.3), 7.0);
    }

    #[test]
    fn cdf_lines_rise_and_stop_at_the_axis_end() {
        let times: Vec<f64> = (1..=1000).rev().map(f64::from).collect();
        let points = cdf_points(&times, 2000.0);
        assert_eq!(points.first(), Some(&(1.0, 0.0)));
        assert_eq!(points.last(), Some(&(1000.0, 1.0)));
        assert!(
            points
                .windows(2)
                .all(|w| w[0].0 <= w[1].0 && w[0].1 < w[1].1)
        );
        // Cut at 500: the last point is the edge, at the last fraction drawn.
        let cut = cdf_points(&times, 500.0);
        assert_eq!(cut.last(), Some(&(500.0, 0.5)));
        assert!(cut.iter().all(|&(x, _)| x <= 500.0));
    }

    #[test]
    fn the_axis_ends_past_the_slowest_99th_percentile() {
        let fast = Series {
            workload: "w".into(),
            decoder: "a".into(),
            times: (1..=100).map(f64::from).collect(),
        };
        let mut slow = fast.clone();
        slow.times.iter_mut().for_each(|t| *t *= 2.0);
        slow.times[99] = 1e6; // one preempted batch
        assert_eq!(x_end(&[&fast, &slow]), 198.0 * 1.15);
    }

    #[test]
    fn draws_a_panel_per_workload_and_a_line_per_decoder() {
        let text = "tiny\tbijou-core\t0.5 0.6 0.7\ntiny\tbijou64\t0.4 0.5\n\
                    mix\tbijou-core\t1 2 3\nmix\tprost\t2 3 4\nrecords\tprost\t5\n";
        let series = parse(text).unwrap();
        let path = std::env::temp_dir().join(format!("xtask-cdf-{}.svg", std::process::id()));
        draw(&series, &path, "a title").unwrap();
        let svg = std::fs::read_to_string(&path);
        std::fs::remove_file(&path).unwrap();
        let svg = svg.unwrap();
        // plotters writes each text on a line of its own.
        let texts: Vec<&str> = svg.lines().collect();
        for text in ["a title", "tiny", "mix", "records", "bijou64", "prost"] {
            assert!(texts.contains(&text), "{text} missing");
        }
        // Each decoder's line and its legend mark; the axes are thinner.
        let lines = svg.matches(r#"stroke-width="2""#).count();
        assert_eq!(lines, 5 + 5);
    }
}
