//! Criterion as the `bench` and `ladder` commands drive it: the
//! `bijou-benches` package's bench executables, built once and run
//! directly, their benchmark ids (`--list`) and the medians criterion
//! writes (`new/benchmark.json`, `new/estimates.json`).

use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The package whose `[[bench]]` targets are the shoot-outs.
pub(crate) const PACKAGE: &str = "bijou-benches";

/// The benches whose groups are optimisation ladders: each step set
/// against the first and the one before, not peers against a subject.
pub(crate) const SHA1_LADDER: &str = "sha1_ladder";
pub(crate) const BLOWFISH_LADDER: &str = "blowfish_ladder";

pub(crate) fn is_ladder(bench: &str) -> bool {
    bench == SHA1_LADDER || bench == BLOWFISH_LADDER
}

/// `--quick`'s warm-up and measurement seconds per benchmark: with
/// criterion's fixed overhead about 1 s each, ~120 benchmarks in 2 minutes.
pub(crate) const QUICK_SECONDS: (&str, &str) = ("0.3", "0.7");

/// Criterion flags for quick runs: short runs, cheap statistics, no plots.
pub(crate) const QUICK_ARGS: &[&str] = &[
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

/// The bench package as `cargo metadata` describes it.
pub(crate) struct Benches {
    /// Where cargo builds and, by default, criterion writes.
    pub(crate) target: PathBuf,
    /// [`PACKAGE`]'s directory: cargo runs benches from there.
    pub(crate) package_dir: PathBuf,
    /// [`PACKAGE`]'s `[[bench]]` targets, sorted.
    pub(crate) names: Vec<String>,
}

impl Benches {
    pub(crate) fn find(root: &Path) -> Result<Benches, String> {
        let metadata = crate::cargo::metadata(root)?;
        let package = metadata
            .packages
            .into_iter()
            .find(|p| p.name == PACKAGE)
            .ok_or_else(|| format!("no {PACKAGE} package in the workspace"))?;
        let package_dir = package
            .manifest_path
            .parent()
            .ok_or("cargo metadata: a manifest_path without a directory")?
            .to_path_buf();
        let mut names: Vec<String> = package
            .targets
            .into_iter()
            .filter(|t| t.is_bench())
            .map(|t| t.name)
            .collect();
        names.sort();
        Ok(Benches {
            target: metadata.target_directory,
            package_dir,
            names,
        })
    }

    /// Where criterion keeps its results: it honours CRITERION_HOME before
    /// the target directory.
    pub(crate) fn criterion_dir(&self) -> PathBuf {
        std::env::var_os("CRITERION_HOME")
            .map_or_else(|| self.target.join("criterion"), PathBuf::from)
    }
}

/// Builds `benches` (`cargo bench --no-run`), optionally with extra
/// RUSTFLAGS into another target directory, and returns each bench's
/// executable. Running these binaries directly, rather than through
/// `cargo bench` per run, measures exactly what was built even if the tree
/// changes mid-run, and a compile error stops everything before measuring.
pub(crate) fn build(
    root: &Path,
    benches: &[String],
    variant: Option<(&str, &Path)>,
) -> Result<HashMap<String, PathBuf>, String> {
    let mut command = crate::cargo::command(root);
    command.args(["bench", "--package", PACKAGE, "--no-run"]);
    command.arg("--message-format=json-render-diagnostics");
    for bench in benches {
        command.args(["--bench", bench]);
    }
    if let Some((rustflags, target)) = variant {
        crate::process::add_rustflags(&mut command, rustflags);
        command.env("CARGO_TARGET_DIR", target);
    }
    let output = command
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("running cargo bench --no-run: {e}"))?;
    if !output.status.success() {
        return Err("building the benches failed".to_owned());
    }
    let executables: HashMap<String, PathBuf> = crate::cargo::artifacts(&output.stdout)
        .filter(|artifact| artifact.target.is_bench())
        .filter_map(|artifact| Some((artifact.target.name, artifact.executable?)))
        .collect();
    match benches.iter().find(|b| !executables.contains_key(*b)) {
        Some(missing) => Err(format!("cargo built no executable for bench {missing}")),
        None => Ok(executables),
    }
}

