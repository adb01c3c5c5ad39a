//! Collision detection on the published colliding files, beside
//! `sha1cdsum` (the sha1collisiondetection crate's sha1sum, which prints
//! the mitigated digest with `*coll*`) and the sha1dcsum digests in
//! `vectors/sha1-collisions/expected.txt`; and `sha1cdsum` on the
//! generated tree.

use crate::support::{COLLISION_FILES, Tree, args, collision_dir, run_in};
use std::ffi::OsString;

fn collision_args(flags: &[&str]) -> Vec<OsString> {
    let mut all = args(flags);
    all.extend(args(&COLLISION_FILES));
    all
}

/// FILE -> (plain SHA-1, sha1dcsum's mitigated digest) from expected.txt.
fn expected() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(collision_dir().join("expected.txt")).expect("expected.txt");
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            (
                fields[0].to_owned(),
                fields[1].to_owned(),
                fields[2].to_owned(),
            )
        })
        .collect()
}

#[test]
fn collision_files_are_flagged() {
    let run = run_in(&collision_dir(), "sha1fast", &collision_args(&[]), b"");
    assert_eq!(run.status, Some(1));
    let stdout = run.stdout_text();
    let expected = expected();
    assert_eq!(expected.len(), 4);
    for (file, plain, _) in &expected {
        assert!(
            stdout.contains(&format!("{plain} *coll* {file}\n")),
            "{file} not flagged:\n{stdout}"
        );
        assert!(
            run.stderr
                .contains(&format!("PROGRAM: {file}: sha-1 collision attack detected")),
            "{file}: {}",
            run.stderr
        );
    }
    // In `--tag` lines the mark goes before the digest, as sha1cdsum
    // puts it.
    let tagged = run_in(
        &collision_dir(),
        "sha1fast",
        &collision_args(&["--tag"]),
        b"",
    );
    assert!(tagged.stdout_text().contains(&format!(
        "SHA1 (shattered-1.pdf) = *coll* {}\n",
        expected[0].1
    )));
}

#[test]
fn mitigated_digests_equal_sha1cdsum_and_sha1dcsum() {
    let ours = run_in(
        &collision_dir(),
        "sha1fast",
        &collision_args(&["--mitigated"]),
        b"",
    );
    let theirs = run_in(&collision_dir(), "sha1cdsum", &collision_args(&[]), b"");
    assert_eq!(ours.stdout_text(), theirs.stdout_text());
    assert_eq!(ours.status, Some(1));
    for (file, _, mitigated) in expected() {
        assert!(
            ours.stdout_text()
                .contains(&format!("{mitigated} *coll* {file}\n"))
        );
    }
}

#[test]
fn no_detect_is_plain_sha1() {
    let ours = run_in(
        &collision_dir(),
        "sha1fast",
        &collision_args(&["--no-detect"]),
        b"",
    );
    let theirs = run_in(&collision_dir(), "sha1sum", &collision_args(&[]), b"");
    assert_eq!(ours, theirs);
    assert_eq!(ours.status, Some(0));
}

#[test]
fn check_refuses_a_collision_by_its_plain_digest() {
    let dir = collision_dir();
    let mut tree = Tree::empty("check-collision");
    let pdf = std::fs::read(dir.join("shattered-1.pdf")).expect("read");
    tree.add(b"shattered-1.pdf", &pdf);
    tree.add(b"fine", b"fine\n");
    let list = run_in(
        &tree.root,
        "sha1fast",
        &args(&["--no-detect", "shattered-1.pdf", "fine"]),
        b"",
    );
    std::fs::write(tree.root.join("list"), &list.stdout).expect("write list");
    let check = run_in(&tree.root, "sha1fast", &args(&["-c", "list"]), b"");
    assert_eq!(check.stdout_text(), "shattered-1.pdf: FAILED\nfine: OK\n");
    assert_eq!(check.status, Some(1));
    assert!(
        check
            .stderr
            .contains("PROGRAM: WARNING: 1 listed file holds a sha-1 collision attack\n"),
        "{}",
        check.stderr
    );
    // Without detection the same list passes, as it does for sha1sum.
    let plain = run_in(
        &tree.root,
        "sha1fast",
        &args(&["-c", "--no-detect", "list"]),
        b"",
    );
    assert_eq!(plain.status, Some(0));
}

#[test]
fn sha1cdsum_agrees_on_the_tree() {
    let mut tree = Tree::generated("sha1cdsum");
    for file in COLLISION_FILES {
        let bytes = std::fs::read(collision_dir().join(file)).expect("read");
        tree.add(format!("collisions/{file}").as_bytes(), &bytes);
    }
    // sha1cdsum takes names as UTF-8 and does not escape a carriage
    // return; every other name goes to both.
    let operands =
        tree.operands(|name| std::str::from_utf8(name).is_ok() && !name.contains(&b'\r'));
    for flags in [
        &["--mitigated"][..],
        &["--mitigated", "--tag"],
        &["--mitigated", "-z"],
    ] {
        let mut ours_args = args(flags);
        ours_args.extend_from_slice(&operands);
        let theirs_args = ours_args[1..].to_vec();
        let ours = run_in(&tree.root, "sha1fast", &ours_args, b"");
        let theirs = run_in(&tree.root, "sha1cdsum", &theirs_args, b"");
        assert_eq!(ours.stdout_text(), theirs.stdout_text(), "{flags:?}");
        assert_eq!(ours.stdout_text().matches("*coll*").count(), 4);
    }
}
