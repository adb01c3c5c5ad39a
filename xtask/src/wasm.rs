//! `cargo xtask wasm`: the `bijou-wasm` npm package, built into
//! `crates/bijou-wasm/pkg/`, and optionally its tests and benches.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

use crate::flags;
use crate::process::run_checked;

pub(crate) const USAGE: &str = "\
Usage: cargo xtask wasm [--test] [--bench]

Builds the npm package `bijou-wasm` into crates/bijou-wasm/pkg/: the
bijou-wasm crate for wasm32-unknown-unknown twice, with Wasm SIMD (simd128)
and without, each through wasm-bindgen (--target web), beside the package's
JavaScript and TypeScript types from crates/bijou-wasm/js/ and its README. Adds the Rust target with rustup and
installs wasm-bindgen-cli at the version Cargo.lock holds for wasm-bindgen
when either is missing.

Options:
  --test        Then run the Node suite (node --test), the TypeScript check
                and the headless Chromium test of the playground page
                (needs /usr/bin/chromium, or $CHROMIUM)
  --bench       Then run the JavaScript benches against the npm peers
  -h, --help    Print this message

--test and --bench install the npm dev dependencies (npm ci) when missing.";

const TARGET: &str = "wasm32-unknown-unknown";

/// The package's two builds and their RUSTFLAGS. The `simd` build enables
/// Wasm SIMD for sha1-fast's hand-written `simd128` kernel and keeps
/// LLVM's auto-vectorizers off: their vectorized code measured no faster
/// anywhere and slower in collision detection (`docs/wasm.md`).
const FLAVORS: &[(&str, &str)] = &[
    ("baseline", ""),
    (
        "simd",
        "-C target-feature=+simd128 -C no-vectorize-loops -C no-vectorize-slp",
    ),
];

pub(crate) fn main(args: &[OsString]) -> Result<(), String> {
    let Some([test, bench]) = flags::switches(args, USAGE, ["test", "bench"])? else {
        return Ok(());
    };
    let root = testkit::workspace_root();
    let crate_dir = root.join("crates/bijou-wasm");
    let pkg = crate_dir.join("pkg");
    ensure_target()?;
    ensure_bindgen(&root)?;
    if pkg.exists() {
        std::fs::remove_dir_all(&pkg)
            .map_err(|e| format!("cannot clear {}: {e}", pkg.display()))?;
    }
    for &(flavor, rustflags) in FLAVORS {
        // A target directory per build, which CI deletes afterwards; the
        // host's RUSTFLAGS (`-C target-cpu=native`) are not for wasm.
        let target_dir = root.join("target/wasm").join(flavor);
        run_checked(
            Command::new("cargo")
                .current_dir(&root)
                .args([
                    "build",
                    "-p",
                    "bijou-wasm",
                    "--lib",
                    "--release",
                    "--target",
                    TARGET,
                ])
                .env("CARGO_TARGET_DIR", &target_dir)
                .env("RUSTFLAGS", rustflags)
                // It would win over RUSTFLAGS.
                .env_remove("CARGO_ENCODED_RUSTFLAGS"),
        )?;
        run_checked(
            Command::new("wasm-bindgen")
                .args([
                    "--target",
                    "web",
                    "--weak-refs",
                    "--no-typescript",
                    "--out-dir",
                ])
                .arg(pkg.join(flavor))
                .arg(target_dir.join(TARGET).join("release/bijou_wasm.wasm")),
        )?;
    }
    copy_sources(&crate_dir.join("js"), &pkg)?;
    let readme = crate_dir.join("README.md");
    std::fs::copy(&readme, pkg.join("README.md"))
        .map_err(|e| format!("cannot copy {}: {e}", readme.display()))?;
    println!("wasm: built crates/bijou-wasm/pkg");
    let npm_run = |script: &str| -> Result<(), String> {
        if !crate_dir.join("node_modules").exists() {
            run_checked(Command::new("npm").current_dir(&crate_dir).args([
                "ci",
                "--no-audit",
                "--no-fund",
            ]))?;
        }
        run_checked(
            Command::new("npm")
                .current_dir(&crate_dir)
                .args(["run", script]),
        )
    };
    if test {
        npm_run("test")?;
    }
    if bench {
        npm_run("bench")?;
    }
    Ok(())
}

/// Adds the wasm target with rustup unless it is installed.
fn ensure_target() -> Result<(), String> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map_err(|e| format!("cannot run rustup: {e}"))?;
    if !String::from_utf8_lossy(&installed.stdout)
        .lines()
        .any(|line| line == TARGET)
    {
        run_checked(Command::new("rustup").args(["target", "add", TARGET]))?;
    }
    Ok(())
}

/// Installs wasm-bindgen-cli at wasm-bindgen's locked version unless the
/// `wasm-bindgen` on PATH is that version (the CLI refuses other versions'
/// output anyway).
fn ensure_bindgen(root: &Path) -> Result<(), String> {
    let lock = std::fs::read_to_string(root.join("Cargo.lock"))
        .map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    let version = locked_version(&lock, "wasm-bindgen")
        .ok_or("Cargo.lock holds no wasm-bindgen: is crates/bijou-wasm a workspace member?")?;
    let current = Command::new("wasm-bindgen").arg("--version").output();
    if current.is_ok_and(|out| {
        String::from_utf8_lossy(&out.stdout).trim() == format!("wasm-bindgen {version}")
    }) {
        return Ok(());
    }
    println!("installing wasm-bindgen-cli {version}");
    let install = |locked: bool| {
        let mut command = Command::new("cargo");
        // Only the one binary, and no TLS stack (the test runner's
        // downloads need it, not wasm-bindgen): a third less to compile.
        command.args(["install", "wasm-bindgen-cli", "--bin", "wasm-bindgen"]);
        command.args(["--no-default-features", "--version", &format!("={version}")]);
        if locked {
            command.arg("--locked");
        }
        command.status().is_ok_and(|status| status.success())
    };
    // The CLI's own lock file first; a registry mirror may lack a release it
    // names, and then the newest compatible dependencies do.
    if install(true) || install(false) {
        Ok(())
    } else {
        Err(format!(
            "cannot install wasm-bindgen-cli {version} (cargo install failed twice)"
        ))
    }
}

/// The version Cargo.lock records for package `name`.
fn locked_version<'a>(lock: &'a str, name: &str) -> Option<&'a str> {
    let mut lines = lock.lines();
    lines.find(|line| {
        line.strip_prefix("name = ")
            .is_some_and(|n| n.trim_matches('"') == name)
    })?;
    lines
        .next()?
        .strip_prefix("version = ")?
        .trim_matches('"')
        .into()
}

/// Copies the package's hand-written files (`js/*`) into `pkg`.
fn copy_sources(from: &Path, pkg: &Path) -> Result<(), String> {
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("cannot list {}: {e}", from.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot list {}: {e}", from.display()))?
            .path();
        let dest = pkg.join(path.file_name().unwrap_or_default());
        std::fs::copy(&path, &dest)
            .map_err(|e| format!("cannot copy {} to {}: {e}", path.display(), dest.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::locked_version;

    #[test]
    fn finds_a_package_version_in_a_lock_file() {
        let lock = "[[package]]\nname = \"wasm-bindgen-shared\"\nversion = \"1.0.0\"\n\n\
                    [[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.130\"\n";
        assert_eq!(locked_version(lock, "wasm-bindgen"), Some("0.2.130"));
        assert_eq!(locked_version(lock, "js-sys"), None);
    }
}
