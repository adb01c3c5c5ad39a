//! `cargo xtask bench`: runs the criterion shoot-outs in `benches/`, reads
//! criterion's JSON back and prints one table per group, the SHA-1
//! optimisation ladder and, with `--report`, a markdown report with SVG
//! charts.

pub(crate) mod json;
pub(crate) mod ladder;
mod report;
mod svg;

use json::Json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::{option_value, parse_or_help, push_once};

pub(crate) const USAGE: &str = "\
Usage: cargo xtask bench [--quick] [--report DIR] [--ladder] [OPTIONS] [-- CRITERION_ARGS...]

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
                  (the kept report lives in docs/bench)
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

/// The package whose `[[bench]]` targets are the shoot-outs.
const PACKAGE: &str = "bijou-benches";

/// The bench that `--ladder` runs.
const LADDER: &str = "sha1_ladder";

/// Whether `bench`'s groups are printed as an optimisation ladder: each
/// step against the first and the one before, not as peers of a subject.
fn is_ladder(bench: &str) -> bool {
    bench == LADDER || bench == ladder::BLOWFISH_BENCH
}

/// `--quick`'s warm-up and measurement seconds per benchmark: with
/// criterion's fixed overhead about 1 s each, ~120 benchmarks in 2 minutes.
const QUICK_SECONDS: (&str, &str) = ("0.3", "0.7");

/// Criterion flags for `--quick`: short runs, cheap statistics, no plots.
const QUICK_ARGS: &[&str] = &[
    "--warm-up-time",
    QUICK_SECONDS.0,
    "--measurement-time",
    QUICK_SECONDS.1,
    "--sample-size",
    "10",
    "--nresamples",
    "10000",
    "--noplot",
];

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
    run: bool,
    extra: Vec<String>,
}

/// The command line; `None` after `--help`.
fn parse(args: &[String]) -> Result<Option<Options>, String> {
    parse_or_help(args, USAGE, parse_options)
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        run: true,
        ..Options::default()
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| option_value(&mut args, name, USAGE).map(str::to_owned);
        match arg.as_str() {
            "--quick" => options.quick = true,
            "--ladder" => options.ladder = true,
            "--no-run" => options.run = false,
            "--report" => options.report = Some(PathBuf::from(value(arg)?)),
            "--bench" => push_once(&mut options.benches, value(arg)?),
            "--filter" => options.filter = Some(value(arg)?),
            "--" => {
                options.extra = args.cloned().collect();
                break;
            }
            other => return Err(format!("unknown option `{other}`\n\n{USAGE}")),
        }
    }
    check_ladder(&options)?;
    Ok(options)
}

/// `--ladder` runs the ladder bench alone, so `--bench` may name only that
/// bench beside it: `--ladder --bench bijou` would otherwise run bijou and
/// print no ladder, saying nothing.
fn check_ladder(options: &Options) -> Result<(), String> {
    match options.benches.iter().find(|bench| *bench != LADDER) {
        Some(other) if options.ladder => Err(format!(
            "`--ladder` conflicts with `--bench {other}`: it runs {LADDER} alone\n\n{USAGE}"
        )),
        _ => Ok(()),
    }
}

/// What a benchmark's throughput counts per iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Throughput {
    Elements(f64),
    Bytes(f64),
}

/// One benchmark's result: criterion's median time per iteration.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Measurement {
    pub(crate) group: String,
    /// Empty when the benchmark has no function name.
    pub(crate) function: String,
    /// Empty when the benchmark has no parameter.
    pub(crate) param: String,
    pub(crate) median_ns: f64,
    pub(crate) throughput: Option<Throughput>,
}

/// How a group's numbers are shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Unit {
    NsPerValue,
    MegabytesPerSecond,
    Nanoseconds,
}

