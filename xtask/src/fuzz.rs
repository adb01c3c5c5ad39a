//! `cargo xtask fuzz`: seeds the cargo-fuzz targets under `fuzz/` from
//! `vectors/`, builds them, runs each for a while and prints one table;
//! non-zero exit on any crash.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::flags::{self, Args, Long, Value, unexpected};
use crate::process::{ensure_nightly, run_checked, succeeds};

mod seeds;

use seeds::Vectors;

pub(crate) const USAGE: &str = "\
Usage: cargo xtask fuzz [--seconds N] [--keep] [TARGET]

Writes seed inputs generated from vectors/ into fuzz/corpus/<target>/, builds
the fuzz targets under fuzz/ with cargo-fuzz on the nightly toolchain, runs
each target (or only TARGET) for N seconds, starting from that corpus and
the kept one (fuzz/kept-corpus/<target>/, in git), and prints a table:
target, seconds, runs, coverage (libFuzzer's final `cov:` edge count),
result.
Exits non-zero if any target crashes; the crashing input is saved under
fuzz/artifacts/<target>/ and the panic, the saved input and how to
reproduce it are printed. Full logs are kept in fuzz/target/xtask-logs/.
Installs the nightly toolchain and cargo-fuzz when they are missing.

Targets: bijou_decode, bijou_roundtrip, bijou_batch, io_stream,
         frame_decoder, sha1_chunks, sha1_many, sha1_checked,
         serde_canonical

Options:
  --seconds N   Run each target for N seconds (default 60)
  --keep        After a run without crashes, replace each kept corpus by a
                small set of inputs, from it and the run's corpus, that
                covers what both cover (libFuzzer's -merge=1); commit the
                result so that `cargo test` replays it
  -h, --help    Print this message";

/// One fuzz target: its name (a `[[bin]]` of `fuzz/Cargo.toml`), how to
/// build its seed inputs, and libFuzzer flags of its own.
struct Target {
    name: &'static str,
    seeds: fn(&Vectors) -> Vec<Vec<u8>>,
    flags: &'static [&'static str],
}

const TARGETS: &[Target] = &[
    Target {
        name: "bijou_decode",
        seeds: seeds::decode_seeds,
        flags: &[],
    },
    Target {
        name: "bijou_roundtrip",
        seeds: seeds::roundtrip_seeds,
        flags: &[],
    },
    Target {
        name: "bijou_batch",
        seeds: seeds::batch_seeds,
        flags: &[],
    },
    Target {
        name: "io_stream",
        seeds: seeds::stream_seeds,
        flags: &[],
    },
    Target {
        name: "frame_decoder",
        seeds: seeds::frame_seeds,
        // Its inputs are far below 1 MiB and the decoders reserve at most
        // 64 KiB ahead, so one allocation of 1 MiB means a decoder trusted
        // an announced length (the frame limit may be none at all).
        flags: &["-malloc_limit_mb=1"],
    },
    Target {
        name: "sha1_chunks",
        seeds: seeds::sha1_seeds,
        flags: &[],
    },
    Target {
        name: "sha1_many",
        seeds: seeds::sha1_seeds,
        flags: &[],
    },
    Target {
        name: "sha1_checked",
        seeds: seeds::checked_seeds,
        flags: &[],
    },
    Target {
        name: "serde_canonical",
        seeds: seeds::serde_seeds,
        // As frame_decoder: no allocation is sized by a length before the
        // input is seen to hold it, and inputs are far below 1 MiB.
        flags: &["-malloc_limit_mb=1"],
    },
];

/// Prefix of the seed files this command writes (and rewrites) in each
/// corpus; the inputs libFuzzer adds are named by their SHA-1 and kept.
const SEED_PREFIX: &str = "seed-";

/// The command line.
#[derive(Debug, PartialEq)]
struct Options {
    seconds: u64,
    keep: bool,
    only: Option<String>,
}

pub(crate) fn main(args: &[OsString]) -> Result<(), String> {
    let Some(Options {
        seconds,
        keep,
        only,
    }) = parse_args(args)?
    else {
        return Ok(());
    };
    let targets: Vec<&Target> = match &only {
        Some(name) => vec![target_named(name)?],
        None => TARGETS.iter().collect(),
    };
    let root = testkit::workspace_root();
    let fuzz_dir = root.canonicalize().unwrap_or(root).join("fuzz");

    ensure_tools()?;
    let vectors = Vectors::load().map_err(|e| e.to_string())?;
    for target in &targets {
        write_seeds(&fuzz_dir, target.name, &(target.seeds)(&vectors))?;
    }
    println!("building fuzz targets");
    let mut build = cargo_fuzz(&fuzz_dir);
    build.arg("build");
    build.args(&only);
    run_checked(&mut build)?;

    let logs = fuzz_dir.join("target/xtask-logs");
    fs::create_dir_all(&logs).map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
    let runs: Vec<Run> = targets
        .iter()
        .map(|t| run_target(&fuzz_dir, &logs, t, seconds))
        .collect::<Result<_, _>>()?;
    report(&runs)?;
    if keep {
        for target in &targets {
            keep_corpus(&fuzz_dir, &logs, target)?;
        }
    }
    Ok(())
}

/// `--seconds N`, `--keep` and an optional target name; `None` after
/// `--help`.
fn parse_args(args: &[OsString]) -> Result<Option<Options>, String> {
    let mut options = Options {
        seconds: 60,
        keep: false,
        only: None,
    };
    let mut args = Args::new(args, USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Long("seconds") => {
                let value = args.value("--seconds")?;
                options.seconds =
                    value.parse().ok().filter(|&s| s > 0).ok_or_else(|| {
                        format!("`--seconds {value}`: expected a positive integer")
                    })?;
            }
            Long("keep") => options.keep = true,
            // Checked here, so that `no_such_target --help` is an error too.
            Value(name) if options.only.is_none() => {
                let name = flags::string(name)?;
                options.only = Some(target_named(&name)?.name.to_owned());
            }
            other => return Err(unexpected(other, USAGE)),
        }
    }
    args.finish(options)
}

