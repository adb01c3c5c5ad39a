//! `cargo xtask asm-check`: no SHA-NI kernel of sha1-fast touches a 256-
//! or 512-bit register.
//!
//! The SHA extensions exist only in legacy-SSE encoding. Run while the
//! upper halves of the vector registers are dirty (after any `ymm`/`zmm`
//! write without a `vzeroupper`), they pay for it on Intel: the checked
//! kernel ran 135 times slower when LLVM moved its lanes through `ymm`
//! (docs/sha1-checked.md). LLVM picks those registers on its own (for a
//! `memcpy` of a spill, say) in any function compiled with AVX-512 or AVX2
//! enabled, so no review catches it reliably; this reads the compiler's
//! output instead. The rule is the strict one: a function that executes a
//! SHA instruction names no `ymm` or `zmm` register at all.

use crate::flags;
use crate::process::run_checked;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) const USAGE: &str = "\
Usage: cargo xtask asm-check

Compiles sha1-fast's library for x86-64 in release mode to assembly (one
codegen unit, in `target/asm-check`) and fails if any function that holds
a SHA-NI instruction (sha1rnds4, sha1nexte, sha1msg1, sha1msg2) also names
a ymm or zmm register, listing each such function and its first offending
lines. Generic code is checked as the library's own non-generic entry
points instantiate it (`digest`, `checked::digest`, `digest_many`, ...).
On other architectures it does nothing.

Options:
  -h, --help    Print this message";

/// The legacy-SSE SHA-1 instructions.
const SHA_INSTRUCTIONS: &[&str] = &["sha1rnds4", "sha1nexte", "sha1msg1", "sha1msg2"];

pub(crate) fn main(args: &[OsString]) -> Result<(), String> {
    if flags::switches(args, USAGE, [])?.is_none() {
        return Ok(());
    }
    if !cfg!(target_arch = "x86_64") {
        println!("asm-check: not an x86-64 host, nothing to check");
        return Ok(());
    }
    let root = testkit::workspace_root();
    let target_dir = root.join("target/asm-check");
    run_checked(
        Command::new("cargo")
            .current_dir(&root)
            .args([
                "rustc",
                "--quiet",
                "--release",
                "--package",
                "sha1-fast",
                "--lib",
                "--target-dir",
            ])
            .arg(&target_dir)
            .args(["--", "--emit", "asm", "-C", "codegen-units=1"]),
    )?;
    let file = newest_assembly(&target_dir.join("release/deps"))?;
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let functions = functions(&text);
    let kernels = functions.iter().filter(|f| f.runs_sha()).count();
    let offenders: Vec<&Function<'_>> = functions.iter().filter(|f| f.is_offender()).collect();
    if offenders.is_empty() {
        println!("asm-check: {kernels} functions with SHA-NI instructions, none names ymm or zmm");
        return Ok(());
    }
    let mut report = format!(
        "{} of {kernels} functions with SHA-NI instructions name ymm/zmm registers:\n",
        offenders.len()
    );
    for function in offenders {
        let name = rustc_demangle::demangle(function.name);
        report.push_str(&format!("\n  {name:#}\n"));
        for line in function.wide_lines().take(4) {
            report.push_str(&format!("      {}\n", line.trim()));
        }
    }
    Err(report)
}

/// The `.s` file that rustc wrote last for sha1-fast.
fn newest_assembly(deps: &Path) -> Result<PathBuf, String> {
    let entries =
        std::fs::read_dir(deps).map_err(|e| format!("cannot list {}: {e}", deps.display()))?;
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("sha1_fast-") && name.ends_with(".s")
        })
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())
        .map(|e| e.path())
        .ok_or_else(|| format!("rustc wrote no sha1_fast-*.s in {}", deps.display()))
}

/// One function of an assembly listing: its symbol and its lines.
struct Function<'a> {
    name: &'a str,
    lines: Vec<&'a str>,
}

impl Function<'_> {
    fn instructions(&self) -> impl Iterator<Item = &str> {
        self.lines
            .iter()
            .copied()
            .filter(|line| !line.trim_start().starts_with(['.', '#']))
    }

    fn runs_sha(&self) -> bool {
        self.instructions().any(|line| {
            let mnemonic = line.split_whitespace().next().unwrap_or("");
            SHA_INSTRUCTIONS.contains(&mnemonic)
        })
    }

    fn wide_lines(&self) -> impl Iterator<Item = &str> {
        self.instructions()
            .filter(|line| line.contains("%ymm") || line.contains("%zmm"))
    }

    fn is_offender(&self) -> bool {
        self.runs_sha() && self.wide_lines().next().is_some()
    }
}

/// The functions of an AT&T-syntax listing as rustc writes it: each
/// starts at a global label in column 0 and runs to the next one (local
/// labels start with `.L`).
fn functions(text: &str) -> Vec<Function<'_>> {
    let mut functions: Vec<Function<'_>> = Vec::new();
    for line in text.lines() {
        let label = line
            .strip_suffix(':')
            .filter(|name| !name.starts_with(['.', '\t', ' ']) && !name.is_empty());
        match (label, functions.last_mut()) {
            (Some(name), _) => functions.push(Function {
                name,
                lines: Vec::new(),
            }),
            (None, Some(function)) => function.lines.push(line),
            (None, None) => {}
        }
    }
    functions
}

#[cfg(test)]
mod tests {
    use super::*;

    const LISTING: &str = "\
\t.text
\t.section\t.text.kernel,\"ax\",@progbits
kernel:
\tmovdqa\t(%rdi), %xmm0
.LBB0_1:
\tsha1rnds4\t$0, %xmm1, %xmm0
\tretq
.Lfunc_end0:
wide_kernel:
\tvmovdqu64\t(%rsi), %zmm0
\tvzeroupper
\tsha1nexte\t%xmm1, %xmm0
\tretq
wide_filter:
\tvmovdqu64\t(%rsi), %zmm0
\t# sha1rnds4 in a comment is no instruction
\tretq
";

    #[test]
    fn only_sha_functions_with_wide_registers_offend() {
        let functions = functions(LISTING);
        let names: Vec<&str> = functions.iter().map(|f| f.name).collect();
        assert_eq!(names, ["kernel", "wide_kernel", "wide_filter"]);
        let offenders: Vec<&str> = functions
            .iter()
            .filter(|f| f.is_offender())
            .map(|f| f.name)
            .collect();
        // A vzeroupper does not excuse it: the rule is per function.
        assert_eq!(offenders, ["wide_kernel"]);
        assert!(functions[0].runs_sha() && !functions[2].runs_sha());
    }
}
