//! Running the tools the commands drive: checked runs whose failure names
//! the command, quiet probes, `RUSTFLAGS` and the nightly toolchain.

use std::process::{Command, Stdio};

/// Runs `command` with inherited output; a failure names the command.
pub(crate) fn run_checked(command: &mut Command) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed ({status})"))
    }
}

/// Whether `command` runs and exits successfully (its output discarded).
pub(crate) fn succeeds(command: &mut Command) -> bool {
    command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Sets `RUSTFLAGS` for `command` to the caller's, if any, followed by
/// `extra`: what the caller asked for still applies.
pub(crate) fn add_rustflags(command: &mut Command, extra: &str) {
    let mut flags = std::env::var_os("RUSTFLAGS").unwrap_or_default();
    if !flags.is_empty() {
        flags.push(" ");
    }
    flags.push(extra);
    command.env("RUSTFLAGS", flags);
}

/// Installs the nightly toolchain and `components` of it where missing.
pub(crate) fn ensure_nightly(components: &[&str]) -> Result<(), String> {
    let mut command = Command::new("rustup");
    if succeeds(Command::new("rustup").args(["run", "nightly", "rustc", "--version"])) {
        if components.is_empty() {
            return Ok(());
        }
        // Does nothing for components already installed.
        command
            .args(["component", "add", "--toolchain", "nightly"])
            .args(components);
    } else {
        println!("installing the nightly toolchain");
        // With `--component`, rustup picks the newest nightly that has them.
        command.args(["toolchain", "install", "nightly", "--profile", "minimal"]);
        for component in components {
            command.args(["--component", component]);
        }
    }
    run_checked(&mut command)
}
