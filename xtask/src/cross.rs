//! `cargo xtask cross`: the library crates' test suites built for other
//! architectures and run under QEMU's user-mode emulation, or, for i686 on
//! an x86-64 host whose kernel runs 32-bit code, natively through the
//! target's dynamic loader (the same binaries, many times faster).
//!
//! Three targets, each for what it can catch: `s390x` is big-endian, so any
//! byte-order assumption in the varint encoders and decoders or in SHA-1's
//! word reads and digest writes fails there; `i686` has a 32-bit `usize`,
//! so a frame length checked with `usize::try_from` instead of cast with
//! `as` (and any length arithmetic that assumes 64 bits) is exercised
//! there; `aarch64` is where users deploy besides x86-64, and where
//! `sha1-fast` has a hardware backend of its own (the Armv8 SHA-1
//! instructions), so its tests run there more than once: on QEMU's `max`
//! CPU, which has the instructions, then with them hidden from detection so
//! the fallback is chosen, then with each way of forcing a backend
//! ([`SHA1_RUNS`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::flags::{Args, Long, push_once, unexpected};
use crate::process::{add_rustflags, run_checked, succeeds};

pub(crate) const USAGE: &str = "\
Usage: cargo xtask cross [--install] [--clean] [--target TRIPLE]... [--package CRATE]...

Builds the tests of the library crates (bijou-core, bijou-io, sha1-fast,
testkit; unit, integration and doc tests) for each target and runs them
under QEMU user-mode emulation (i686 natively where the host can run it),
then prints one line per run. On aarch64
sha1-fast's tests run four more times: with the CPU's SHA instructions
hidden from detection (so the fallback is chosen), and forced by
SHA1_FAST_BACKEND and by --cfg sha1_fast_force.

Targets: aarch64-unknown-linux-gnu, s390x-unknown-linux-gnu (big-endian),
i686-unknown-linux-gnu (32-bit usize). Default: all three.

Each target needs its Rust standard library (rustup), a cross linker with
its C library and the QEMU emulator (Debian packages). Without --install a
missing piece is an error that says what to install.

Options:
  --install          Install what is missing: `rustup target add` and
                     `apt-get install` (Debian, as root)
  --clean            Delete each target's build (TRIPLE in cargo's target dir)
                     once its tests have run, so the targets' builds never
                     take disk space all at once (CI machines are short of it)
  --target TRIPLE    Only this target (repeatable)
  --package CRATE    Only this crate's tests in each target's main run
                     (repeatable; one of bijou-core, bijou-io, sha1-fast,
                     testkit); sha1-fast's further runs are not affected
  -h, --help         Print this message";

/// The crates whose tests run on every target (the benches, xtask and the
/// fuzz targets are host tools).
const CRATES: &[&str] = &["bijou-core", "bijou-io", "sha1-fast", "testkit"];

/// One cross target and the host tools it needs.
#[derive(PartialEq)]
struct Target {
    triple: &'static str,
    /// Debian's GCC for the target, used as the linker.
    linker: &'static str,
    /// The QEMU user-mode emulator.
    qemu: &'static str,
    /// Where the target's C library is installed, which the linker needs
    /// and QEMU loads dynamically linked test binaries from.
    sysroot: &'static str,
    /// The Debian package that provides `linker`.
    linker_package: &'static str,
    /// The Debian package with the target's C library (only a
    /// recommendation of the linker's, so not always installed with it).
    libc_package: &'static str,
    /// QEMU's CPU model for every run (`-cpu`).
    cpu: &'static str,
    /// The target's dynamic loader under `sysroot`, where an x86-64 host
    /// may run the target's binaries itself: tried first, QEMU if it
    /// cannot run here.
    native_loader: Option<&'static str>,
    /// sha1-fast's further runs on this target, after the main one.
    sha1_runs: &'static [Sha1Run],
}

