//! The exit status is what CI reads: `cargo xtask` must fail on a bad
//! command line and succeed on `--help`.

use std::process::Command;

/// Every command, as `cargo xtask help` lists them.
const COMMANDS: &[&str] = &[
    "conformance",
    "bench",
    "ladder",
    "fuzz",
    "cross",
    "miri",
    "msrv",
    "wasm",
];

fn xtask(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("the xtask binary runs")
}

#[test]
fn a_bad_command_line_fails_and_says_why() {
    for args in [
        &[][..],
        &["no-such-command"],
        &["conformance", "--no-such-flag"],
        &["bench", "--no-such-flag"],
        &["help", "no-such-command"],
    ] {
        let output = xtask(args);
        assert!(!output.status.success(), "{args:?} succeeded");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("Usage: cargo xtask"), "{args:?}: {stderr}");
    }
}

#[test]
fn help_succeeds_for_every_command() {
    for &command in COMMANDS {
        let output = xtask(&[command, "--help"]);
        assert!(output.status.success(), "{command} --help failed");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains(&format!("cargo xtask {command}")),
            "{stdout}"
        );
        let help_command = xtask(&["help", command]);
        assert!(help_command.status.success(), "help {command} failed");
        assert_eq!(
            String::from_utf8_lossy(&help_command.stdout),
            stdout,
            "help {command}"
        );
    }
}

#[test]
fn an_unknown_flag_is_an_error_even_beside_help() {
    for &command in COMMANDS {
        let output = xtask(&[command, "--bogus", "--help"]);
        assert!(
            !output.status.success(),
            "{command} --bogus --help succeeded"
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("`--bogus`"), "{command}: {stderr}");
    }
}

/// A mistake on the command line is an error message and exit status 1,
/// never a panic (101), whatever the mistake.
#[test]
fn a_bad_argument_is_an_error_not_a_panic() {
    for args in [
        &["bench", "--report"][..],
        &["bench", "--report", "--quick"],
        &["bench", "--quick=yes"],
        &["fuzz", "--seconds", "0"],
        &["fuzz", "io_stream", "sha1_many"],
        &["cross", "--target", "mips-unknown-linux-gnu"],
        &["ladder", "aes"],
        &["miri", "--", "extra"],
        &["help", "bench", "fuzz"],
    ] {
        let output = xtask(args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_an_error_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"\xFF");
    for args in [vec![bad], vec!["bench".as_ref(), "--filter".as_ref(), bad]] {
        let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(&args)
            .output()
            .expect("the xtask binary runs");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("not valid UTF-8"), "{args:?}: {stderr}");
    }
}
