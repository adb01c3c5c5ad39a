//! What cargo says about the workspace: `cargo metadata` and the build
//! messages of `--message-format=json`, read with serde (only the fields
//! the xtask uses).

use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// `cargo` (the one running the xtask, if any), run in `root`.
pub(crate) fn command(root: &Path) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(root);
    command
}

/// `cargo metadata --no-deps` of the workspace.
#[derive(Debug, Deserialize)]
pub(crate) struct Metadata {
    /// Where cargo builds, as it resolves it (`CARGO_TARGET_DIR`, a
    /// `build.target-dir` setting or the default).
    pub(crate) target_directory: PathBuf,
    pub(crate) packages: Vec<Package>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Package {
    pub(crate) name: String,
    pub(crate) manifest_path: PathBuf,
    pub(crate) targets: Vec<Target>,
}

/// A package's target (`lib`, `bin`, `bench`, …).
#[derive(Debug, Deserialize)]
pub(crate) struct Target {
    pub(crate) name: String,
    pub(crate) kind: Vec<String>,
}

impl Target {
    /// Whether this is a `[[bench]]`.
    pub(crate) fn is_bench(&self) -> bool {
        self.kind.iter().any(|k| k == "bench")
    }
}

/// A build message that produced an executable (`compiler-artifact`).
#[derive(Debug, Deserialize)]
pub(crate) struct Artifact {
    pub(crate) target: Target,
    pub(crate) executable: Option<PathBuf>,
}

/// The workspace at `root` as `cargo metadata` (without dependencies)
/// describes it.
pub(crate) fn metadata(root: &Path) -> Result<Metadata, String> {
    let output = command(root)
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("running cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!("cargo metadata failed ({})", output.status));
    }
    serde_json::from_slice(&output.stdout).map_err(|e| format!("cargo metadata: {e}"))
}

/// The artifacts among cargo's `--message-format=json` lines; other
/// messages (and any line that is not one) are skipped.
pub(crate) fn artifacts(messages: &[u8]) -> impl Iterator<Item = Artifact> + '_ {
    messages
        .split(|&b| b == b'\n')
        .filter_map(|line| serde_json::from_slice(line).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_artifacts_and_skips_other_messages() {
        let messages = br#"{"reason":"compiler-artifact","target":{"name":"sha1","kind":["bench"],"src_path":"x"},"executable":"/t/sha1-1"}
{"reason":"build-finished","success":true}
not json
{"reason":"compiler-artifact","target":{"name":"lib","kind":["lib"]},"executable":null}"#;
        let found: Vec<Artifact> = artifacts(messages).collect();
        assert_eq!(found.len(), 2);
        assert!(found[0].target.is_bench());
        assert_eq!(found[0].executable, Some(PathBuf::from("/t/sha1-1")));
        assert!(!found[1].target.is_bench());
        assert_eq!(found[1].executable, None);
    }

    #[test]
    fn the_workspace_has_the_bench_package() {
        let metadata = metadata(&testkit::workspace_root()).unwrap();
        let benches = metadata
            .packages
            .iter()
            .find(|p| p.name == "bijou-benches")
            .unwrap();
        assert!(benches.targets.iter().any(Target::is_bench));
    }
}