/// A further run of sha1-fast's tests on one target, checking a backend
/// choice the main run (every crate, detection on, nothing forced) does
/// not make.
#[derive(PartialEq)]
struct Sha1Run {
    /// What the run checks, for the summary.
    label: &'static str,
    /// Hide the CPU's SHA instructions from detection ([`HIDE_SHA`]).
    hide_sha: bool,
    /// The `--cfg sha1_fast_force` value to build with, if any.
    force_cfg: Option<&'static str>,
    /// The tests' environment.
    env: &'static [(&'static str, &'static str)],
    /// What follows `cargo test -p sha1-fast`.
    args: &'static [&'static str],
}

/// The C source of the library preloaded into the tests to hide the SHA
/// instructions from detection: no QEMU CPU model lacks them.
const HIDE_SHA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/cross/hide_sha.c");

/// The variable that names the backends a run's tests must find
/// unavailable (sha1-fast's `tests/all/common.rs`), so a hiding that stopped
/// working fails instead of testing the hardware backend again.
const UNAVAILABLE_VAR: &str = "SHA1_FAST_TEST_UNAVAILABLE";

/// The test that checks what `Backend::detect` chose, and prints it.
const DETECT_TEST: &[&str] = &[
    "--test",
    "all",
    "--",
    "forced_backend_is_honoured",
    "--show-output",
];

/// sha1-fast on aarch64, after the main run on `-cpu max` chose `armsha`
/// and tested every backend: the fallback, and every way of forcing. Only
/// the hidden run repeats the whole suite (its backends differ); the
/// others check the choice, the `none` build also that the hardware
/// backend refuses to run.
const SHA1_RUNS: &[Sha1Run] = &[
    Sha1Run {
        label: "SHA-1 instructions hidden, armsha forced",
        hide_sha: true,
        force_cfg: None,
        env: &[("SHA1_FAST_BACKEND", "armsha"), (UNAVAILABLE_VAR, "armsha")],
        args: &["--tests"],
    },
    Sha1Run {
        label: "SHA1_FAST_BACKEND=scalar",
        hide_sha: false,
        force_cfg: None,
        env: &[("SHA1_FAST_BACKEND", "scalar")],
        args: DETECT_TEST,
    },
    Sha1Run {
        label: "--cfg sha1_fast_force=\"armsha\"",
        hide_sha: false,
        force_cfg: Some("armsha"),
        env: &[],
        args: DETECT_TEST,
    },
    Sha1Run {
        label: "--cfg sha1_fast_force=\"none\"",
        hide_sha: false,
        force_cfg: Some("none"),
        env: &[(UNAVAILABLE_VAR, "armsha")],
        args: &["--test", "all", "--", "api::"],
    },
];

/// The Debian package with every QEMU user-mode emulator.
const QEMU_PACKAGE: &str = "qemu-user";

const TARGETS: &[Target] = &[
    Target {
        triple: "aarch64-unknown-linux-gnu",
        linker: "aarch64-linux-gnu-gcc",
        qemu: "qemu-aarch64",
        sysroot: "/usr/aarch64-linux-gnu",
        linker_package: "gcc-aarch64-linux-gnu",
        libc_package: "libc6-dev-arm64-cross",
        cpu: "max",
        native_loader: None,
        sha1_runs: SHA1_RUNS,
    },
    Target {
        triple: "s390x-unknown-linux-gnu",
        linker: "s390x-linux-gnu-gcc",
        qemu: "qemu-s390x",
        sysroot: "/usr/s390x-linux-gnu",
        linker_package: "gcc-s390x-linux-gnu",
        libc_package: "libc6-dev-s390x-cross",
        cpu: "max",
        native_loader: None,
        sha1_runs: &[],
    },
    Target {
        triple: "i686-unknown-linux-gnu",
        linker: "i686-linux-gnu-gcc",
        qemu: "qemu-i386",
        sysroot: "/usr/i686-linux-gnu",
        linker_package: "gcc-i686-linux-gnu",
        libc_package: "libc6-dev-i386-cross",
        cpu: "max",
        native_loader: Some("lib/ld-linux.so.2"),
        sha1_runs: &[],
    },
];

struct Options {
    install: bool,
    clean: bool,
    targets: Vec<&'static Target>,
    /// The crates of each target's main run.
    crates: Vec<&'static str>,
}