impl Unit {
    pub(crate) fn of(throughput: Option<Throughput>) -> Unit {
        match throughput {
            Some(Throughput::Elements(_)) => Unit::NsPerValue,
            Some(Throughput::Bytes(_)) => Unit::MegabytesPerSecond,
            None => Unit::Nanoseconds,
        }
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            Unit::NsPerValue => "ns/value",
            Unit::MegabytesPerSecond => "MB/s",
            Unit::Nanoseconds => "ns",
        }
    }

    pub(crate) fn better(self) -> &'static str {
        match self {
            Unit::MegabytesPerSecond => "higher is better",
            _ => "lower is better",
        }
    }
}

impl Measurement {
    /// The number shown for this result in `unit`'s terms.
    pub(crate) fn shown(&self) -> f64 {
        match self.throughput {
            Some(Throughput::Elements(n)) => self.median_ns / n,
            // bytes per ns × 1000 = MB/s (10^6 bytes).
            Some(Throughput::Bytes(n)) => n / self.median_ns * 1e3,
            None => self.median_ns,
        }
    }
}

/// Formats a shown number with three significant digits or so.
pub(crate) fn format_number(x: f64) -> String {
    match x.abs() {
        a if a >= 1000.0 => format!("{x:.0}"),
        a if a >= 100.0 => format!("{x:.1}"),
        a if a >= 10.0 => format!("{x:.2}"),
        _ => format!("{x:.3}"),
    }
}

/// A time in ns, in the unit that keeps it readable.
pub(crate) fn format_time(ns: f64) -> String {
    match ns {
        ns if ns >= 1e9 => format!("{:.2} s", ns / 1e9),
        ns if ns >= 1e6 => format!("{:.2} ms", ns / 1e6),
        ns if ns >= 1e3 => format!("{:.2} µs", ns / 1e3),
        ns => format!("{ns:.1} ns"),
    }
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

/// One criterion group: functions are columns, parameters rows. The first
/// function is the subject every other one is compared with.
#[derive(Debug)]
pub(crate) struct Group<'a> {
    pub(crate) name: &'a str,
    pub(crate) unit: Unit,
    pub(crate) functions: Vec<&'a str>,
    pub(crate) params: Vec<&'a str>,
    cells: HashMap<(&'a str, &'a str), &'a Measurement>,
}

/// Splits measurements into groups, keeping first-seen order throughout.
pub(crate) fn groups(measurements: &[Measurement]) -> Vec<Group<'_>> {
    let mut groups: Vec<Group<'_>> = Vec::new();
    for m in measurements {
        let index = match groups.iter().position(|g| g.name == m.group) {
            Some(index) => index,
            None => {
                groups.push(Group {
                    name: &m.group,
                    unit: Unit::of(m.throughput),
                    functions: Vec::new(),
                    params: Vec::new(),
                    cells: HashMap::new(),
                });
                groups.len() - 1
            }
        };
        let group = &mut groups[index];
        if !group.functions.contains(&m.function.as_str()) {
            group.functions.push(&m.function);
        }
        if !group.params.contains(&m.param.as_str()) {
            group.params.push(&m.param);
        }
        group.cells.insert((&m.function, &m.param), m);
    }
    groups
}