/// The fuzz target called `name`.
fn target_named(name: &str) -> Result<&'static Target, String> {
    TARGETS
        .iter()
        .find(|target| target.name == name)
        .ok_or_else(|| format!("unknown fuzz target `{name}`\n\n{USAGE}"))
}

/// Installs the nightly toolchain and cargo-fuzz if they are missing.
fn ensure_tools() -> Result<(), String> {
    ensure_nightly(&[])?;
    if !succeeds(Command::new("cargo").args(["+nightly", "fuzz", "--version"])) {
        println!("installing cargo-fuzz");
        run_checked(Command::new("cargo").args(["install", "--locked", "cargo-fuzz"]))?;
    }
    Ok(())
}

/// `cargo +nightly fuzz`, run in the workspace root. The fuzz workspace
/// builds into its own `fuzz/target`: a `CARGO_TARGET_DIR` meant for the
/// main workspace would mix sanitizer builds into it and hide the binaries
/// from cargo-fuzz.
fn cargo_fuzz(fuzz_dir: &Path) -> Command {
    let mut command = Command::new("cargo");
    command
        .args(["+nightly", "fuzz"])
        .current_dir(fuzz_dir.parent().expect("fuzz/ has a parent"))
        .env_remove("CARGO_TARGET_DIR");
    command
}

/// The corpus a run writes its finds to, `fuzz/corpus/<target>/`.
fn run_corpus(fuzz_dir: &Path, target: &str) -> PathBuf {
    fuzz_dir.join("corpus").join(target)
}

/// The corpus kept in git, `fuzz/kept-corpus/<target>/`.
fn kept_dir(fuzz_dir: &Path, target: &str) -> PathBuf {
    fuzz_dir.join("kept-corpus").join(target)
}

/// `cargo fuzz run` of `target` for `seconds`. libFuzzer writes new finds
/// to the first corpus directory, so the kept corpus is only read.
fn run_command(fuzz_dir: &Path, target: &Target, seconds: u64) -> Command {
    let mut command = cargo_fuzz(fuzz_dir);
    command
        .args(["run", target.name])
        .arg(run_corpus(fuzz_dir, target.name))
        .arg(kept_dir(fuzz_dir, target.name))
        .arg("--")
        .arg(format!("-max_total_time={seconds}"))
        // Final statistics give the exact number of runs.
        .arg("-print_final_stats=1")
        .args(target.flags);
    command
}

/// libFuzzer's merge (`-merge=1`) of the kept corpus and the run's corpus
/// into `merged`, an empty directory, under the target's own flags (an
/// input that breaks them is not kept).
fn merge_command(fuzz_dir: &Path, target: &Target, merged: &Path) -> Command {
    let mut command = cargo_fuzz(fuzz_dir);
    command
        .args(["run", target.name])
        .arg(merged)
        .arg(kept_dir(fuzz_dir, target.name))
        .arg(run_corpus(fuzz_dir, target.name))
        .args(["--", "-merge=1"])
        .args(target.flags);
    command
}