pub(crate) fn main(args: &[OsString]) -> Result<(), String> {
    let Some(options) = parse_args(args)? else {
        return Ok(());
    };
    if options.install {
        install(&options.targets)?;
    }
    let missing: Vec<String> = options
        .targets
        .iter()
        .filter_map(|target| {
            let pieces = missing_pieces(target);
            (!pieces.is_empty()).then(|| format!("{}: {}", target.triple, pieces.join(", ")))
        })
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "missing cross tools\n  {}\nrun `cargo xtask cross --install` (Debian, as root) or install them yourself",
            missing.join("\n  ")
        ));
    }

    let target_dir = target_directory()?;
    let mut results = Vec::new();
    for target in &options.targets {
        println!("== {} ==", target.triple);
        let started = Instant::now();
        let outcome = run_checked(&mut test_command(target, &options.crates));
        results.push((target.triple.to_owned(), outcome.is_ok(), started.elapsed()));
        for run in target.sha1_runs {
            let name = format!("{} ({})", target.triple, run.label);
            println!("== {name} ==");
            let started = Instant::now();
            let outcome = sha1_command(target, run, &target_dir)
                .and_then(|mut command| run_checked(&mut command));
            if let Err(e) = &outcome {
                eprintln!("error: {e}");
            }
            results.push((name, outcome.is_ok(), started.elapsed()));
        }
        if options.clean {
            // The tests' outcome is what counts; a build left behind only
            // costs disk.
            if let Err(e) = remove_build(&target_dir.join(target.triple)) {
                eprintln!("warning: --clean: {e}");
            }
        }
    }
    println!();
    let width = results
        .iter()
        .map(|(name, ..)| name.len())
        .max()
        .unwrap_or(0);
    println!("{:<width$} {:>8}  result", "run", "seconds");
    for (name, passed, elapsed) in &results {
        let result = if *passed { "passed" } else { "FAILED" };
        println!("{name:<width$} {:>8.1}  {result}", elapsed.as_secs_f64());
    }
    let failed: Vec<&str> = results
        .iter()
        .filter(|(_, passed, _)| !passed)
        .map(|(name, _, _)| name.as_str())
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("tests failed on {}", failed.join(", ")))
    }
}

/// The workspace's target directory as cargo resolves it (from
/// `CARGO_TARGET_DIR`, a `build.target-dir` setting or the default), asked
/// of `cargo metadata` in the workspace, where [`test_command`] runs too.
/// Each target's build is its `<triple>` subdirectory.
fn target_directory() -> Result<PathBuf, String> {
    crate::cargo::metadata(&testkit::workspace_root()).map(|m| m.target_directory)
}

/// Deletes a target's build directory; one that is not there is no error.
fn remove_build(dir: &Path) -> Result<(), String> {
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("deleting {}: {e}", dir.display()))
        }
        _ => Ok(()),
    }
}

/// `--install`, `--clean`, the `--target`s (all of [`TARGETS`] if none)
/// and the `--package`s (all of [`CRATES`] if none); `None` after `--help`.
fn parse_args(args: &[OsString]) -> Result<Option<Options>, String> {
    let mut options = Options {
        install: false,
        clean: false,
        targets: Vec::new(),
        crates: Vec::new(),
    };
    let mut args = Args::new(args, USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Long("install") => options.install = true,
            Long("clean") => options.clean = true,
            Long("target") => {
                let triple = args.value("--target")?;
                let target = TARGETS
                    .iter()
                    .find(|t| t.triple == triple)
                    .ok_or_else(|| format!("unknown target `{triple}`\n\n{USAGE}"))?;
                push_once(&mut options.targets, target);
            }
            Long("package") => {
                let name = args.value("--package")?;
                let krate = CRATES
                    .iter()
                    .find(|&&c| c == name)
                    .ok_or_else(|| format!("unknown package `{name}`\n\n{USAGE}"))?;
                push_once(&mut options.crates, *krate);
            }
            other => return Err(unexpected(other, USAGE)),
        }
    }
    if options.targets.is_empty() {
        options.targets = TARGETS.iter().collect();
    }
    if options.crates.is_empty() {
        options.crates = CRATES.to_vec();
    }
    args.finish(options)
}