impl<'a> Group<'a> {
    pub(crate) fn get(&self, function: &str, param: &str) -> Option<&'a Measurement> {
        self.cells.get(&(function, param)).copied()
    }

    /// The function `function` is compared with: the subject, except that
    /// a peer named `crate/setting` (`prost/Bytes`) is compared with the
    /// subject's crate on the same setting (`bijou-io/Bytes`) where the
    /// group has it, so a buffer or reader type is never priced as the
    /// peer's. The subject's own other settings are compared with the
    /// subject (what `Bytes` costs over a slice).
    pub(crate) fn baseline(&self, function: &str) -> &'a str {
        let subject = self.functions[0];
        let like_for_like = subject
            .split_once('/')
            .zip(function.split_once('/'))
            .filter(|((ours, _), (theirs, _))| ours != theirs)
            .and_then(|((ours, _), (_, setting))| {
                self.functions
                    .iter()
                    .find(|f| f.split_once('/') == Some((ours, setting)))
            });
        like_for_like.copied().unwrap_or(subject)
    }

    /// How many times faster `function`'s baseline (see
    /// [`Group::baseline`]) is than `function` on `param`.
    pub(crate) fn ratio(&self, function: &str, param: &str) -> Option<f64> {
        let baseline = self.get(self.baseline(function), param)?;
        Some(self.get(function, param)?.median_ns / baseline.median_ns)
    }

    /// The peers compared with something other than the subject, each with
    /// its baseline.
    pub(crate) fn like_for_like(&self) -> Vec<(&'a str, &'a str)> {
        self.functions[1..]
            .iter()
            .map(|&f| (f, self.baseline(f)))
            .filter(|&(_, baseline)| baseline != self.functions[0])
            .collect()
    }

    /// A sentence naming the peers compared with something other than the
    /// subject, for under the group's table; `None` when there are none.
    pub(crate) fn like_for_like_note(&self) -> Option<String> {
        let pairs = self.like_for_like();
        (!pairs.is_empty()).then(|| {
            let pairs: Vec<String> = pairs
                .iter()
                .map(|(peer, baseline)| format!("{peer} with {baseline}"))
                .collect();
            format!(
                "Peers are compared on the same setting: {}; the rest with {}.",
                pairs.join(", "),
                self.functions[0]
            )
        })
    }

    /// The subject's speed-up over `function`: the geometric mean of the
    /// per-parameter ratios, so no single input dominates.
    pub(crate) fn mean_ratio(&self, function: &str) -> Option<f64> {
        let logs: Vec<f64> = self
            .params
            .iter()
            .filter_map(|p| self.ratio(function, p))
            .map(f64::ln)
            .collect();
        (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp())
    }

    fn column_name(&self, function: &'a str) -> &'a str {
        if function.is_empty() {
            self.name
        } else {
            function
        }
    }

    /// Header and rows: each parameter's number for the subject, then
    /// `number (ratio×)` for every other function.
    pub(crate) fn table(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let mut header = vec!["input".to_owned()];
        header.extend(
            self.functions
                .iter()
                .map(|f| self.column_name(f).to_owned()),
        );
        let rows = self
            .params
            .iter()
            .map(|&param| {
                let mut row = vec![if param.is_empty() { "-" } else { param }.to_owned()];
                for (i, &function) in self.functions.iter().enumerate() {
                    let cell = match (self.get(function, param), self.ratio(function, param)) {
                        (None, _) => "-".to_owned(),
                        (Some(m), Some(r)) if i > 0 => {
                            format!("{} ({r:.2}×)", format_number(m.shown()))
                        }
                        (Some(m), _) => format_number(m.shown()),
                    };
                    row.push(cell);
                }
                row
            })
            .collect();
        (header, rows)
    }

    /// Whether a ladder's steps are the functions (else the parameters).
    fn steps_are_functions(&self) -> bool {
        self.functions.len() > 1 || self.params.len() == 1
    }

    /// The ladder view: the functions are successive steps (or, when there
    /// is only one function, the parameters are), each with its time and
    /// speed-up over the first step and over the one before. One table per
    /// value of the other axis.
    pub(crate) fn ladder(&self) -> Vec<(String, Vec<Vec<String>>)> {
        let steps_are_functions = self.steps_are_functions();
        let (steps, others) = if steps_are_functions {
            (&self.functions, &self.params)
        } else {
            (&self.params, &self.functions)
        };
        let cell = |step: &str, other: &str| {
            let (f, p) = if steps_are_functions {
                (step, other)
            } else {
                (other, step)
            };
            self.get(f, p)
        };
        others
            .iter()
            .map(|&other| {
                let mut rows = Vec::new();
                let first = cell(steps[0], other);
                let mut previous = None;
                for &step in steps {
                    let Some(m) = cell(step, other) else { continue };
                    let speedup = |base: Option<&Measurement>| {
                        base.map_or("-".to_owned(), |b| {
                            format!("{:.2}×", b.median_ns / m.median_ns)
                        })
                    };
                    let mut row = vec![step.to_owned(), format_time(m.median_ns)];
                    if self.unit != Unit::Nanoseconds {
                        row.push(format_number(m.shown()));
                    }
                    row.push(speedup(first));
                    row.push(speedup(previous));
                    rows.push(row);
                    previous = Some(m);
                }
                (other.to_owned(), rows)
            })
            .collect()
    }

    pub(crate) fn ladder_header(&self) -> Vec<String> {
        let mut header = vec!["step".to_owned(), "time".to_owned()];
        if self.unit != Unit::Nanoseconds {
            header.push(self.unit.label().to_owned());
        }
        let first = if self.steps_are_functions() {
            self.functions[0]
        } else {
            self.params[0]
        };
        header.extend([format!("vs {first}"), "vs previous".to_owned()]);
        header
    }

    pub(crate) fn chart(&self) -> svg::Chart {
        svg::Chart {
            title: self.name.to_owned(),
            axis: format!("{} ({})", self.unit.label(), self.unit.better()),
            series: self
                .functions
                .iter()
                .map(|f| self.column_name(f).to_owned())
                .collect(),
            categories: self
                .params
                .iter()
                .map(|&p| {
                    let values = self
                        .functions
                        .iter()
                        .map(|&f| self.get(f, p).map(Measurement::shown));
                    (
                        if p.is_empty() { "-" } else { p }.to_owned(),
                        values.collect(),
                    )
                })
                .collect(),
        }
    }
}

