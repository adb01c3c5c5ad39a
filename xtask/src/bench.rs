//! `cargo xtask bench`: runs the criterion shoot-outs in `benches/`, reads
//! criterion's JSON back and prints one table per group, the SHA-1
//! optimisation ladder and, with `--report`, a markdown report with SVG
//! charts, the per-batch decode-time CDF among them.

mod cdf;
mod report;
mod svg;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::criterion::{
    self, Benches, Measurement, QUICK_ARGS, QUICK_SECONDS, Run, SHA1_LADDER, is_ladder,
};
use crate::flags::{Args, Long, push_once, unexpected};
use crate::groups::groups;

pub(crate) const USAGE: &str = "\
Usage: cargo xtask bench [--quick] [--report DIR] [--ladder] [OPTIONS] [-- CRITERION_ARGS...]
       cargo xtask bench --cdf DIR [--quick]

Runs every criterion bench of the bijou-benches package (benches/benches/*.rs),
the sha1 bench a second time with the sha1 crate forced to its software
backend, then prints each group as a table: criterion's median per input, in
ns/value or MB/s, and each peer's ratio to the group's first function
(\"2.00x\": the first function is twice as fast). A peer named crate/setting
(prost/Bytes) is compared with the first function's crate on the same setting
(bijou-io/Bytes) where the group has it.

Options:
  --quick         About two minutes of measuring: 0.3 s warm-up, 0.7 s
                  measurement, 10 samples, no plots, fewer workloads (varints:
                  tiny, medium, mix-16; io: mix-16)
  --report DIR    Also write DIR/index.md and one SVG bar chart per group
                  (the kept report lives in docs/bench); with the bijou
                  bench, also the per-batch decode-time CDF chart
                  (DIR/varint-decode-cdf.svg: every stream decoder timed on
                  10,000 batches of each workload, 1,000 with --quick)
  --cdf DIR       Only the CDF chart: time the bijou bench's stream decoders
                  batch by batch (no criterion, no tables; about 5 s, or
                  half a second with --quick) and write
                  DIR/varint-decode-cdf.svg
  --ladder        Run only the sha1_ladder bench and print the SHA-1
                  optimisation ladder: each step's time and speed-up (an
                  error beside a --bench naming another bench)
  --bench NAME    Run only this bench (repeatable): bijou, io, sha1, sha1_ladder,
                  blowfish_ladder
  --filter REGEX  Run only the benchmarks whose id matches (criterion's
                  filter, e.g. 'varint-decode/.*/tiny'); replaces the --quick
                  workload filter and skips the sha1 software-backend rerun
  --no-run        Measure nothing; report the results criterion already holds
                  (still builds the benches, to list their benchmarks); with
                  no results it fails and leaves an existing report alone
  -h, --help      Print this message

Arguments after `--` go to every criterion run (e.g. --save-baseline main).
For steadier numbers pin the run to one core: taskset -c 1 cargo xtask bench";

/// Per-bench criterion filters for `--quick`. The varint shoot-out is ~300
/// benchmarks: quick keeps encode and stream decode on an easy, a mid-size
/// and an unpredictable workload, and the other operations on the
/// unpredictable one. The io bench keeps its mixed workload.
const QUICK_FILTERS: &[(&str, &str)] = &[
    (
        "bijou",
        "^varint-(encode|decode)/.*/(tiny|medium)$|/mix-16$",
    ),
    ("io", "/mix-16$"),
];

/// A bench run a second time in another build configuration, with its own
/// target directory so neither build invalidates the other's cache.
struct Variant {
    bench: &'static str,
    /// Criterion filter: only the benchmarks the configuration changes.
    filter: &'static str,
    rustflags: &'static str,
    /// Subdirectory of the target directory for this build.
    target_subdir: &'static str,
    /// Appended to each function name so the two runs' results sit side by
    /// side in one table.
    suffix: &'static str,
}

/// The sha1 crate picks SHA-NI or another hardware backend at run time; its
/// `sha1_backend` cfg forces the portable one, which is the fair comparison
/// for a portable core.
const VARIANTS: &[Variant] = &[Variant {
    bench: "sha1",
    // The sha1 bench names this build's function `sha1 (soft)` itself.
    filter: r"/sha1( \(soft\))?/",
    rustflags: "--cfg sha1_backend=\"soft\"",
    target_subdir: "sha1-soft",
    suffix: " (soft)",
}];

/// Parsed command line.
#[derive(Debug, Default)]
struct Options {
    quick: bool,
    report: Option<PathBuf>,
    ladder: bool,
    benches: Vec<String>,
    filter: Option<String>,
    cdf: Option<PathBuf>,
    run: bool,
    extra: Vec<String>,
}

/// The command line; `None` after `--help`.
fn parse(args: &[OsString]) -> Result<Option<Options>, String> {
    let mut options = Options {
        run: true,
        ..Options::default()
    };
    let mut args = Args::new(args, USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Long("quick") => options.quick = true,
            Long("ladder") => options.ladder = true,
            Long("no-run") => options.run = false,
            Long("report") => options.report = Some(args.value("--report")?.into()),
            Long("bench") => push_once(&mut options.benches, args.value("--bench")?),
            Long("filter") => options.filter = Some(args.value("--filter")?),
            Long("cdf") => options.cdf = Some(args.value("--cdf")?.into()),
            other => return Err(unexpected(other, USAGE)),
        }
    }
    options.extra = args.rest()?;
    check_ladder(&options)?;
    check_cdf(&options)?;
    args.finish(options)
}