/// What `target` still lacks on this machine, as things to install.
fn missing_pieces(target: &Target) -> Vec<String> {
    let mut pieces = Vec::new();
    if !has_rust_std(target.triple) {
        pieces.push(format!(
            "Rust standard library (`rustup target add {}`)",
            target.triple
        ));
    }
    for (tool, package) in tools(target) {
        if !has_tool(tool) {
            pieces.push(format!("`{tool}` (Debian package {package})"));
        }
    }
    if !has_c_library(target) {
        pieces.push(format!(
            "the C library in {} (Debian package {})",
            target.sysroot, target.libc_package
        ));
    }
    pieces
}

/// Whether the target's C library is there to link against (its start
/// file, which a program linked with the C library needs).
fn has_c_library(target: &Target) -> bool {
    std::path::Path::new(target.sysroot)
        .join("lib/crt1.o")
        .is_file()
}

/// The host tools `target` needs, each with the Debian package that has it.
fn tools(target: &Target) -> [(&'static str, &'static str); 2] {
    [
        (target.linker, target.linker_package),
        (target.qemu, QEMU_PACKAGE),
    ]
}

/// Whether `tool` is on the `PATH` and runs (`tool --version`).
fn has_tool(tool: &str) -> bool {
    succeeds(Command::new(tool).arg("--version"))
}

/// Whether the active toolchain has the standard library for `triple`.
fn has_rust_std(triple: &str) -> bool {
    let Ok(output) = Command::new("rustc")
        .args(["--print", "target-libdir", "--target", triple])
        .output()
    else {
        return false;
    };
    let libdir = String::from_utf8_lossy(&output.stdout);
    output.status.success() && std::path::Path::new(libdir.trim()).is_dir()
}

/// Installs the missing Rust standard libraries and Debian packages.
fn install(targets: &[&Target]) -> Result<(), String> {
    let triples: Vec<&str> = targets
        .iter()
        .filter(|t| !has_rust_std(t.triple))
        .map(|t| t.triple)
        .collect();
    if !triples.is_empty() {
        println!(
            "installing the Rust standard library for {}",
            triples.join(", ")
        );
        run_checked(
            Command::new("rustup")
                .args(["target", "add"])
                .args(&triples),
        )?;
    }
    let mut packages: Vec<&str> = targets
        .iter()
        .flat_map(|target| tools(target))
        .filter(|(tool, _)| !has_tool(tool))
        .map(|(_, package)| package)
        .chain(
            targets
                .iter()
                .filter(|target| !has_c_library(target))
                .map(|target| target.libc_package),
        )
        .collect();
    packages.sort_unstable();
    packages.dedup();
    if !packages.is_empty() {
        println!("installing {}", packages.join(" "));
        run_checked(Command::new("apt-get").arg("update").arg("-qq"))?;
        run_checked(
            Command::new("apt-get")
                .args(["install", "-y", "-qq"])
                .args(&packages)
                .env("DEBIAN_FRONTEND", "noninteractive"),
        )?;
    }
    Ok(())
}

/// `cargo test --target <triple>` for `crates`, run in the workspace,
/// with the linker and the QEMU runner set through cargo's per-target
/// variables unless the caller already set them. Warnings are errors:
/// clippy sees only the host's `cfg`s, so this is where code for the other
/// targets is linted.
fn test_command(target: &Target, crates: &[&str]) -> Command {
    let mut command = cargo_test(target, "-D warnings");
    for krate in crates {
        command.args(["-p", krate]);
    }
    command
}

/// `cargo test --target <triple>` with `rustflags` added to the caller's,
/// and the linker and runner as [`test_command`] says.
fn cargo_test(target: &Target, rustflags: &str) -> Command {
    let mut command = Command::new("cargo");
    command
        .current_dir(testkit::workspace_root())
        .args(["test", "--target", target.triple]);
    add_rustflags(&mut command, rustflags);
    let prefix = cargo_target_env_prefix(target.triple);
    let settings = [
        ("LINKER", target.linker.to_owned()),
        ("RUNNER", runner(target)),
    ];
    for (key, value) in settings {
        let name = format!("{prefix}_{key}");
        if std::env::var_os(&name).is_none() {
            command.env(name, value);
        }
    }
    command
}

