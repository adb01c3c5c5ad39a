//! `sha1fast` beside coreutils `sha1sum` on the generated tree: the same
//! bytes on standard output, the same messages on standard error, the
//! same exit status.

use crate::support::{Tree, args, assert_same, run_in};
use std::ffi::OsString;

fn with(flags: &[&str], operands: &[OsString]) -> Vec<OsString> {
    let mut all = args(flags);
    all.extend_from_slice(operands);
    all
}

#[test]
fn lines_equal_sha1sum() {
    let tree = Tree::generated("lines");
    let operands = tree.operands(|_| true);
    for flags in [
        &[][..],
        &["--tag"],
        &["-z"],
        &["-b"],
        &["--tag", "-z"],
        &["-bz"],
    ] {
        let run = assert_same(&tree.root, "sha1sum", &with(flags, &operands), b"");
        assert_eq!(run.status, Some(0), "{flags:?}");
        assert!(run.stdout.len() > 300 * 40, "{flags:?}");
    }
    let plain = run_in(
        &tree.root,
        "sha1fast",
        &with(&["--no-detect"], &operands),
        b"",
    );
    assert_eq!(plain, run_in(&tree.root, "sha1sum", &operands, b""));
}

#[test]
fn missing_unreadable_and_directory_arguments() {
    let tree = Tree::generated("errors");
    let mut operands = tree.operands(|_| true);
    for bad in ["missing", "sub", "sub/dir", "no such dir/x", "it's missing"] {
        operands.insert(3, OsString::from(bad));
    }
    let run = assert_same(&tree.root, "sha1sum", &operands, b"");
    assert_eq!(run.status, Some(1));
    assert!(
        run.stderr
            .contains("PROGRAM: missing: No such file or directory\n")
    );
    assert!(run.stderr.contains("PROGRAM: sub: Is a directory\n"));
    // Every readable file still got its line.
    assert_eq!(
        run.stdout.iter().filter(|&&b| b == b'\n').count(),
        // One line per file, plus the newlines escaped inside names
        // (none: those are written `\n`).
        tree.names.len()
    );
}

#[test]
fn standard_input() {
    let tree = Tree::empty("stdin");
    let data = testkit::noise(7, 200_000);
    for list in [&[][..], &["-"], &["-", "-"], &["--tag", "-"], &["-z"]] {
        assert_same(&tree.root, "sha1sum", &args(list), &data);
    }
}

#[test]
fn check_reads_sha1sum_lists_and_sha1sum_reads_ours() {
    let tree = Tree::generated("check");
    let operands = tree.operands(|_| true);
    for flags in [&[][..], &["--tag"], &["-b"]] {
        let list = run_in(&tree.root, "sha1sum", &with(flags, &operands), b"");
        std::fs::write(tree.root.join("theirs.sha1"), &list.stdout).expect("write list");
        let ours = run_in(&tree.root, "sha1fast", &with(flags, &operands), b"");
        std::fs::write(tree.root.join("ours.sha1"), &ours.stdout).expect("write list");
        assert_eq!(ours.stdout, list.stdout);
        for list in ["theirs.sha1", "ours.sha1"] {
            for check in [
                &["-c"][..],
                &["-c", "--quiet"],
                &["--check", "--strict", "-w"],
            ] {
                let mut all = args(check);
                all.push(OsString::from(list));
                let run = assert_same(&tree.root, "sha1sum", &all, b"");
                assert_eq!(run.status, Some(0), "{flags:?} {check:?} {list}");
            }
        }
    }
}

/// A list with every kind of line `sha1sum -c` distinguishes.
fn awkward_list(tree: &mut Tree) -> Vec<u8> {
    tree.add(b"a", b"a\n");
    tree.add(b"b c", b"b\n");
    tree.add(b"back\\slash", b"c\n");
    tree.add(b"new\nline", b"d\n");
    std::fs::create_dir_all(tree.root.join("dir")).expect("mkdir");
    let a = "3f786850e387550fdab836ed7e6dc881de23001b";
    let b = "89e6c98d92887913cadf06b2adb97f26cde4849b";
    let c = "2b66fd261ee5c6cfc8de7fa466bab600bcfe4f69";
    let d = "e983f374794de9c64e3d1c1de1d490c0756eeeda";
    format!(
        "# a comment\n\
         \n\
         {a}  a\n\
         {}  b c\r\n\
         \\{c}  back\\\\slash\n\
         \\{d} *new\\nline\n\
         SHA1 (a) = {a}\n\
         SHA1(b c)= {b}\n\
         {b}  a\n\
         {a}  missing file\n\
         {a}  dir\n\
         not a checksum line\n\
         {a}a  too-long\n\
         \\{a}  bad\\escape\n\
         \t  {a}  a\n\
         {a}  -\n",
        b.to_uppercase()
    )
    .into_bytes()
}