/// `--ladder` runs the ladder bench alone, so `--bench` may name only that
/// bench beside it: `--ladder --bench bijou` would otherwise run bijou and
/// print no ladder, saying nothing.
fn check_ladder(options: &Options) -> Result<(), String> {
    match options.benches.iter().find(|bench| *bench != SHA1_LADDER) {
        Some(other) if options.ladder => Err(format!(
            "`--ladder` conflicts with `--bench {other}`: it runs {SHA1_LADDER} alone\n\n{USAGE}"
        )),
        _ => Ok(()),
    }
}

/// `--cdf` is a run of its own: the only other option it takes is
/// `--quick`, so no option is silently ignored beside it.
fn check_cdf(options: &Options) -> Result<(), String> {
    let alone = options.report.is_none()
        && !options.ladder
        && options.benches.is_empty()
        && options.filter.is_none()
        && options.run
        && options.extra.is_empty();
    if options.cdf.is_some() && !alone {
        return Err(format!(
            "`--cdf` takes no other option than `--quick`\n\n{USAGE}"
        ));
    }
    Ok(())
}

/// How many batches the CDF times per decoder and workload.
fn cdf_batches(options: &Options) -> usize {
    if options.quick {
        cdf::QUICK_BATCHES
    } else {
        cdf::FULL_BATCHES
    }
}

/// `--cdf DIR`: builds the bijou bench, times its decoders batch by batch
/// and draws the chart into `dir`.
fn cdf_only(options: &Options, dir: &Path, root: &Path, benches: &Benches) -> Result<(), String> {
    let machine = report::Machine::detect(root);
    eprintln!("{}", machine.summary());
    let bench = cdf::BENCH.to_owned();
    let executables = criterion::build(root, std::slice::from_ref(&bench), None)?;
    let samples = cdf::samples_file(&benches.criterion_dir());
    std::fs::create_dir_all(benches.criterion_dir())
        .map_err(|e| format!("{}: {e}", benches.criterion_dir().display()))?;
    let batches = cdf_batches(options);
    cdf::sample(
        &executables[&bench],
        &benches.package_dir,
        &samples,
        batches,
    )?;
    draw_cdf(&samples, dir, machine.cpu())
}

/// Draws the samples in `samples` into `dir`'s chart, its title naming
/// `cpu`.
fn draw_cdf(samples: &Path, dir: &Path, cpu: &str) -> Result<(), String> {
    let text =
        std::fs::read_to_string(samples).map_err(|e| format!("{}: {e}", samples.display()))?;
    let series = cdf::parse(&text)?;
    let title = format!(
        "varint-decode: CDF of per-batch stream decode times ({} batches of 4096 values \
         per decoder and workload), {cpu}",
        series[0].times.len()
    );
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let chart = dir.join(cdf::CHART_FILE);
    cdf::draw(&series, &chart, &title)?;
    println!("decode-time CDF written to {}", chart.display());
    Ok(())
}

/// The results of one bench target, in criterion's run order.
#[derive(Debug)]
pub(crate) struct BenchResults {
    pub(crate) name: String,
    pub(crate) measurements: Vec<Measurement>,
    /// The interleaved tables each run of the bench printed, with the
    /// run's label.
    pub(crate) tables: Vec<(String, String)>,
}

/// The benches to run: those named with `--bench` (only the ladder, if
/// `--ladder` is given too), else the ladder alone for `--ladder`, else all
/// of them.
fn select(options: &Options, available: &[String]) -> Result<Vec<String>, String> {
    let wanted = if !options.benches.is_empty() {
        options.benches.clone()
    } else if options.ladder {
        vec![SHA1_LADDER.to_owned()]
    } else {
        return Ok(available.to_vec());
    };
    match wanted.iter().find(|b| !available.contains(b)) {
        Some(missing) => Err(format!(
            "no bench `{missing}` in {}; there are: {}",
            criterion::PACKAGE,
            available.join(", ")
        )),
        None => Ok(wanted),
    }
}