/// The command that runs `target`'s test binaries: the target's own
/// dynamic loader where this host runs its code (checked by running the
/// loader), else QEMU with the target's sysroot.
fn runner(target: &Target) -> String {
    if let Some(loader) = target.native_loader {
        let loader = format!("{}/{loader}", target.sysroot);
        if cfg!(target_arch = "x86_64") && succeeds(Command::new(&loader).arg("--version")) {
            return format!("{loader} --library-path {}/lib", target.sysroot);
        }
    }
    format!("{} -L {} -cpu {}", target.qemu, target.sysroot, target.cpu)
}

/// sha1-fast's tests for one of `target`'s [`Sha1Run`]s. Hiding the SHA
/// instructions builds [`HIDE_SHA`] with the target's C compiler into the
/// target's build directory (under `target_dir`) and has QEMU preload it
/// (`QEMU_SET_ENV`, which also works under a runner the caller set).
fn sha1_command(target: &Target, run: &Sha1Run, target_dir: &Path) -> Result<Command, String> {
    let mut rustflags = "-D warnings".to_owned();
    if let Some(value) = run.force_cfg {
        rustflags.push_str(&format!(" --cfg sha1_fast_force=\"{value}\""));
    }
    let mut command = cargo_test(target, &rustflags);
    command.args(["-p", "sha1-fast"]).args(run.args);
    command.envs(run.env.iter().copied());
    if run.hide_sha {
        let library = target_dir.join(target.triple).join("hide-sha.so");
        std::fs::create_dir_all(target_dir.join(target.triple))
            .map_err(|e| format!("creating {}: {e}", target_dir.display()))?;
        run_checked(
            Command::new(target.linker)
                .args([
                    "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-o",
                ])
                .arg(&library)
                .arg(HIDE_SHA),
        )?;
        let library = library
            .to_str()
            .filter(|path| !path.contains(','))
            .ok_or_else(|| {
                format!(
                    "{}: QEMU_SET_ENV needs a UTF-8 path without commas",
                    library.display()
                )
            })?;
        command.env("QEMU_SET_ENV", format!("LD_PRELOAD={library}"));
    }
    Ok(command)
}