fn cargo(root: &Path) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(root);
    command
}

/// What `cargo metadata` says about the workspace.
struct Metadata {
    /// Where cargo builds and, by default, criterion writes.
    target: PathBuf,
    /// [`PACKAGE`]'s directory: cargo runs benches from there.
    package_dir: PathBuf,
    /// [`PACKAGE`]'s `[[bench]]` targets, sorted.
    benches: Vec<String>,
}

impl Metadata {
    /// Where criterion keeps its results: it honours CRITERION_HOME before
    /// the target directory.
    fn criterion_dir(&self) -> PathBuf {
        std::env::var_os("CRITERION_HOME")
            .map_or_else(|| self.target.join("criterion"), PathBuf::from)
    }
}

fn metadata(root: &Path) -> Result<Metadata, String> {
    let metadata = crate::cargo_metadata(root)?;
    let target = metadata
        .get("target_directory")
        .and_then(Json::as_str)
        .ok_or("cargo metadata: no target_directory")?;
    let package = metadata
        .get("packages")
        .map(Json::as_array)
        .unwrap_or_default()
        .iter()
        .find(|p| p.get("name").and_then(Json::as_str) == Some(PACKAGE))
        .ok_or_else(|| format!("no {PACKAGE} package in the workspace"))?;
    let package_dir = package
        .get("manifest_path")
        .and_then(Json::as_str)
        .and_then(|m| Path::new(m).parent())
        .ok_or("cargo metadata: no manifest_path")?;
    let mut benches: Vec<String> = package
        .get("targets")
        .map(Json::as_array)
        .unwrap_or_default()
        .iter()
        .filter(|t| is_bench(t))
        .filter_map(|t| t.get("name").and_then(Json::as_str).map(str::to_owned))
        .collect();
    benches.sort();
    Ok(Metadata {
        target: PathBuf::from(target),
        package_dir: package_dir.to_path_buf(),
        benches,
    })
}

/// Whether a cargo target (metadata or build message) is a `[[bench]]`.
fn is_bench(target: &Json) -> bool {
    let kinds = target.get("kind").map(Json::as_array).unwrap_or_default();
    kinds.iter().any(|k| k.as_str() == Some("bench"))
}

