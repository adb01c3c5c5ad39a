//! The fuzz targets' checks, one module each, callable on stable.
//!
//! The binaries in `fuzz_targets/` hand libFuzzer's inputs to these
//! functions, and this crate's test runs every input of the kept corpus
//! (`fuzz/kept-corpus/<target>/`, a coverage-minimised corpus committed to
//! git) through them, so `cargo test` re-checks what fuzzing reached without
//! nightly: the checks, and each target's allocation limit, though not the
//! sanitizers.

/// One fuzz target.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Its module here, its `[[bin]]` in `fuzz/Cargo.toml` and its corpus
    /// directory.
    pub name: &'static str,
    /// Its checks on one input; panics if any fails.
    pub run: fn(&[u8]),
    /// A single allocation of this many bytes or more fails the input: what
    /// `cargo xtask fuzz` asks libFuzzer for with `-malloc_limit_mb`, and
    /// what the replay test checks with an allocator that records sizes.
    pub allocation_limit: Option<usize>,
}

/// Declares each target's module and its [`ALL`] entry from one name, so an
/// entry cannot run another target's checks.
macro_rules! targets {
    ($($name:ident $(, allocation_limit: $limit:expr)?;)*) => {
        $(pub mod $name;)*

        /// Every target, in the order `cargo xtask fuzz` runs them.
        pub const ALL: &[Target] = &[$(
            Target {
                name: stringify!($name),
                run: $name::run,
                allocation_limit: targets!(@limit $($limit)?),
            },
        )*];
    };
    (@limit $limit:expr) => { Some($limit) };
    (@limit) => { None };
}

targets! {
    bijou_decode;
    bijou_roundtrip;
    bijou_batch;
    io_stream;
    // Inputs are far below 1 MiB and the frame decoders reserve at most
    // 64 KiB ahead, so 1 MiB at once means a decoder trusted a length.
    frame_decoder, allocation_limit: 1 << 20;
    sha1_chunks;
    sha1_many;
    sha1_checked;
    // As frame_decoder: no length from the input sizes an allocation
    // before the input is seen to hold it.
    serde_canonical, allocation_limit: 1 << 20;
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::panic::{self, AssertUnwindSafe};
    use std::path::{Path, PathBuf};

    use testkit::largest_allocation::{self, RecordLargest};

    use super::{ALL, Target};

    /// The replay's stand-in for libFuzzer's `-malloc_limit_mb`.
    #[global_allocator]
    static ALLOCATOR: RecordLargest = RecordLargest;

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

    /// Why `target` fails on `data`, if it does: a panic in its checks, or
    /// an allocation over its limit.
    fn failure(target: &Target, data: &[u8]) -> Option<String> {
        largest_allocation::reset();
        if panic::catch_unwind(AssertUnwindSafe(|| (target.run)(data))).is_err() {
            return Some("its checks panic (the message is above)".to_owned());
        }
        let largest = largest_allocation::get();
        let limit = target.allocation_limit?;
        (largest >= limit)
            .then(|| format!("it allocates {largest} bytes at once (the limit is {limit})"))
    }

    #[test]
    fn every_kept_input_passes_its_target() {
        for target in ALL {
            let name = target.name;
            let inputs = kept_inputs(name);
            assert!(!inputs.is_empty(), "{name}: the kept corpus is empty");
            // Shown only with `--nocapture`: an input that aborts the process
            // (a failed allocation) cannot be named, but its target can.
            eprintln!("replaying {} inputs of {name}", inputs.len());
            for path in &inputs {
                let data = fs::read(path).expect("a readable corpus file");
                if let Some(why) = failure(target, &data) {
                    let flags = target
                        .allocation_limit
                        .map(|limit| format!(" -- -malloc_limit_mb={}", limit >> 20))
                        .unwrap_or_default();
                    panic!(
                        "{name} fails on {}: {why}; reproduce with \
                         `cargo +nightly fuzz run {name} {}{flags}` from the repository root",
                        path.display(),
                        path.display()
                    );
                }
            }
        }
    }

    #[test]
    fn the_replay_fails_on_a_panic_and_on_a_large_allocation() {
        let panics = Target {
            name: "panics",
            run: |data| assert!(data.is_empty(), "not empty"),
            allocation_limit: None,
        };
        assert_eq!(failure(&panics, b""), None);
        assert!(failure(&panics, b"x").is_some());

        let allocates = Target {
            name: "allocates",
            run: |data| drop(std::hint::black_box(vec![0u8; data.len() << 10])),
            allocation_limit: Some(1 << 20),
        };
        assert_eq!(failure(&allocates, &[0; 1023]), None);
        let why = failure(&allocates, &[0; 1024]).expect("1 MiB at once fails");
        assert!(why.contains("1048576 bytes"), "{why}");
    }

    #[test]
    fn every_binary_runs_its_own_target() {
        let manifest = fs::read_to_string(fuzz_dir().join("Cargo.toml")).expect("fuzz/Cargo.toml");
        let mut listed: Vec<&str> = ALL.iter().map(|target| target.name).collect();
        listed.sort_unstable();
        assert_eq!(
            testkit::fuzz_binaries(),
            listed,
            "the [[bin]]s of fuzz/Cargo.toml"
        );
        for name in listed {
            let path = format!("fuzz_targets/{name}.rs");
            assert!(
                manifest.contains(&format!("path = \"{path}\"")),
                "{name}: its [[bin]] is not {path}"
            );
            let source = fs::read_to_string(fuzz_dir().join(&path)).expect("the binary's source");
            assert!(
                source.contains(&format!("bijou_fuzz::targets::{name}::run(data)")),
                "{path} does not run targets::{name}"
            );
        }
    }

    #[test]
    fn every_kept_corpus_belongs_to_a_target() {
        for entry in fs::read_dir(fuzz_dir().join("kept-corpus")).expect("fuzz/kept-corpus") {
            let name = entry.expect("a readable directory entry").file_name();
            assert!(
                ALL.iter().any(|target| *target.name == *name),
                "kept-corpus/{} belongs to no target (renamed or removed?)",
                name.to_string_lossy()
            );
        }
    }
}