/// Cargo's environment prefix for per-target settings:
/// `CARGO_TARGET_<TRIPLE>` upper-cased with `-` as `_`.
fn cargo_target_env_prefix(triple: &str) -> String {
    format!(
        "CARGO_TARGET_{}",
        triple.to_uppercase().replace(['-', '.'], "_")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::args;

    #[test]
    fn env_prefix_follows_cargo_naming() {
        assert_eq!(
            cargo_target_env_prefix("s390x-unknown-linux-gnu"),
            "CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU"
        );
        assert_eq!(
            cargo_target_env_prefix("thumbv7em-none-eabihf"),
            "CARGO_TARGET_THUMBV7EM_NONE_EABIHF"
        );
    }

    #[test]
    fn parses_targets_and_install() {
        let all = parse_args(&[]).unwrap().unwrap();
        assert!(!all.install);
        assert!(!all.clean);
        assert_eq!(all.targets.len(), TARGETS.len());

        let one = parse_args(&args(&[
            "--install",
            "--clean",
            "--target",
            "s390x-unknown-linux-gnu",
        ]))
        .unwrap()
        .unwrap();
        assert!(one.install);
        assert!(one.clean);
        let triples: Vec<&str> = one.targets.iter().map(|t| t.triple).collect();
        assert_eq!(triples, ["s390x-unknown-linux-gnu"]);

        assert!(parse_args(&args(&["--target"])).is_err());
        assert!(parse_args(&args(&["--target", "mips-unknown-linux-gnu"])).is_err());
        assert!(parse_args(&args(&["--fast"])).is_err());
        assert_eq!(all.crates, CRATES);
        let one = parse_args(&args(&["--package", "sha1-fast", "--package", "sha1-fast"]))
            .unwrap()
            .unwrap();
        assert_eq!(one.crates, ["sha1-fast"]);
        assert!(parse_args(&args(&["--package", "xtask"])).is_err());
        assert!(parse_args(&args(&["--package"])).is_err());
        // The whole line is checked before help is given.
        assert!(parse_args(&args(&["--bogus", "--help"])).is_err());
        assert!(parse_args(&args(&["--help", "--target"])).is_err());
    }

    #[test]
    fn a_repeated_target_runs_once() {
        let (s390x, i686) = ("s390x-unknown-linux-gnu", "i686-unknown-linux-gnu");
        let line = ["--target", s390x, "--target", i686, "--target", s390x];
        let options = parse_args(&args(&line)).unwrap().unwrap();
        let triples: Vec<&str> = options.targets.iter().map(|t| t.triple).collect();
        assert_eq!(triples, [s390x, i686]);
    }

    #[test]
    fn the_target_directory_is_cargos() {
        let dir = target_directory().unwrap();
        let root = testkit::workspace_root().canonicalize().unwrap();
        match std::env::var_os("CARGO_TARGET_DIR") {
            None => assert_eq!(dir, root.join("target")),
            // Relative to the workspace, where cargo metadata ran.
            Some(set) => assert_eq!(dir, root.join(set)),
        }
    }

    #[test]
    fn remove_build_deletes_the_directory_and_accepts_a_missing_one() {
        let dir = std::env::temp_dir().join(format!("xtask-cross-clean-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("debug/deps")).unwrap();
        std::fs::write(dir.join("debug/deps/a-test"), b"binary").unwrap();
        assert_eq!(remove_build(&dir), Ok(()));
        assert!(!dir.exists());
        assert_eq!(remove_build(&dir), Ok(()));
    }

    #[test]
    fn sha1_runs_build_with_the_cfg_their_label_names() {
        let target = &TARGETS[0];
        // Only the runs that compile nothing before cargo does.
        for run in target.sha1_runs.iter().filter(|run| !run.hide_sha) {
            let command = sha1_command(target, run, Path::new("unused")).unwrap();
            let rustflags = command
                .get_envs()
                .find(|(key, _)| *key == "RUSTFLAGS")
                .and_then(|(_, value)| value?.to_str())
                .unwrap()
                .to_owned();
            match run.force_cfg {
                Some(value) => {
                    let cfg = format!("sha1_fast_force=\"{value}\"");
                    assert!(rustflags.contains(&cfg), "{rustflags}");
                    assert!(run.label.contains(&cfg), "{}", run.label);
                }
                None => assert!(!rustflags.contains("sha1_fast_force"), "{rustflags}"),
            }
        }
        assert!(SHA1_RUNS.iter().any(|run| run.hide_sha));
    }

    #[test]
    fn the_runner_is_qemu_unless_the_loader_runs_here() {
        for target in TARGETS {
            let runner = runner(target);
            match target.native_loader {
                Some(loader) if runner.starts_with(target.sysroot) => {
                    assert!(runner.contains(loader), "{runner}");
                }
                _ => assert!(runner.starts_with(target.qemu), "{runner}"),
            }
        }
        let i686 = TARGETS
            .iter()
            .find(|t| t.triple.starts_with("i686"))
            .unwrap();
        let without_loader = Target {
            native_loader: Some("no/such/loader"),
            ..*i686
        };
        assert!(runner(&without_loader).starts_with("qemu-i386 "));
    }

    #[test]
    fn the_command_sets_linker_and_runner() {
        let target = &TARGETS[0];
        let command = test_command(target, CRATES);
        let prefix = cargo_target_env_prefix(target.triple);
        let envs: Vec<(String, String)> = command
            .get_envs()
            .filter_map(|(k, v)| Some((k.to_str()?.to_owned(), v?.to_str()?.to_owned())))
            .collect();
        for key in ["LINKER", "RUNNER"] {
            let name = format!("{prefix}_{key}");
            if std::env::var_os(&name).is_none() {
                assert!(envs.iter().any(|(k, _)| *k == name), "{name} not set");
            }
        }
        let args: Vec<_> = command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        for krate in CRATES {
            assert!(args.iter().any(|a| a == krate), "{krate} not tested");
        }
    }
}
