//! `cargo xtask msrv`: the library crates checked on the oldest Rust they
//! declare (`rust-version` in the workspace `Cargo.toml`), so a newer
//! language feature cannot slip in unnoticed.

use crate::flags;
use std::ffi::OsString;
use std::process::Command;

use crate::process::{run_checked, succeeds};

pub(crate) const USAGE: &str = "\
Usage: cargo xtask msrv

Type-checks the library crates (bijou-core, bijou-io, sha1-fast, bijou-serde, testkit)
with all features and all their targets (the libraries, unit and
integration tests; not the doc examples, which would need a full build) on
the toolchain named by the workspace's `rust-version`, in its own target
directory (`target/msrv`). Installs that toolchain with rustup
(minimal profile) when missing. The benches and the xtask, which users do
not build, are left out: their peer crates need newer compilers.

Options:
  -h, --help    Print this message";

/// The crates users depend on, and the testkit their tests use.
const PACKAGES: &[&str] = &[
    "bijou-core",
    "bijou-io",
    "sha1-fast",
    "bijou-serde",
    "testkit",
];

pub(crate) fn main(args: &[OsString]) -> Result<(), String> {
    if flags::switches(args, USAGE, [])?.is_none() {
        return Ok(());
    }
    let root = testkit::workspace_root();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml"))
        .map_err(|e| format!("cannot read the workspace Cargo.toml: {e}"))?;
    let version = rust_version(&manifest)
        .ok_or("the workspace Cargo.toml declares no `rust-version = \"…\"`")?;
    let toolchain = format!("+{version}");
    if !succeeds(Command::new("rustc").args([toolchain.as_str(), "--version"])) {
        println!("installing Rust {version}");
        run_checked(Command::new("rustup").args([
            "toolchain",
            "install",
            version,
            "--profile",
            "minimal",
        ]))?;
    }
    let mut check = Command::new("cargo");
    check
        .current_dir(&root)
        .args([
            toolchain.as_str(),
            "check",
            "--all-targets",
            "--all-features",
        ])
        .args(PACKAGES.iter().flat_map(|package| ["-p", package]))
        .env("CARGO_TARGET_DIR", root.join("target/msrv"))
        // Flags meant for the current compiler may not exist in the old one.
        .env_remove("RUSTFLAGS");
    run_checked(&mut check)?;
    println!("msrv: {} checked on Rust {version}", PACKAGES.join(", "));
    Ok(())
}

/// The value of the first `rust-version = "…"` line.
fn rust_version(manifest: &str) -> Option<&str> {
    manifest.lines().find_map(|line| {
        let value = line.trim().strip_prefix("rust-version")?.trim_start();
        value
            .strip_prefix('=')?
            .trim()
            .strip_prefix('"')?
            .split('"')
            .next()
    })
}

#[cfg(test)]
mod tests {
    use super::rust_version;

    #[test]
    fn reads_the_declared_version() {
        let manifest = "[workspace.package]\nedition = \"2024\"\nrust-version = \"1.88\"\n";
        assert_eq!(rust_version(manifest), Some("1.88"));
        assert_eq!(rust_version("rust-version.workspace = true\n"), None);
        assert_eq!(rust_version("[package]\nname = \"x\"\n"), None);
    }
}