/// The [`VARIANTS`] to run with these options: those of a selected bench,
/// unless a user's `--filter` (written for the main build's names) is in
/// force or, with `--no-run`, the variant was never built.
fn variants(options: &Options, selected: &[String], target: &Path) -> Vec<&'static Variant> {
    VARIANTS
        .iter()
        .filter(|v| selected.iter().any(|b| b == v.bench) && options.filter.is_none())
        .filter(|v| options.run || target.join(v.target_subdir).join("criterion").is_dir())
        .collect()
}

pub(crate) fn main(args: &[OsString]) -> Result<(), String> {
    let Some(options) = parse(args)? else {
        return Ok(());
    };
    let root = testkit::workspace_root();
    let benches = Benches::find(&root)?;
    if let Some(dir) = &options.cdf {
        return cdf_only(&options, dir, &root, &benches);
    }
    let selected = select(&options, &benches.names)?;
    let machine = report::Machine::detect(&root);
    let started = report::utc_now();
    eprintln!("{}", machine.summary());

    let mut criterion_args: Vec<String> = Vec::new();
    if options.quick {
        criterion_args.extend(QUICK_ARGS.iter().map(|&a| a.to_owned()));
    }
    criterion_args.extend(options.extra.iter().cloned());

    let criterion_dir = benches.criterion_dir();
    let executables = criterion::build(&root, &selected, None)?;
    let mut runs: Vec<Run<'_>> = Vec::new();
    for bench in &selected {
        let quick_filter = QUICK_FILTERS
            .iter()
            .find(|(b, _)| options.quick && b == bench)
            .map(|(_, f)| *f);
        runs.push(Run {
            bench,
            label: bench.clone(),
            executable: executables[bench].clone(),
            package_dir: &benches.package_dir,
            filter: options.filter.as_deref().or(quick_filter),
            suffix: "",
            criterion_dir: criterion_dir.clone(),
        });
    }
    for variant in variants(&options, &selected, &benches.target) {
        let target = benches.target.join(variant.target_subdir);
        let bench = variant.bench.to_owned();
        let executable = criterion::build(&root, &[bench], Some((variant.rustflags, &target)))?;
        runs.push(Run {
            bench: variant.bench,
            label: format!("{} with RUSTFLAGS+='{}'", variant.bench, variant.rustflags),
            executable: executable[variant.bench].clone(),
            package_dir: &benches.package_dir,
            filter: Some(variant.filter),
            suffix: variant.suffix,
            criterion_dir: target.join("criterion"),
        });
    }

    let mut results: Vec<BenchResults> = selected
        .iter()
        .map(|name| BenchResults {
            name: name.clone(),
            measurements: Vec::new(),
            tables: Vec::new(),
        })
        .collect();
    for run in &runs {
        if options.run {
            run.run(&criterion_args)?;
        }
        let measurements = run.collect(&run.list()?)?;
        if let Some(results) = results.iter_mut().find(|r| r.name == run.bench) {
            results.measurements.extend(measurements);
            results
                .tables
                .extend(run.tables().map(|text| (run.label.clone(), text)));
        }
    }

    // With a report, the bijou bench's per-batch times for its CDF chart.
    let cdf_samples = cdf::samples_file(&criterion_dir);
    let with_cdf = options.report.is_some() && selected.iter().any(|b| b == cdf::BENCH);
    if with_cdf && options.run {
        let executable = &executables[cdf::BENCH];
        cdf::sample(
            executable,
            &benches.package_dir,
            &cdf_samples,
            cdf_batches(&options),
        )?;
    }
    let with_cdf = with_cdf && cdf_samples.is_file();

    print(&results);
    // Before the report: writing it replaces the old one (and its charts).
    if results.iter().all(|b| b.measurements.is_empty()) {
        return Err(
            "no criterion results found; the report, if asked for, was left as it was".to_owned(),
        );
    }
    if let Some(dir) = &options.report {
        let mode = match (options.run, options.quick) {
            (false, _) => "from the results criterion already held (`--no-run`)".to_owned(),
            (true, true) => format!(
                "a quick run: {} s warm-up, {} s measurement and 10 samples per \
                 benchmark, on fewer workloads (varints: tiny, medium and \
                 mix-16; io: mix-16)",
                QUICK_SECONDS.0, QUICK_SECONDS.1
            ),
            (true, false) => "a full run".to_owned(),
        };
        let cpu = machine.cpu().to_owned();
        let context = report::Context {
            date: started,
            command: command_line(args),
            mode,
            machine,
            cdf_chart: with_cdf.then_some(cdf::CHART_FILE),
        };
        report::write(dir, &results, &context)?;
        // After the report, which removes the charts the old one linked.
        if with_cdf {
            draw_cdf(&cdf_samples, dir, &cpu)?;
        }
        println!("\nreport written to {}", dir.join("index.md").display());
    }
    Ok(())
}

