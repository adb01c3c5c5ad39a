//! Known answers: the NIST CAVP byte-oriented SHA-1 files and the FIPS
//! examples under `vectors/sha1/`.

use crate::common::{backends, check_all};
use sha1_fast::{Digest, Sha1};
use testkit::vectors::{HashCase, RepeatCase, load_repeat, load_rsp};

fn digest_of(bytes: &[u8]) -> Digest {
    Digest::from(<[u8; 20]>::try_from(bytes).expect("the parser checked the length"))
}

/// Every vector of `file` (the loader checks the count that
/// `testkit::vectors::FILES` lists: 65 short, 64 long messages).
fn run_rsp(file: &str) {
    let cases: Vec<HashCase> = load_rsp(file, 20).unwrap_or_else(|e| panic!("{e}"));
    for case in &cases {
        let what = format!("{file}:{} ({} bytes)", case.line, case.message.len());
        check_all(
            &case.message,
            digest_of(&case.digest),
            &[1, 7, 63, 64, 65],
            &what,
        );
    }
}

/// The copied files are byte for byte the ones `../shared/vectors/sha1/`
/// holds (SHA-1s taken there with `sha1sum` when they were copied, checked
/// here with the `sha1` crate), so an edit or a truncated copy fails here
/// rather than shrinking what the other tests check.
#[test]
fn copied_files_match_their_source() {
    use sha1::Digest as _;
    let pinned = [
        ("sha1/README.md", "affb84c0fadf180c604fba3aeec0fc89e1842940"),
        (
            "sha1/SHA1ShortMsg.rsp",
            "6e27f73154e85d4f4ce6e50fe51e916137c24cb5",
        ),
        (
            "sha1/SHA1LongMsg.rsp",
            "9a606b6a1e664034e418eb62d2a5eedd3c64c24b",
        ),
    ];
    for (relative, expected) in pinned {
        let path = testkit::vector_path(relative);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            digest_of(&sha1::Sha1::digest(&bytes)).to_string(),
            expected,
            "{} differs from the copy of ../shared/vectors/sha1/ it was made from; \
             copy the file again rather than editing it",
            path.display()
        );
    }
}

#[test]
fn nist_short_messages() {
    run_rsp("sha1/SHA1ShortMsg.rsp");
}

#[test]
fn nist_long_messages() {
    run_rsp("sha1/SHA1LongMsg.rsp");
}

/// The FIPS examples (`vectors/sha1/fips.txt`), all six of them (the
/// loader checks the count).
fn fips() -> Vec<RepeatCase> {
    load_repeat("sha1/fips.txt", 20).unwrap_or_else(|e| panic!("{e}"))
}

/// Streams `case`'s input through `hasher` in pieces of about 64 KiB.
fn feed(case: &RepeatCase, hasher: &mut Sha1) {
    case.for_each_piece(1 << 16, |piece| hasher.update(piece));
}

#[test]
fn fips_examples_and_one_million_a() {
    for case in fips().iter().filter(|c| !c.is_long()) {
        let what = format!("fips.txt:{}", case.line);
        let expected = digest_of(&case.digest);
        let whole = case.message.repeat(case.repeat as usize);
        check_all(&whole, expected, &[1, 3, 64, 1000], &what);
        for backend in backends() {
            let mut hasher = Sha1::with_backend(backend).unwrap();
            feed(case, &mut hasher);
            assert_eq!(hasher.finalize(), expected, "{backend} streamed, {what}");
        }
    }
}

/// The 1 GiB vector, streamed through every backend.
/// `cargo test -p sha1-fast --release -- --ignored` (or `cargo xtask … --long`).
#[test]
#[ignore = "hashes 1 GiB per backend"]
fn fips_one_gibibyte() {
    let long: Vec<RepeatCase> = fips().into_iter().filter(RepeatCase::is_long).collect();
    assert_eq!(long.len(), 1);
    for case in &long {
        assert_eq!(case.len(), 1 << 30);
        for backend in backends() {
            let mut hasher = Sha1::with_backend(backend).unwrap();
            feed(case, &mut hasher);
            assert_eq!(
                hasher.finalize(),
                digest_of(&case.digest),
                "{backend}, fips.txt:{}",
                case.line
            );
        }
    }
}