/// Builds `benches` (`cargo bench --no-run`), optionally with extra
/// RUSTFLAGS into another target directory, and returns each bench's
/// executable. Running these binaries directly, rather than through
/// `cargo bench` per run, measures exactly what was built even if the tree
/// changes mid-run, and a compile error stops everything before measuring.
fn build(
    root: &Path,
    benches: &[String],
    variant: Option<(&str, &Path)>,
) -> Result<HashMap<String, PathBuf>, String> {
    let mut command = cargo(root);
    command.args(["bench", "--package", PACKAGE, "--no-run"]);
    command.arg("--message-format=json-render-diagnostics");
    for bench in benches {
        command.args(["--bench", bench]);
    }
    if let Some((rustflags, target)) = variant {
        crate::add_rustflags(&mut command, rustflags);
        command.env("CARGO_TARGET_DIR", target);
    }
    let output = command
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("running cargo bench --no-run: {e}"))?;
    if !output.status.success() {
        return Err("building the benches failed".to_owned());
    }
    let mut executables = HashMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = Json::parse(line) else {
            continue;
        };
        let Some(target) = message.get("target").filter(|t| is_bench(t)) else {
            continue;
        };
        let name = target.get("name").and_then(Json::as_str);
        let executable = message.get("executable").and_then(Json::as_str);
        if let (Some(name), Some(executable)) = (name, executable) {
            executables.insert(name.to_owned(), PathBuf::from(executable));
        }
    }
    match benches.iter().find(|b| !executables.contains_key(*b)) {
        Some(missing) => Err(format!("cargo built no executable for bench {missing}")),
        None => Ok(executables),
    }
}

/// One run of a bench executable.
struct Run<'a> {
    bench: &'a str,
    label: String,
    executable: PathBuf,
    /// The directory cargo would run the bench from.
    package_dir: &'a Path,
    filter: Option<&'a str>,
    /// Appended to function names that lack it (see [`Variant::suffix`]).
    suffix: &'a str,
    criterion_dir: PathBuf,
}

/// What `bijou_benches::TABLES_VAR` is called: the file a bench appends
/// its interleaved tables to.
const TABLES_VAR: &str = "BIJOU_BENCH_TABLES";

impl Run<'_> {
    fn command(&self) -> Command {
        let mut command = Command::new(&self.executable);
        // `--bench` is what `cargo bench` passes: measure, don't test.
        command
            .arg("--bench")
            .current_dir(self.package_dir)
            .env("CRITERION_HOME", &self.criterion_dir);
        command
    }

    /// Where the bench's interleaved tables go: next to criterion's
    /// results, so `--no-run` can report them too.
    fn tables_file(&self) -> PathBuf {
        self.criterion_dir
            .join(format!("interleaved-{}.md", self.bench))
    }

    /// The interleaved tables the last measuring run printed, if any.
    fn tables(&self) -> Option<String> {
        std::fs::read_to_string(self.tables_file())
            .ok()
            .filter(|text| !text.trim().is_empty())
    }

    /// Runs the benchmarks, criterion's output going to the terminal and
    /// the bench's interleaved tables also to [`Run::tables_file`].
    fn run(&self, criterion_args: &[String]) -> Result<(), String> {
        eprintln!("\n=== {} ===", self.label);
        let tables = self.tables_file();
        // A bench appends; start from nothing so no earlier run's tables stay.
        match std::fs::remove_file(&tables) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(format!("{}: {e}", tables.display()));
            }
            _ => {}
        }
        std::fs::create_dir_all(&self.criterion_dir)
            .map_err(|e| format!("{}: {e}", self.criterion_dir.display()))?;
        let status = self
            .command()
            .env(TABLES_VAR, &tables)
            .args(criterion_args)
            .args(self.filter)
            .status()
            .map_err(|e| format!("running {}: {e}", self.executable.display()))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("bench {} failed ({status})", self.label))
        }
    }

    /// The ids of the benchmarks this run covers, in run order (criterion's
    /// `--list`).
    fn list(&self) -> Result<Vec<String>, String> {
        let output = self
            .command()
            .arg("--list")
            .args(self.filter)
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("running {}: {e}", self.executable.display()))?;
        if !output.status.success() {
            return Err(format!("listing {} failed", self.label));
        }
        Ok(String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| line.strip_suffix(": benchmark"))
            .map(str::to_owned)
            .collect())
    }

    /// Criterion's medians for `ids`, renamed with the run's suffix. Ids
    /// criterion holds no result for (never run) are skipped.
    fn collect(&self, ids: &[String]) -> Result<Vec<Measurement>, String> {
        let index = index_results(&self.criterion_dir)?;
        let mut measurements = Vec::new();
        let mut missing = 0;
        for id in ids {
            let Some(dir) = index.get(id) else {
                missing += 1;
                continue;
            };
            let mut m = read_measurement(dir)?;
            if !self.suffix.is_empty() && !m.function.ends_with(self.suffix) {
                m.function.push_str(self.suffix);
            }
            measurements.push(m);
        }
        if missing > 0 {
            eprintln!(
                "note: {missing} of the {} benchmarks of {} have no criterion result yet",
                ids.len(),
                self.label
            );
        }
        Ok(measurements)
    }
}