fn command_line(args: &[OsString]) -> String {
    let mut line = "cargo xtask bench".to_owned();
    for arg in args.iter().map(|arg| arg.to_string_lossy()) {
        line.push(' ');
        let plain = arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=".contains(c));
        if plain {
            line.push_str(&arg);
        } else {
            line.push_str(&format!("'{}'", arg.replace('\'', r"'\''")));
        }
    }
    line
}

/// Prints every group as a table and the ladder bench as a ladder.
fn print(results: &[BenchResults]) {
    for bench in results {
        for group in groups(&bench.measurements) {
            if is_ladder(&bench.name) {
                for (other, rows) in group.ladder() {
                    println!("\n{}: {} {other}", bench.name, group.name);
                    let header = group.ladder_header();
                    crate::table::print(
                        &header.iter().map(String::as_str).collect::<Vec<_>>(),
                        &rows,
                    );
                }
                continue;
            }
            let (header, rows) = group.table();
            println!(
                "\n{}: {} ({}, {}; ratios: how many times faster {} is)",
                bench.name,
                group.name,
                group.unit.label(),
                group.unit.better(),
                header[1]
            );
            crate::table::print(
                &header.iter().map(String::as_str).collect::<Vec<_>>(),
                &rows,
            );
            if let Some(note) = group.like_for_like_note() {
                println!("{note}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::args;

    #[test]
    fn parses_options() {
        let options = parse(&args(&[
            "--quick",
            "--report",
            "out",
            "--bench",
            "sha1",
            "--",
            "--save-baseline",
            "x",
        ]))
        .unwrap()
        .unwrap();
        assert!(options.quick && options.run && !options.ladder);
        assert_eq!(options.report, Some(PathBuf::from("out")));
        assert_eq!(options.benches, ["sha1"]);
        assert_eq!(options.extra, ["--save-baseline", "x"]);
        assert!(parse(&args(&["--report"])).is_err());
        assert!(parse(&args(&["--report", "--quick"])).is_err());
        assert!(parse(&args(&["--bogus"])).is_err());
        assert!(parse(&args(&["--help"])).unwrap().is_none());
        // The whole line is checked before help is given.
        assert!(parse(&args(&["--bogus", "--help"])).is_err());
        assert!(parse(&args(&["--help", "--report"])).is_err());
    }

    #[test]
    fn cdf_takes_only_quick() {
        let options = parse(&args(&["--cdf", "out", "--quick"])).unwrap().unwrap();
        assert_eq!(options.cdf, Some(PathBuf::from("out")));
        assert_eq!(cdf_batches(&options), cdf::QUICK_BATCHES);
        let options = parse(&args(&["--cdf", "out"])).unwrap().unwrap();
        assert_eq!(cdf_batches(&options), cdf::FULL_BATCHES);
        for line in [
            &["--cdf", "out", "--report", "r"][..],
            &["--cdf", "out", "--bench", "bijou"],
            &["--cdf", "out", "--ladder"],
            &["--cdf", "out", "--no-run"],
            &["--cdf", "out", "--filter", "x"],
            &["--cdf", "out", "--", "--save-baseline", "b"],
        ] {
            let error = parse(&args(line)).unwrap_err();
            assert!(
                error.contains("`--cdf` takes no other option"),
                "{line:?}: {error}"
            );
        }
    }

    #[test]
    fn a_repeated_bench_runs_once() {
        let line = [
            "--bench", "io", "--bench", "sha1", "--bench", "io", "--bench", "sha1",
        ];
        let options = parse(&args(&line)).unwrap().unwrap();
        assert_eq!(options.benches, ["io", "sha1"]);
    }

    #[test]
    fn ladder_conflicts_with_any_other_bench() {
        for line in [
            &["--ladder", "--bench", "bijou"][..],
            &["--bench", "bijou", "--ladder"],
            &["--ladder", "--bench", "sha1_ladder", "--bench", "sha1"],
        ] {
            let error = parse(&args(line)).unwrap_err();
            assert!(
                error.contains("`--ladder` conflicts with `--bench"),
                "{line:?}: {error}"
            );
        }
        for line in [
            &["--ladder"][..],
            &["--ladder", "--bench", "sha1_ladder"],
            &[
                "--ladder",
                "--bench",
                "sha1_ladder",
                "--bench",
                "sha1_ladder",
            ],
        ] {
            let options = parse(&args(line)).unwrap().unwrap();
            let available = ["bijou", "sha1", SHA1_LADDER].map(str::to_owned);
            assert_eq!(
                select(&options, &available),
                Ok(vec![SHA1_LADDER.to_owned()])
            );
        }
    }
}
