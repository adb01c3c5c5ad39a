//! `cargo xtask miri`: sha1-fast's `unsafe` backends and bijou-core's
//! `values` buffer interpreted by Miri, which checks every pointer access
//! and intrinsic call they make.

use crate::flags;
use std::ffi::OsString;
use std::process::{Command, Stdio};

use crate::process::{add_rustflags, ensure_nightly, run_checked};

pub(crate) const USAGE: &str = "\
Usage: cargo xtask miri

Runs sha1-fast's Miri tests (`tests/miri.rs`: small inputs through every
backend Miri can interpret, at unaligned offsets, streaming and in lanes)
and the library's engine test under Miri on the nightly toolchain. On
x86-64 the SSSE3 and AVX2 features are enabled at compile time, so the
SIMD-schedule backend and its AVX2 lanes are detected without CPUID and
interpreted; SHA-NI is not (Miri does not implement `sha1rnds4`).
Then bijou-core's `values` test, on its portable paths: its buffer is
left uninitialized until used. bijou-io forbids `unsafe`. Installs the
nightly toolchain with the `miri` and `rust-src` components when
missing.

Options:
  -h, --help    Print this message";

/// The library's tests that run under Miri, by full name: a filter that
/// matched nothing would pass silently, so each must be seen passing.
const LIB_TESTS: &[&str] = if cfg!(target_arch = "x86_64") {
    &[
        "engine::tests::digest_many_of_every_engine",
        "engine::tests::miri_interprets_both_simd_kernels",
    ]
} else {
    &["engine::tests::digest_many_of_every_engine"]
};

/// bijou-core's library tests that run under Miri, by full name.
const BIJOU_CORE_TESTS: &[&str] = &["values::tests::short_and_long_inputs_equal_decode"];

/// What enables the SIMD backends under Miri: the features their
/// `#[target_feature]` entry points name (`arch/x86_64/ssse3/simd_schedule.rs` and
/// `arch/x86_64/avx2/lanes.rs`). If they fall short, the library's
/// `engine::tests::miri_interprets_both_simd_kernels` fails.
const X86_FEATURES: &str = "-C target-feature=+ssse3,+avx2";

pub(crate) fn main(args: &[OsString]) -> Result<(), String> {
    if flags::switches(args, USAGE, [])?.is_none() {
        return Ok(());
    }
    ensure_nightly(&["miri", "rust-src"])?;
    run_checked(&mut miri_test(&["--test", "miri"]))?;
    let mut lib = miri_test(&["--lib", "--", "--exact"]);
    lib.args(LIB_TESTS);
    expect_passed(&mut lib, LIB_TESTS)?;
    let mut core = Command::new("cargo");
    core.args([
        "+nightly",
        "miri",
        "test",
        "-p",
        "bijou-core",
        "--lib",
        "--",
        "--exact",
    ])
    .args(BIJOU_CORE_TESTS);
    expect_passed(&mut core, BIJOU_CORE_TESTS)
}

/// Runs `command` (a test run filtered to `tests`) and checks that each of
/// `tests` was seen passing: a filter that matched nothing would pass
/// silently.
fn expect_passed(command: &mut Command, tests: &[&str]) -> Result<(), String> {
    let output = run_echoed(command)?;
    let missing: Vec<&str> = tests
        .iter()
        .copied()
        .filter(|name| !output.contains(&format!("test {name} ... ok")))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "these library tests did not run under Miri (renamed?): {}",
            missing.join(", ")
        ))
    }
}

/// Runs `command`, echoing its standard output line by line as it comes,
/// and returns that output; a failure names the command.
fn run_echoed(command: &mut Command) -> Result<String, String> {
    use std::io::{BufRead, BufReader};
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    let mut output = String::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| format!("reading {command:?}: {e}"))?;
            println!("{line}");
            output.push_str(&line);
            output.push('\n');
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for {command:?}: {e}"))?;
    if status.success() {
        Ok(output)
    } else {
        Err(format!("{command:?} failed ({status})"))
    }
}

/// `cargo +nightly miri test -p sha1-fast <args>`, with the x86 features
/// added to any `RUSTFLAGS` the caller set.
fn miri_test(args: &[&str]) -> Command {
    let mut command = Command::new("cargo");
    command
        .args(["+nightly", "miri", "test", "-p", "sha1-fast"])
        .args(args);
    if cfg!(target_arch = "x86_64") {
        add_rustflags(&mut command, X86_FEATURES);
    }
    command
}