/// One run of a bench executable.
pub(crate) struct Run<'a> {
    pub(crate) bench: &'a str,
    pub(crate) label: String,
    pub(crate) executable: PathBuf,
    /// The directory cargo would run the bench from.
    pub(crate) package_dir: &'a Path,
    pub(crate) filter: Option<&'a str>,
    /// Appended to function names that lack it: a second build's results
    /// then sit beside the first's in one table.
    pub(crate) suffix: &'a str,
    pub(crate) criterion_dir: PathBuf,
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
    pub(crate) fn tables(&self) -> Option<String> {
        std::fs::read_to_string(self.tables_file())
            .ok()
            .filter(|text| !text.trim().is_empty())
    }

    /// Runs the benchmarks, criterion's output going to the terminal and
    /// the bench's interleaved tables also to [`Run::tables_file`].
    pub(crate) fn run(&self, criterion_args: &[String]) -> Result<(), String> {
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
    pub(crate) fn list(&self) -> Result<Vec<String>, String> {
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
    pub(crate) fn collect(&self, ids: &[String]) -> Result<Vec<Measurement>, String> {
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

/// Criterion's `new/benchmark.json`: what a result is of.
#[derive(Deserialize)]
struct BenchmarkFile {
    group_id: String,
    function_id: Option<String>,
    value_str: Option<String>,
    throughput: Option<DeclaredThroughput>,
    full_id: String,
}

/// Criterion's `Throughput`, as it serialises it.
#[derive(Deserialize)]
enum DeclaredThroughput {
    Bits(serde::de::IgnoredAny),
    Bytes(f64),
    BytesDecimal(f64),
    Elements(f64),
    ElementsAndBytes { elements: f64 },
}

/// Criterion's `new/estimates.json`: of its estimates, the median.
#[derive(Deserialize)]
struct EstimatesFile {
    median: Estimate,
}

#[derive(Deserialize)]
struct Estimate {
    point_estimate: f64,
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", path.display()))
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
                let benchmark: BenchmarkFile = read_json(&file)?;
                index.insert(benchmark.full_id, path);
            } else {
                pending.push(path);
            }
        }
    }
    Ok(index)
}

/// One result from its `new/benchmark.json` and `new/estimates.json`.
fn read_measurement(dir: &Path) -> Result<Measurement, String> {
    let benchmark: BenchmarkFile = read_json(&dir.join("benchmark.json"))?;
    let estimates: EstimatesFile = read_json(&dir.join("estimates.json"))?;
    let throughput = benchmark.throughput.and_then(|declared| match declared {
        DeclaredThroughput::Elements(n) | DeclaredThroughput::ElementsAndBytes { elements: n } => {
            Some(Throughput::Elements(n))
        }
        // Criterion's decimal-bytes variant is still a byte count.
        DeclaredThroughput::Bytes(n) | DeclaredThroughput::BytesDecimal(n) => {
            Some(Throughput::Bytes(n))
        }
        DeclaredThroughput::Bits(_) => None,
    });
    Ok(Measurement {
        group: benchmark.group_id,
        function: benchmark.function_id.unwrap_or_default(),
        param: benchmark.value_str.unwrap_or_default(),
        median_ns: estimates.median.point_estimate,
        throughput,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_criterion_output() {
        let dir = std::env::temp_dir().join(format!("xtask-bench-test-{}", std::process::id()));
        let write = |id: &str, benchmark: &str, estimates: &str| {
            let new = dir.join(id).join("new");
            std::fs::create_dir_all(&new).unwrap();
            std::fs::write(new.join("benchmark.json"), benchmark).unwrap();
            std::fs::write(new.join("estimates.json"), estimates).unwrap();
        };
        write(
            "g/f/p",
            r#"{"group_id":"g","function_id":"f","value_str":"p","throughput":{"Bytes":64},"full_id":"g/f/p"}"#,
            r#"{"mean":{"point_estimate":40.0},"median":{"point_estimate":32.0}}"#,
        );
        write(
            "g/p",
            r#"{"group_id":"g","function_id":null,"value_str":"p","throughput":{"ElementsAndBytes":{"elements":4,"bytes":9}},"full_id":"g/p"}"#,
            r#"{"median":{"point_estimate":8.0}}"#,
        );
        let run = Run {
            bench: "b",
            label: "b".into(),
            executable: PathBuf::new(),
            package_dir: &dir,
            filter: None,
            suffix: " (soft)",
            criterion_dir: dir.clone(),
        };
        let ids = ["g/f/p", "g/f/missing", "g/p"].map(str::to_owned);
        let found = run.collect(&ids);
        std::fs::remove_dir_all(&dir).unwrap();
        let found = found.unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].function, "f (soft)");
        assert_eq!(found[0].throughput, Some(Throughput::Bytes(64.0)));
        assert_eq!(found[0].median_ns, 32.0);
        assert_eq!(found[1].function, " (soft)");
        assert_eq!(found[1].throughput, Some(Throughput::Elements(4.0)));
    }

    #[test]
    fn a_malformed_result_names_its_file() {
        let dir = std::env::temp_dir().join(format!("xtask-bench-bad-{}", std::process::id()));
        let new = dir.join("g/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(new.join("benchmark.json"), r#"{"group_id":"g"}"#).unwrap();
        let error = index_results(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        let error = error.unwrap_err();
        assert!(
            error.contains("benchmark.json") && error.contains("full_id"),
            "{error}"
        );
    }
}