/// One target's run, as reported.
struct Run {
    name: &'static str,
    seconds: f64,
    runs: Option<u64>,
    coverage: Option<u64>,
    crashed: bool,
}

fn run_target(fuzz_dir: &Path, logs: &Path, target: &Target, seconds: u64) -> Result<Run, String> {
    let log_path = logs.join(format!("{}.log", target.name));
    let log = fs::File::create(&log_path)
        .map_err(|e| format!("cannot create {}: {e}", log_path.display()))?;
    let log_err = log
        .try_clone()
        .map_err(|e| format!("cannot reopen {}: {e}", log_path.display()))?;
    println!(
        "fuzzing {} for {seconds} s (log: {})",
        target.name,
        log_path.display()
    );
    kept_corpus(fuzz_dir, target.name)?;
    let mut command = run_command(fuzz_dir, target, seconds);
    command.stdout(log).stderr(log_err);
    let start = Instant::now();
    let status = command
        .status()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    let elapsed = start.elapsed().as_secs_f64();
    let output = fs::read_to_string(&log_path)
        .map_err(|e| format!("cannot read {}: {e}", log_path.display()))?;
    if !status.success() {
        eprintln!("{} failed ({status}):", target.name);
        for line in crash_summary(&output) {
            eprintln!("  {line}");
        }
    }
    Ok(Run {
        name: target.name,
        // libFuzzer's own count leaves out cargo's start-up; a crashed run
        // has none, so fall back to the wall clock.
        seconds: last_number_after(&output, "runs in ").map_or(elapsed, |s| s as f64),
        runs: last_number_after(&output, "stat::number_of_executed_units:")
            .or_else(|| last_number_after(&output, "Done ")),
        coverage: last_number_after(&output, "cov: "),
        crashed: !status.success(),
    })
}

/// The lines of a failed run's log that say what went wrong: the panic (or
/// sanitizer or libFuzzer error) without its stack trace, where the input
/// was saved and how to reproduce it; the end of the log if none is found.
fn crash_summary(log: &str) -> Vec<&str> {
    let lines: Vec<&str> = log.lines().collect();
    let mut summary = Vec::new();
    if let Some(start) = lines
        .iter()
        .position(|l| l.contains("panicked at") || l.contains("ERROR:"))
    {
        let is_stack = |l: &&&str| l.starts_with("stack backtrace:") || l.contains("#0 ");
        summary.extend(lines[start..].iter().take_while(|l| !is_stack(l)).take(20));
    }
    summary.extend(lines.iter().filter(|l| l.contains("Test unit written to")));
    if let Some(at) = lines.iter().position(|l| l.starts_with("Reproduce with:")) {
        summary.extend(lines[at..].iter().take(3).filter(|l| !l.trim().is_empty()));
    }
    if summary.is_empty() {
        summary.extend(&lines[lines.len().saturating_sub(40)..]);
    }
    summary
}

/// The number following the last occurrence of `key` in `log`.
fn last_number_after(log: &str, key: &str) -> Option<u64> {
    let (at, _) = log.rmatch_indices(key).next()?;
    let rest = log[at + key.len()..].trim_start();
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..digits].parse().ok()
}

fn report(runs: &[Run]) -> Result<(), String> {
    let unknown = || "?".to_owned();
    let rows: Vec<Vec<String>> = runs
        .iter()
        .map(|r| {
            vec![
                r.name.to_owned(),
                format!("{:.0}", r.seconds),
                r.runs.map_or_else(unknown, |n| n.to_string()),
                r.coverage.map_or_else(unknown, |n| n.to_string()),
                if r.crashed { "CRASH" } else { "ok" }.to_owned(),
            ]
        })
        .collect();
    println!();
    crate::table::print(
        &["target", "seconds", "runs", "cov (edges)", "result"],
        &rows,
    );
    let crashed: Vec<&str> = runs.iter().filter(|r| r.crashed).map(|r| r.name).collect();
    println!();
    if crashed.is_empty() {
        println!("fuzz: {} targets, no crashes", runs.len());
        Ok(())
    } else {
        Err(format!(
            "{} of {} fuzz targets crashed: {} (inputs in fuzz/artifacts/)",
            crashed.len(),
            runs.len(),
            crashed.join(", ")
        ))
    }
}

