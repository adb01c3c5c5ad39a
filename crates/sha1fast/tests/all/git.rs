//! `--git` beside `git hash-object`.

use crate::support::{COLLISION_FILES, Tree, args, collision_dir, run_in};
use std::ffi::OsString;

/// The digest of each line (after the `\\` of an escaped name).
fn digests(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .map(|line| &line.strip_prefix('\\').unwrap_or(line)[..40])
        .collect()
}

#[test]
fn git_equals_git_hash_object() {
    let tree = Tree::generated("git");
    // One name a line: names with a newline would split.
    let operands = tree.operands(|name| !name.contains(&b'\n'));
    let mut ours_args = args(&["--git"]);
    ours_args.extend_from_slice(&operands);
    let ours = run_in(&tree.root, "sha1fast", &ours_args, b"");
    assert_eq!(ours.status, Some(0), "{}", ours.stderr);
    let mut git_args = args(&["hash-object", "--no-filters"]);
    git_args.extend_from_slice(&operands);
    let theirs = run_in(&tree.root, "git", &git_args, b"");
    assert_eq!(theirs.status, Some(0), "{}", theirs.stderr);
    std::fs::write(tree.root.join("blobs.sha1"), &ours.stdout).expect("write list");
    let (ours, theirs) = (ours.stdout_text(), theirs.stdout_text());
    assert_eq!(digests(&ours), theirs.lines().collect::<Vec<_>>());
    assert!(theirs.lines().count() > 300);
    // The list checks with --git, and fails without it.
    let check = run_in(
        &tree.root,
        "sha1fast",
        &args(&["-c", "--quiet", "--git", "blobs.sha1"]),
        b"",
    );
    assert_eq!(
        (check.status, check.stdout_text()),
        (Some(0), String::new())
    );
    let plain = run_in(
        &tree.root,
        "sha1fast",
        &args(&["-c", "--status", "blobs.sha1"]),
        b"",
    );
    assert_eq!(plain.status, Some(1));
}

#[test]
fn git_of_standard_input_and_collision_files() {
    let tree = Tree::empty("git-stdin");
    let data = testkit::noise(46, 70_000);
    let ours = run_in(&tree.root, "sha1fast", &args(&["--git"]), &data);
    let theirs = run_in(&tree.root, "git", &args(&["hash-object", "--stdin"]), &data);
    assert_eq!(
        digests(&ours.stdout_text()),
        [theirs.stdout_text().trim_end()]
    );
    // The blob header moves the attack blocks off their alignment: git
    // names these files, and so does --git, without a collision.
    let files: Vec<OsString> = args(&COLLISION_FILES);
    let mut ours_args = args(&["--git"]);
    ours_args.extend_from_slice(&files);
    let ours = run_in(&collision_dir(), "sha1fast", &ours_args, b"");
    let mut git_args = args(&["hash-object", "--no-filters"]);
    git_args.extend_from_slice(&files);
    let theirs = run_in(&collision_dir(), "git", &git_args, b"");
    assert_eq!(ours.status, Some(0));
    assert_eq!(
        digests(&ours.stdout_text()),
        theirs.stdout_text().lines().collect::<Vec<_>>()
    );
}
