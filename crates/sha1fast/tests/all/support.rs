//! What the suites share: a generated tree of awkwardly named files, and
//! running `sha1fast` and the reference tools on it.

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What a run printed and how it ended, standard error with the program
/// name replaced so two tools' messages compare.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: String,
    pub(crate) status: Option<i32>,
}

impl Run {
    pub(crate) fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// A command for `tool`, which must be installed: a missing tool fails
/// the test (CI installs them all: `.ci/run`).
pub(crate) fn tool(name: &str) -> Command {
    if name != "sha1fast" {
        let found = std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(name).is_file()));
        assert!(
            found,
            "`{name}` is not installed; these tests compare with it \
             (Debian: apt-get install coreutils git sha1cdsum; .ci/run installs them)"
        );
        return Command::new(name);
    }
    Command::new(env!("CARGO_BIN_EXE_sha1fast"))
}

/// Runs `tool` with `args` in `dir`, `stdin` as its standard input.
pub(crate) fn run_in(dir: &Path, name: &str, args: &[OsString], stdin: &[u8]) -> Run {
    let mut child = tool(name)
        .args(args)
        .current_dir(dir)
        // coreutils' messages and quoting as in a C.UTF-8 locale.
        .env("LC_ALL", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut input = child.stdin.take().expect("piped");
    input.write_all(stdin).expect("write stdin");
    drop(input);
    let output = child.wait_with_output().expect("wait");
    Run {
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).replace(name, "PROGRAM"),
        status: output.status.code(),
    }
}

/// Arguments from strings.
pub(crate) fn args(list: &[&str]) -> Vec<OsString> {
    list.iter().map(OsString::from).collect()
}

/// Asserts that `sha1fast` and `reference` agree on everything they
/// print and on the exit status.
pub(crate) fn assert_same(dir: &Path, reference: &str, args: &[OsString], stdin: &[u8]) -> Run {
    let ours = run_in(dir, "sha1fast", args, stdin);
    let theirs = run_in(dir, reference, args, stdin);
    assert_eq!(
        ours,
        theirs,
        "sha1fast and {reference} differ on {args:?}:\nours:   {}\ntheirs: {}",
        ours.stdout_text(),
        theirs.stdout_text()
    );
    ours
}

/// A directory of files made for one test, removed when dropped.
pub(crate) struct Tree {
    pub(crate) root: PathBuf,
    /// The files' names relative to `root`, in creation order.
    pub(crate) names: Vec<OsString>,
}

impl Tree {
    /// An empty directory under the system's temporary directory.
    pub(crate) fn empty(label: &str) -> Tree {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let root = std::env::temp_dir().join(format!(
            "sha1fast-test-{}-{label}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("create the test directory");
        Tree {
            root,
            names: Vec::new(),
        }
    }

    /// Adds a file `name` (bytes, so names need not be UTF-8).
    pub(crate) fn add(&mut self, name: &[u8], contents: &[u8]) {
        let name = OsString::from_vec(name.to_vec());
        let path = self.root.join(&name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create a subdirectory");
        }
        std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        self.names.push(name);
    }

    /// The generated tree: names with spaces, backslashes, newlines, a
    /// carriage return, a leading dash and bytes that are not UTF-8;
    /// empty files, files around the 64-byte block and 56-byte padding
    /// edges, files above the size that is streamed rather than read
    /// whole, and enough small ones that several threads and batches
    /// take part.
    pub(crate) fn generated(label: &str) -> Tree {
        let mut tree = Tree::empty(label);
        let odd: [&[u8]; 12] = [
            b"plain.txt",
            b"with space.txt",
            b" leading space",
            b"back\\slash",
            b"new\nline",
            b"both\\and\nnewline",
            b"carriage\rreturn",
            b"-leading-dash",
            b"star*name",
            b"sub/dir/nested.rs",
            b"quote's:colon",
            b"not-utf8-\xff\xfe",
        ];
        for (seed, name) in odd.iter().enumerate() {
            tree.add(name, &testkit::noise(seed as u64, 100 + seed * 37));
        }
        tree.add(b"empty", b"");
        for len in [1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 4096] {
            tree.add(
                format!("edge/len-{len}").as_bytes(),
                &testkit::noise(len as u64, len),
            );
        }
        for (i, len) in [300 << 10, 1 << 20, (3 << 20) + 17].into_iter().enumerate() {
            tree.add(
                format!("large/file-{i}.bin").as_bytes(),
                &testkit::noise(1000 + i as u64, len),
            );
        }
        for i in 0..300 {
            tree.add(
                format!("many/f{i:03}.rs").as_bytes(),
                &testkit::noise(2000 + i, (i as usize * 97) % 9000),
            );
        }
        tree
    }

    /// The names, with `--` first so a leading dash is not an option.
    pub(crate) fn operands(&self, filter: impl Fn(&[u8]) -> bool) -> Vec<OsString> {
        let mut operands = vec![OsString::from("--")];
        operands.extend(
            self.names
                .iter()
                .filter(|n| filter(n.as_encoded_bytes()))
                .cloned(),
        );
        operands
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The four published colliding files (`vectors/sha1-collisions/`).
pub(crate) const COLLISION_FILES: [&str; 4] = [
    "shattered-1.pdf",
    "shattered-2.pdf",
    "sha-mbles-1.bin",
    "sha-mbles-2.bin",
];

/// The directory that holds them.
pub(crate) fn collision_dir() -> PathBuf {
    testkit::vector_path("sha1-collisions")
}