/// `fuzz/kept-corpus/<target>/`, created if missing.
fn kept_corpus(fuzz_dir: &Path, target: &str) -> Result<PathBuf, String> {
    let kept = kept_dir(fuzz_dir, target);
    fs::create_dir_all(&kept).map_err(|e| format!("{}: {e}", kept.display()))?;
    Ok(kept)
}

/// Replaces `target`'s kept corpus by libFuzzer's merge of it and the run's
/// corpus: a small set of inputs (libFuzzer picks greedily) that together
/// cover every edge either covers. The merge writes into a new directory,
/// and the old corpus is moved aside until the new one is in place, so a
/// failure at any step leaves a kept corpus behind.
fn keep_corpus(fuzz_dir: &Path, logs: &Path, target: &Target) -> Result<(), String> {
    let name = target.name;
    let kept = kept_corpus(fuzz_dir, name)?;
    let scratch = fuzz_dir.join("target");
    let merged = scratch.join(format!("merged-{name}"));
    let replaced = scratch.join(format!("replaced-{name}"));
    let io_error = |path: &Path, e: std::io::Error| format!("{}: {e}", path.display());
    for dir in [&merged, &replaced] {
        if dir.exists() {
            fs::remove_dir_all(dir).map_err(|e| io_error(dir, e))?;
        }
    }
    fs::create_dir_all(&merged).map_err(|e| io_error(&merged, e))?;
    let log_path = logs.join(format!("{name}-merge.log"));
    let log = fs::File::create(&log_path).map_err(|e| io_error(&log_path, e))?;
    let log_err = log.try_clone().map_err(|e| io_error(&log_path, e))?;
    println!("merging the corpus of {name} into {}", kept.display());
    let status = merge_command(fuzz_dir, target, &merged)
        .stdout(log)
        .stderr(log_err)
        .status()
        .map_err(|e| format!("cannot run cargo fuzz: {e}"))?;
    if !status.success() {
        return Err(format!(
            "merging the corpus of {name} failed ({status}); log: {}",
            log_path.display()
        ));
    }
    fs::rename(&kept, &replaced).map_err(|e| io_error(&kept, e))?;
    if let Err(e) = fs::rename(&merged, &kept) {
        // Put the old corpus back; if even that fails, say where it is.
        return Err(match fs::rename(&replaced, &kept) {
            Ok(()) => io_error(&merged, e),
            Err(_) => format!(
                "{}; the previous kept corpus is in {}",
                io_error(&merged, e),
                replaced.display()
            ),
        });
    }
    fs::remove_dir_all(&replaced).map_err(|e| io_error(&replaced, e))?;
    let inputs = fs::read_dir(&kept).map_err(|e| io_error(&kept, e))?.count();
    println!("{name}: {inputs} inputs kept");
    Ok(())
}