fn read_json(path: &Path) -> Result<Json, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Json::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Maps each benchmark id to its `…/new` directory by reading every
/// `new/benchmark.json` under `criterion_dir` (criterion's directory names
/// are sanitised and de-duplicated, so they cannot be derived from ids).
fn index_results(criterion_dir: &Path) -> Result<HashMap<String, PathBuf>, String> {
    let mut index = HashMap::new();
    let mut pending = vec![criterion_dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if !path.is_dir() || name == "report" || name == "base" || name == "change" {
                continue;
            }
            let file = path.join("benchmark.json");
            if name == "new" && file.is_file() {
                if let Some(id) = read_json(&file)?.get("full_id").and_then(Json::as_str) {
                    index.insert(id.to_owned(), path);
                }
            } else {
                pending.push(path);
            }
        }
    }
    Ok(index)
}

/// One result from its `new/benchmark.json` and `new/estimates.json`.
fn read_measurement(dir: &Path) -> Result<Measurement, String> {
    let benchmark = read_json(&dir.join("benchmark.json"))?;
    let estimates = read_json(&dir.join("estimates.json"))?;
    let text = |key: &str| {
        benchmark
            .get(key)
            .and_then(Json::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let median_ns = estimates
        .get("median")
        .and_then(|m| m.get("point_estimate"))
        .and_then(Json::as_f64)
        .ok_or_else(|| format!("{}: no median", dir.display()))?;
    let throughput = benchmark.get("throughput").and_then(|t| {
        let count = |key| t.get(key).and_then(Json::as_f64);
        // Criterion's decimal-bytes variant is still a byte count.
        match (count("Elements"), count("Bytes").or(count("BytesDecimal"))) {
            (Some(n), _) => Some(Throughput::Elements(n)),
            (_, Some(n)) => Some(Throughput::Bytes(n)),
            _ => None,
        }
    });
    Ok(Measurement {
        group: text("group_id"),
        function: text("function_id"),
        param: text("value_str"),
        median_ns,
        throughput,
    })
}

/// The benches to run: those named with `--bench` (only the ladder, if
/// `--ladder` is given too), else the ladder alone for `--ladder`, else all
/// of them.
fn select(options: &Options, available: &[String]) -> Result<Vec<String>, String> {
    let wanted = if !options.benches.is_empty() {
        options.benches.clone()
    } else if options.ladder {
        vec![LADDER.to_owned()]
    } else {
        return Ok(available.to_vec());
    };
    match wanted.iter().find(|b| !available.contains(b)) {
        Some(missing) => Err(format!(
            "no bench `{missing}` in {PACKAGE}; there are: {}",
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

pub(crate) fn main(args: &[String]) -> Result<(), String> {
    let Some(options) = parse(args)? else {
        return Ok(());
    };
    let root = testkit::workspace_root();
    let meta = metadata(&root)?;
    let selected = select(&options, &meta.benches)?;
    let machine = report::Machine::detect(&root);
    let started = report::utc_now();
    eprintln!("{}", machine.summary());

    let mut criterion_args: Vec<String> = Vec::new();
    if options.quick {
        criterion_args.extend(QUICK_ARGS.iter().map(|&a| a.to_owned()));
    }
    criterion_args.extend(options.extra.iter().cloned());

    let criterion_dir = meta.criterion_dir();
    let executables = build(&root, &selected, None)?;
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
            package_dir: &meta.package_dir,
            filter: options.filter.as_deref().or(quick_filter),
            suffix: "",
            criterion_dir: criterion_dir.clone(),
        });
    }
    for variant in variants(&options, &selected, &meta.target) {
        let target = meta.target.join(variant.target_subdir);
        let bench = variant.bench.to_owned();
        let executable = build(&root, &[bench], Some((variant.rustflags, &target)))?;
        runs.push(Run {
            bench: variant.bench,
            label: format!("{} with RUSTFLAGS+='{}'", variant.bench, variant.rustflags),
            executable: executable[variant.bench].clone(),
            package_dir: &meta.package_dir,
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
        let context = report::Context {
            date: started,
            command: command_line(args),
            mode,
            machine,
        };
        report::write(dir, &results, &context)?;
        println!("\nreport written to {}", dir.join("index.md").display());
    }
    Ok(())
}

fn command_line(args: &[String]) -> String {
    let mut line = "cargo xtask bench".to_owned();
    for arg in args {
        line.push(' ');
        let plain = arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=".contains(c));
        if plain {
            line.push_str(arg);
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
    use crate::args;

    fn m(group: &str, function: &str, param: &str, median_ns: f64) -> Measurement {
        Measurement {
            group: group.into(),
            function: function.into(),
            param: param.into(),
            median_ns,
            throughput: Some(Throughput::Elements(4.0)),
        }
    }

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
            let available = args(&["bijou", "sha1", LADDER]);
            assert_eq!(select(&options, &available), Ok(vec![LADDER.to_owned()]));
        }
    }

    #[test]
    fn groups_tables_and_ratios() {
        let results = [
            m("enc", "us", "tiny", 4.0),
            m("enc", "them", "tiny", 8.0),
            m("enc", "us", "large", 40.0),
            m("enc", "them", "large", 20.0),
            m("dec", "us", "tiny", 1.0),
        ];
        let groups = groups(&results);
        assert_eq!(groups.len(), 2);
        let enc = &groups[0];
        assert_eq!(enc.functions, ["us", "them"]);
        assert_eq!(enc.params, ["tiny", "large"]);
        assert_eq!(enc.ratio("them", "tiny"), Some(2.0));
        assert!((enc.mean_ratio("them").unwrap() - 1.0).abs() < 1e-12);
        let (header, rows) = enc.table();
        assert_eq!(header, ["input", "us", "them"]);
        assert_eq!(rows[0], ["tiny", "1.000", "2.000 (2.00×)"]);
        assert_eq!(rows[1], ["large", "10.00", "5.000 (0.50×)"]);
        assert!(enc.like_for_like().is_empty());

        // A peer measured on only some inputs: its mean is over those.
        let results = [
            m("mix", "us", "tiny", 1.0),
            m("mix", "us", "large", 1.0),
            m("mix", "them", "tiny", 4.0),
        ];
        let mix = &super::groups(&results)[0];
        assert!((mix.mean_ratio("them").unwrap() - 4.0).abs() < 1e-12);
        assert_eq!(mix.mean_ratio("nobody"), None);
    }

    #[test]
    fn peers_are_compared_on_the_same_setting() {
        let times = [
            ("ours/slice", 1.0),
            ("theirs/slice", 3.0),
            ("ours/Bytes", 2.0),
            ("theirs/Bytes", 3.0),
            ("theirs/Cursor", 4.0),
            ("plain", 5.0),
        ];
        let results = times.map(|(function, ns)| m("io", function, "mix", ns));
        let io = &groups(&results)[0];
        assert_eq!(io.baseline("theirs/slice"), "ours/slice");
        assert_eq!(io.baseline("theirs/Bytes"), "ours/Bytes");
        // No `ours/Cursor`, and our own settings: the subject.
        assert_eq!(io.baseline("theirs/Cursor"), "ours/slice");
        assert_eq!(io.baseline("ours/Bytes"), "ours/slice");
        assert_eq!(io.baseline("plain"), "ours/slice");
        assert_eq!(io.ratio("theirs/Bytes", "mix"), Some(1.5));
        assert_eq!(io.ratio("ours/Bytes", "mix"), Some(2.0));
        assert_eq!(io.like_for_like(), [("theirs/Bytes", "ours/Bytes")]);
        assert_eq!(
            io.like_for_like_note().unwrap(),
            "Peers are compared on the same setting: theirs/Bytes with ours/Bytes; the rest with ours/slice."
        );
        let (_, rows) = io.table();
        assert_eq!(rows[0][4], "0.750 (1.50×)"); // ns per value of 4
    }

    #[test]
    fn ladder_compares_with_first_and_previous_step() {
        let results = [
            m("ladder", "reference", "64", 100.0),
            m("ladder", "step 2", "64", 50.0),
            m("ladder", "step 3", "64", 25.0),
        ];
        let groups = groups(&results);
        let ladder = groups[0].ladder();
        assert_eq!(ladder.len(), 1);
        let (param, rows) = &ladder[0];
        assert_eq!(param, "64");
        assert_eq!(rows[2][0], "step 3");
        assert_eq!(rows[0][3..], ["1.00×", "-"]);
        assert_eq!(rows[2][3..], ["4.00×", "2.00×"]);

        // One function over several inputs: the inputs are the steps.
        let results = [
            m("ladder", "core", "step 1", 100.0),
            m("ladder", "core", "step 2", 25.0),
        ];
        let ladder = super::groups(&results)[0].ladder();
        assert_eq!(ladder.len(), 1);
        let (_, rows) = &ladder[0];
        assert_eq!(rows[1][0], "step 2");
        assert_eq!(rows[1][3..], ["4.00×", "4.00×"]);
    }

    #[test]
    fn shown_units() {
        let mut x = m("g", "f", "p", 2000.0);
        assert_eq!(x.shown(), 500.0);
        x.throughput = Some(Throughput::Bytes(1000.0));
        assert_eq!(x.shown(), 500.0); // 1000 B in 2 µs = 500 MB/s
        x.throughput = None;
        assert_eq!(x.shown(), 2000.0);
        assert_eq!(Unit::MegabytesPerSecond.better(), "higher is better");
        assert_eq!(Unit::NsPerValue.better(), "lower is better");
        assert_eq!(Unit::Nanoseconds.better(), "lower is better");
    }

    #[test]
    fn reads_criterion_output() {
        let dir = std::env::temp_dir().join(format!("xtask-bench-test-{}", std::process::id()));
        let new = dir.join("g/f/p/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(
            new.join("benchmark.json"),
            r#"{"group_id":"g","function_id":"f","value_str":"p","throughput":{"Bytes":64},"full_id":"g/f/p"}"#,
        )
        .unwrap();
        std::fs::write(
            new.join("estimates.json"),
            r#"{"median":{"point_estimate":32.0}}"#,
        )
        .unwrap();
        let run = Run {
            bench: "b",
            label: "b".into(),
            executable: PathBuf::new(),
            package_dir: &dir,
            filter: None,
            suffix: " (soft)",
            criterion_dir: dir.clone(),
        };
        let found = run
            .collect(&["g/f/p".to_owned(), "g/f/missing".to_owned()])
            .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].function, "f (soft)");
        assert_eq!(found[0].throughput, Some(Throughput::Bytes(64.0)));
        assert_eq!(found[0].shown(), 2000.0);
    }
}
