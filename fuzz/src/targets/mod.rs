//! The fuzz targets' checks, one module each, callable on stable.
//!
//! The binaries in `fuzz_targets/` hand libFuzzer's inputs to these
//! functions, and this crate's test runs every input of the kept corpus
//! (`fuzz/kept-corpus/<target>/`, a coverage-minimised corpus committed to
//! git) through them, so `cargo test` re-checks what fuzzing reached without
//! nightly or sanitizers.

pub mod bijou_batch;
pub mod bijou_decode;
pub mod bijou_roundtrip;
pub mod frame_decoder;
pub mod io_stream;
pub mod sha1_chunks;
pub mod sha1_many;

/// One fuzz target.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Its `[[bin]]` in `fuzz/Cargo.toml` and its corpus directory.
    pub name: &'static str,
    /// Its checks on one input; panics if any fails.
    pub run: fn(&[u8]),
}

/// Every target, in the order `cargo xtask fuzz` runs them.
pub const ALL: &[Target] = &[
    Target {
        name: "bijou_decode",
        run: bijou_decode::run,
    },
    Target {
        name: "bijou_roundtrip",
        run: bijou_roundtrip::run,
    },
    Target {
        name: "bijou_batch",
        run: bijou_batch::run,
    },
    Target {
        name: "io_stream",
        run: io_stream::run,
    },
    Target {
        name: "frame_decoder",
        run: frame_decoder::run,
    },
    Target {
        name: "sha1_chunks",
        run: sha1_chunks::run,
    },
    Target {
        name: "sha1_many",
        run: sha1_many::run,
    },
];

#[cfg(test)]
mod tests {
    use std::fs;
    use std::panic::{self, AssertUnwindSafe};
    use std::path::{Path, PathBuf};

    use super::{ALL, Target};

    fn fuzz_dir() -> &'static Path {
        Path::new(env!("CARGO_MANIFEST_DIR"))
    }

    /// The files of one target's kept corpus, sorted.
    fn kept_inputs(name: &str) -> Vec<PathBuf> {
        let dir = fuzz_dir().join("kept-corpus").join(name);
        let entries = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (every target keeps a corpus)", dir.display()));
        let mut inputs: Vec<PathBuf> = entries
            .map(|entry| entry.expect("a readable directory entry").path())
            .collect();
        inputs.sort();
        inputs
    }

    #[test]
    fn every_kept_input_passes_its_target() {
        for &Target { name, run } in ALL {
            let inputs = kept_inputs(name);
            assert!(!inputs.is_empty(), "{name}: the kept corpus is empty");
            for path in &inputs {
                let data = fs::read(path).expect("a readable corpus file");
                // Name the input before the panic travels up: the target's own
                // message says what failed, this says where to reproduce it.
                if panic::catch_unwind(AssertUnwindSafe(|| run(&data))).is_err() {
                    panic!(
                        "{name} fails on {}; reproduce with \
                         `cargo +nightly fuzz run {name} {}` from the repository root",
                        path.display(),
                        path.display()
                    );
                }
            }
        }
    }

    #[test]
    fn the_table_lists_every_fuzz_binary() {
        let manifest = fs::read_to_string(fuzz_dir().join("Cargo.toml")).expect("fuzz/Cargo.toml");
        let mut bins: Vec<&str> = manifest
            .lines()
            .filter_map(|line| line.strip_prefix("name = \""))
            .filter_map(|rest| rest.strip_suffix('"'))
            .filter(|&name| name != "bijou-fuzz")
            .collect();
        let mut listed: Vec<&str> = ALL.iter().map(|target| target.name).collect();
        bins.sort_unstable();
        listed.sort_unstable();
        assert_eq!(bins, listed);
    }
}