/// Replaces the seed files of `target`'s corpus with `seeds`.
fn write_seeds(fuzz_dir: &Path, target: &str, seeds: &[Vec<u8>]) -> Result<(), String> {
    let corpus: PathBuf = fuzz_dir.join("corpus").join(target);
    let io_error = |path: &Path, e: std::io::Error| format!("{}: {e}", path.display());
    fs::create_dir_all(&corpus).map_err(|e| io_error(&corpus, e))?;
    for entry in fs::read_dir(&corpus).map_err(|e| io_error(&corpus, e))? {
        let path = entry.map_err(|e| io_error(&corpus, e))?.path();
        if path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(SEED_PREFIX))
        {
            fs::remove_file(&path).map_err(|e| io_error(&path, e))?;
        }
    }
    for (i, seed) in seeds.iter().enumerate() {
        let path = corpus.join(format!("{SEED_PREFIX}{i:04}"));
        fs::write(&path, seed).map_err(|e| io_error(&path, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::args;

    #[test]
    fn parses_seconds_and_target() {
        let options = |seconds, keep, only: Option<&str>| Options {
            seconds,
            keep,
            only: only.map(str::to_owned),
        };
        assert_eq!(parse_args(&args(&[])), Ok(Some(options(60, false, None))));
        assert_eq!(
            parse_args(&args(&["--seconds", "5", "io_stream"])),
            Ok(Some(options(5, false, Some("io_stream"))))
        );
        assert_eq!(
            parse_args(&args(&["--keep", "sha1_many"])),
            Ok(Some(options(60, true, Some("sha1_many"))))
        );
        assert!(parse_args(&args(&["--seconds"])).is_err());
        assert!(parse_args(&args(&["--seconds", "0"])).is_err());
        assert!(parse_args(&args(&["--bogus"])).is_err());
        let two = parse_args(&args(&["io_stream", "sha1_many"])).unwrap_err();
        assert!(two.contains("unexpected argument `sha1_many`"), "{two}");
        // The whole line is checked before help is given, target included.
        assert!(parse_args(&args(&["--bogus", "--help"])).is_err());
        let unknown = parse_args(&args(&["no_such_target", "--help"])).unwrap_err();
        assert!(
            unknown.contains("unknown fuzz target `no_such_target`"),
            "{unknown}"
        );
        assert!(parse_args(&args(&["--help", "--seconds"])).is_err());
    }

    #[test]
    fn reads_libfuzzer_counters() {
        let log = "#2\tINITED cov: 45 ft: 46 corp: 1/1b\n#900\tDONE cov: 61 ft: 80\n\
                   Done 900 runs in 31 second(s)\n\
                   stat::number_of_executed_units: 912\n";
        assert_eq!(last_number_after(log, "cov: "), Some(61));
        assert_eq!(
            last_number_after(log, "stat::number_of_executed_units:"),
            Some(912)
        );
        assert_eq!(last_number_after(log, "runs in "), Some(31));
        assert_eq!(last_number_after(log, "INITED"), None);
    }

    #[test]
    fn summarises_a_crash() {
        let log = "INFO: Seed: 1\nthread '<unnamed>' panicked at t.rs:1:1:\nboom\n\
                   stack backtrace:\n   0: frame\nSUMMARY: libFuzzer: deadly signal\n\
                   artifact_prefix='a/'; Test unit written to a/crash-1\n\
                   Reproduce with:\n\n\tcargo fuzz run t a/crash-1\n\nMinimize\n";
        assert_eq!(
            crash_summary(log),
            [
                "thread '<unnamed>' panicked at t.rs:1:1:",
                "boom",
                "artifact_prefix='a/'; Test unit written to a/crash-1",
                "Reproduce with:",
                "\tcargo fuzz run t a/crash-1",
            ]
        );
    }

    /// A command's arguments as strings.
    fn args_of(command: &Command) -> Vec<String> {
        command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn runs_write_to_their_corpus_and_read_the_kept_one() {
        let fuzz_dir = Path::new("/repo/fuzz");
        let frames = TARGETS.iter().find(|t| t.name == "frame_decoder").unwrap();
        assert_eq!(
            args_of(&run_command(fuzz_dir, frames, 7)),
            [
                "+nightly",
                "fuzz",
                "run",
                "frame_decoder",
                "/repo/fuzz/corpus/frame_decoder",
                "/repo/fuzz/kept-corpus/frame_decoder",
                "--",
                "-max_total_time=7",
                "-print_final_stats=1",
                "-malloc_limit_mb=1",
            ]
        );
    }

    #[test]
    fn the_merge_writes_a_new_directory_from_both_corpora() {
        let fuzz_dir = Path::new("/repo/fuzz");
        let frames = TARGETS.iter().find(|t| t.name == "frame_decoder").unwrap();
        let merged = Path::new("/repo/fuzz/target/merged-frame_decoder");
        assert_eq!(
            args_of(&merge_command(fuzz_dir, frames, merged)),
            [
                "+nightly",
                "fuzz",
                "run",
                "frame_decoder",
                "/repo/fuzz/target/merged-frame_decoder",
                "/repo/fuzz/kept-corpus/frame_decoder",
                "/repo/fuzz/corpus/frame_decoder",
                "--",
                "-merge=1",
                "-malloc_limit_mb=1",
            ]
        );
    }

    /// The fuzz workspace's own test ties its `[[bin]]`s to its targets'
    /// modules and kept corpora; this ties them to the list here.
    #[test]
    fn the_targets_are_the_fuzz_binaries() {
        let mut ours: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
        for name in &ours {
            assert!(USAGE.contains(name), "the usage does not list {name}");
        }
        ours.sort_unstable();
        assert_eq!(testkit::fuzz_binaries(), ours);
    }

    #[test]
    fn every_target_gets_seeds() {
        let vectors = Vectors::load().expect("vector files load");
        for target in TARGETS {
            assert!(!(target.seeds)(&vectors).is_empty(), "{}", target.name);
        }
    }
}
