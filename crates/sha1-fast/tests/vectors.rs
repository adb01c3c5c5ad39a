//! Known answers: the NIST CAVP byte-oriented SHA-1 files and the FIPS
//! examples under `vectors/sha1/`.

mod common;

use common::{backends, check_all};
use sha1_fast::{Digest, Sha1};
use testkit::vectors::{HashCase, load_rsp, parse_hex, read};

/// Inputs above this size are long checks (`#[ignore]`).
const LONG: u64 = 64 << 20;

fn digest_of(bytes: &[u8]) -> Digest {
    Digest::from(<[u8; 20]>::try_from(bytes).expect("the parser checked the length"))
}

fn run_rsp(file: &str, expected_count: usize) {
    let cases: Vec<HashCase> = load_rsp(file, 20).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cases.len(), expected_count, "{file}: vector count");
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

#[test]
fn nist_short_messages() {
    run_rsp("sha1/SHA1ShortMsg.rsp", 65);
}

#[test]
fn nist_long_messages() {
    run_rsp("sha1/SHA1LongMsg.rsp", 64);
}

/// One line of `vectors/sha1/fips.txt`: MESSAGE repeated REPEAT times.
struct Repeated {
    line: usize,
    repeat: u64,
    message: Vec<u8>,
    digest: Digest,
}

impl Repeated {
    fn len(&self) -> u64 {
        self.repeat * self.message.len() as u64
    }

    /// Streams the input through `hasher` in pieces of about 64 KiB.
    fn feed(&self, hasher: &mut Sha1) {
        let per_piece = (65536 / self.message.len().max(1)).max(1) as u64;
        let piece = self.message.repeat(per_piece as usize);
        for _ in 0..self.repeat / per_piece {
            hasher.update(&piece);
        }
        for _ in 0..self.repeat % per_piece {
            hasher.update(&self.message);
        }
    }
}

fn fips() -> Vec<Repeated> {
    let path = testkit::vector_path("sha1/fips.txt");
    let text = read(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let fields: Vec<&str> = content.split_whitespace().collect();
        let [repeat, message, digest] = fields[..] else {
            panic!("fips.txt:{line}: expected `REPEAT MESSAGE DIGEST`");
        };
        let repeat = repeat
            .parse()
            .unwrap_or_else(|_| panic!("fips.txt:{line}: bad REPEAT"));
        let message = if message == "-" {
            Vec::new()
        } else {
            message.as_bytes().to_vec()
        };
        let digest = parse_hex(digest)
            .filter(|d| d.len() == 20)
            .unwrap_or_else(|| panic!("fips.txt:{line}: bad DIGEST"));
        out.push(Repeated {
            line,
            repeat,
            message,
            digest: digest_of(&digest),
        });
    }
    assert_eq!(out.len(), 6, "fips.txt: vector count");
    out
}

#[test]
fn fips_examples_and_one_million_a() {
    for case in fips().iter().filter(|c| c.len() <= LONG) {
        let what = format!("fips.txt:{}", case.line);
        let whole = case.message.repeat(case.repeat as usize);
        check_all(&whole, case.digest, &[1, 3, 64, 1000], &what);
        for backend in backends() {
            let mut hasher = Sha1::with_backend(backend).unwrap();
            case.feed(&mut hasher);
            assert_eq!(hasher.finalize(), case.digest, "{backend} streamed, {what}");
        }
    }
}

/// The 1 GiB vector, streamed through every backend.
/// `cargo test -p sha1-fast --release -- --ignored` (or `cargo xtask … --long`).
#[test]
#[ignore = "hashes 1 GiB per backend"]
fn fips_one_gibibyte() {
    let long: Vec<Repeated> = fips().into_iter().filter(|c| c.len() > LONG).collect();
    assert_eq!(long.len(), 1);
    for case in &long {
        assert_eq!(case.len(), 1 << 30);
        for backend in backends() {
            let mut hasher = Sha1::with_backend(backend).unwrap();
            case.feed(&mut hasher);
            assert_eq!(
                hasher.finalize(),
                case.digest,
                "{backend}, fips.txt:{}",
                case.line
            );
        }
    }
}