#[test]
fn check_options_equal_sha1sum() {
    let mut tree = Tree::empty("check-options");
    let list = awkward_list(&mut tree);
    std::fs::write(tree.root.join("list"), &list).expect("write list");
    for options in [
        &[][..],
        &["--quiet"],
        &["--status"],
        &["--warn"],
        &["-w", "--strict"],
        &["--strict"],
        &["--ignore-missing"],
        &["--ignore-missing", "--quiet", "--warn"],
        &["--status", "--warn"],
        &["--warn", "--status"],
    ] {
        let mut all = args(&["-c"]);
        all.extend(args(options));
        all.push(OsString::from("list"));
        // The line naming `-` reads standard input.
        assert_same(&tree.root, "sha1sum", &all, b"a\n");
        // The list itself from standard input, where `-` is refused.
        let mut from_stdin = args(&["-c"]);
        from_stdin.extend(args(options));
        assert_same(&tree.root, "sha1sum", &from_stdin, &list);
    }
}

#[test]
fn check_list_edge_cases() {
    let mut tree = Tree::empty("check-edges");
    tree.add(b"a", b"a\n");
    let a = "3f786850e387550fdab836ed7e6dc881de23001b";
    let lists: [(&str, String); 7] = [
        ("nothing", "no checksums here\n\n# at all\n".to_owned()),
        ("all-missing", format!("{a}  gone\n{a}  also gone\n")),
        ("reversed", format!("{a} a\n{a}  a\n")),
        ("standard-then-reversed", format!("{a}  a\n{a} a\n")),
        ("no-newline", format!("{a}  a")),
        ("empty", String::new()),
        (
            "mismatches",
            format!("{}  a\n{}  a\n", "0".repeat(40), "f".repeat(40)),
        ),
    ];
    for (name, contents) in &lists {
        std::fs::write(tree.root.join(name), contents).expect("write list");
    }
    for options in [
        &["-c"][..],
        &["-c", "--ignore-missing"],
        &["-c", "--status"],
    ] {
        for (name, _) in &lists {
            let mut all = args(options);
            all.push(OsString::from(*name));
            assert_same(&tree.root, "sha1sum", &all, b"");
        }
        // Several lists in one run, and lists that cannot be read.
        let mut all = args(options);
        all.extend(args(&[
            "reversed",
            "missing-list",
            ".",
            "mismatches",
            "nothing",
        ]));
        assert_same(&tree.root, "sha1sum", &all, b"");
    }
}

#[test]
fn usage_errors_equal_sha1sum() {
    let tree = Tree::empty("usage");
    for line in [
        &["--bogus"][..],
        &["-q"],
        &["--check=x"],
        &["--tag", "-t", "x"],
        &["-c", "--tag", "x"],
        &["-c", "-z", "x"],
        &["-c", "-b", "x"],
        &["--quiet", "x"],
        &["--status", "x"],
        &["--warn", "x"],
        &["--strict", "x"],
        &["--ignore-missing", "x"],
        &["--s", "x"],
    ] {
        let run = assert_same(&tree.root, "sha1sum", &args(line), b"");
        assert_eq!(run.status, Some(1), "{line:?}");
    }
    // Unambiguous prefixes are accepted, as getopt_long accepts them.
    assert_same(&tree.root, "sha1sum", &args(&["--ta", "--bin", "-"]), b"x");
}

#[test]
fn help_and_version() {
    let tree = Tree::empty("help");
    let help = run_in(
        &tree.root,
        "sha1fast",
        &args(&["--help", "--bogus-after-help"]),
        b"",
    );
    assert_eq!(help.status, Some(0));
    for option in [
        "--check",
        "--ignore-missing",
        "--no-detect",
        "--mitigated",
        "--git",
    ] {
        assert!(help.stdout_text().contains(option), "{option}");
    }
    let version = run_in(&tree.root, "sha1fast", &args(&["--vers"]), b"");
    assert_eq!(version.status, Some(0));
    assert!(
        version
            .stdout_text()
            .starts_with(&format!("sha1fast {}\n", env!("CARGO_PKG_VERSION")))
    );
}
