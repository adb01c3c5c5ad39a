//! `cargo xtask conformance`: every vector file against every width and
//! SHA-1 backend, one table, non-zero exit on any failure.

use crate::flags;
use sha1_fast::{Backend, Digest, Sha1};
use std::ffi::OsString;
use std::io::Write as _;
use std::time::{Duration, Instant};
use testkit::vectors::{BijouCase, CollisionCase, HashCase, RepeatCase, VectorError};

pub(crate) const USAGE: &str = "\
Usage: cargo xtask conformance [--long] [--exhaustive]

Runs every vector file under vectors/ (bijou vectors for every width; NIST
SHA-1 ShortMsg/LongMsg and the FIPS examples on every SHA-1 backend this CPU
supports, each through a streaming Sha1, the backend's one-shot digest and
one digest_many call over the file (the 1 GiB vector of --long only
streamed), and through the default one-shot `digest`; the published SHA-1
collisions through collision-detecting SHA-1 on every backend, whole and in
pieces, in both detection modes, and with one bit flipped; bijou-serde
vectors decoded, compared and re-encoded) and prints a table:
suite, cases, passed, failed, time. Exits non-zero on any failure, naming
each failing case (input, expected, got), and on any missing or malformed
vector file.

Options:
  --exhaustive  Also decode every 1-, 2- and 3-byte string with bijou32,
                bijou64 and bijou128 against the naive oracle, and round-trip
                every u32 through bijou32 (about a minute on 2 cores)
  --long        Also run the long SHA-1 checks (the 1 GiB FIPS vector), with
                a progress bar on stderr
  -h, --help    Print this message";

/// The outcome of one suite.
struct Suite {
    name: String,
    cases: u64,
    failures: Vec<String>,
    time: Duration,
}

impl Suite {
    /// Runs `check` on every case, collecting failure messages.
    fn run<C>(name: &str, cases: &[C], check: impl Fn(&C) -> Result<(), String>) -> Suite {
        let start = Instant::now();
        let failures = cases.iter().filter_map(|case| check(case).err()).collect();
        Suite {
            name: name.to_owned(),
            cases: cases.len() as u64,
            failures,
            time: start.elapsed(),
        }
    }

    /// A suite whose vector file could not be loaded: one failed case.
    fn unloadable(name: &str, error: VectorError) -> Suite {
        Suite {
            name: name.to_owned(),
            cases: 1,
            failures: vec![error.to_string()],
            time: Duration::ZERO,
        }
    }

    /// A sweep that counts its own cases and stops at the first failure.
    fn sweep(name: &str, run: impl FnOnce() -> Result<u64, String>) -> Suite {
        // Sweeps take seconds to a minute each: say which one is running.
        eprintln!("running: {name}");
        let start = Instant::now();
        let (cases, failures) = match run() {
            Ok(cases) => (cases, Vec::new()),
            Err(failure) => (1, vec![failure]),
        };
        Suite {
            name: name.to_owned(),
            cases,
            failures,
            time: start.elapsed(),
        }
    }
}

/// Every file under `vectors/` is one a suite runs, and each holds the
/// number of vectors `testkit::vectors::FILES` lists (the loaders check the
/// counts).
fn listed_files() -> Suite {
    let start = Instant::now();
    let failures = match testkit::vectors::unlisted_files() {
        Ok(unlisted) => unlisted
            .into_iter()
            .map(|file| {
                format!(
                    "vectors/{file}: no suite runs it; list it in testkit::vectors::FILES \
                     (with its vector count) and give it a suite"
                )
            })
            .collect(),
        Err(error) => vec![error.to_string()],
    };
    Suite {
        name: "vector files all listed".to_owned(),
        cases: testkit::vectors::FILES.len() as u64,
        failures,
        time: start.elapsed(),
    }
}

fn bijou_file(name: &str, relative: &str) -> Suite {
    bijou_suite(name, relative, testkit::vectors::load_bijou(relative))
}

fn bijou_suite(name: &str, relative: &str, loaded: Result<Vec<BijouCase>, VectorError>) -> Suite {
    match loaded {
        Ok(cases) => Suite::run(name, &cases, |case: &BijouCase| {
            testkit::bijou_cases::run(case).map_err(|e| format!("{relative}:{}: {e}", case.line))
        }),
        Err(error) => Suite::unloadable(name, error),
    }
}

fn serde_file(name: &str, relative: &str) -> Suite {
    match testkit::vectors::load_serde(relative) {
        Ok(cases) => Suite::run(name, &cases, |case| {
            testkit::serde_cases::run(case).map_err(|e| format!("{relative}:{}: {e}", case.line))
        }),
        Err(error) => Suite::unloadable(name, error),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `Err` naming the case when `got` is not `expected`; `input` is shown
/// when given (a long repeated input is not held in memory: its case names
/// its unit and count).
fn compare(what: &str, input: Option<&[u8]>, expected: &[u8], got: Digest) -> Result<(), String> {
    if got.as_ref() == expected {
        return Ok(());
    }
    let shown = match input {
        Some(input) if input.len() > 32 => {
            format!(": input {}… ({} bytes)", hex(&input[..32]), input.len())
        }
        Some(input) => format!(": input {}", hex(input)),
        None => String::new(),
    };
    Err(format!(
        "{what}{shown}: expected {}, got {got}",
        hex(expected)
    ))
}

/// A streaming hasher on `backend`, checked to be on it, so a row named
/// after a backend cannot pass by testing another.
fn hasher_on(backend: Backend) -> Result<Sha1, String> {
    Sha1::with_backend(backend)
        .filter(|hasher| hasher.backend() == backend)
        .ok_or_else(|| format!("no Sha1 on the {backend} backend"))
}

/// Checks `expected` against every route through `backend`: a streaming
/// [`Sha1`] fed `feed`'s pieces, the one-shot [`Backend::digest`] of
/// `whole` (when the input is held in memory), and `batch`, its digest
/// from one [`Backend::digest_many_into`] call over the whole file (so the
/// many-message lanes see every message of the file side by side).
fn check_routes(
    what: &str,
    backend: Backend,
    expected: &[u8],
    feed: impl FnOnce(&mut Sha1),
    whole: Option<&[u8]>,
    batch: Option<Digest>,
) -> Result<(), String> {
    let mut hasher = hasher_on(backend).map_err(|e| format!("{what}: {e}"))?;
    feed(&mut hasher);
    compare(
        &format!("{what} [{backend}, Sha1]"),
        whole,
        expected,
        hasher.finalize(),
    )?;
    if let Some(input) = whole {
        let one_shot = backend.digest(input);
        compare(
            &format!("{what} [{backend}, digest]"),
            whole,
            expected,
            one_shot,
        )?;
    }
    if let Some(batch) = batch {
        compare(
            &format!("{what} [{backend}, digest_many]"),
            whole,
            expected,
            batch,
        )?;
    }
    Ok(())
}

/// `backend`'s digests of `messages` in one `digest_many_into` call.
fn digest_batch(backend: Backend, messages: &[&[u8]]) -> Vec<Digest> {
    let mut out = vec![Digest::from_bytes([0; 20]); messages.len()];
    backend
        .digest_many_into(messages, &mut out)
        .expect("one slot per message");
    out
}

/// The default dispatch's one-shot [`sha1_fast::digest`] on in-memory inputs.
fn default_digest_suite(name: &str, cases: &[(String, &[u8], &[u8])]) -> Suite {
    Suite::run(name, cases, |(what, input, expected)| {
        compare(
            &format!("{what} [digest()]"),
            Some(input),
            expected,
            sha1_fast::digest(input),
        )
    })
}

/// A suite per NIST file and backend (every route, see [`check_routes`]),
/// plus the default dispatch's one-shot `digest`.
fn sha1_rsp_suites(relative: &str, label: &str, backends: &[Backend]) -> Vec<Suite> {
    let cases = match testkit::vectors::load_rsp(relative, 20) {
        Ok(cases) => cases,
        Err(error) => return vec![Suite::unloadable(&format!("sha1 {label}"), error)],
    };
    let messages: Vec<&[u8]> = cases.iter().map(|c| c.message.as_slice()).collect();
    let mut suites: Vec<Suite> = backends
        .iter()
        .map(|&backend| {
            let batch = digest_batch(backend, &messages);
            let with_batch: Vec<(&HashCase, Digest)> = cases.iter().zip(batch).collect();
            Suite::run(
                &format!("sha1 {label} [{backend}]"),
                &with_batch,
                |&(case, batch)| {
                    check_routes(
                        &format!("{relative}:{}", case.line),
                        backend,
                        &case.digest,
                        |hasher| hasher.update(&case.message),
                        Some(&case.message),
                        Some(batch),
                    )
                },
            )
        })
        .collect();
    let named: Vec<(String, &[u8], &[u8])> = cases
        .iter()
        .map(|c| {
            (
                format!("{relative}:{}", c.line),
                &c.message[..],
                &c.digest[..],
            )
        })
        .collect();
    suites.push(default_digest_suite(
        &format!("sha1 {label} [digest()]"),
        &named,
    ));
    suites
}

/// Feeds a repeated message to `hasher` about 1 MiB per update, drawing a
/// progress bar on stderr for long inputs.
fn feed_repeated(hasher: &mut Sha1, case: &RepeatCase, label: &str) {
    let long = case.is_long();
    let mut fed = 0u64;
    let mut shown = u64::MAX;
    // A bar redrawn in place on a terminal; in a log (CI), a line a quarter.
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let (step, start) = if terminal { (1, "\r") } else { (25, "") };
    case.for_each_piece(1 << 20, |piece| {
        hasher.update(piece);
        fed += piece.len() as u64;
        let percent = fed * 100 / case.len() / step * step;
        if long && percent != shown {
            shown = percent;
            let filled = (percent / 5) as usize;
            eprint!(
                "{start}  {label} [{}{}] {percent:3}%",
                "#".repeat(filled),
                ".".repeat(20 - filled)
            );
            if !terminal {
                eprintln!();
            }
            let _ = std::io::stderr().flush();
        }
    });
    if long && terminal {
        eprintln!();
    }
}

/// A repeated-message file per backend; long inputs
/// ([`RepeatCase::is_long`], the 1 GiB FIPS check) only with `long`, and
/// only streamed. The others (at most [`RepeatCase::LONG`] bytes; a
/// million today) are also held in memory, so they take every route
/// ([`check_routes`]) and the default one-shot `digest`.
fn sha1_repeat_suites(relative: &str, label: &str, backends: &[Backend], long: bool) -> Vec<Suite> {
    let cases = match testkit::vectors::load_repeat(relative, 20) {
        Ok(cases) => cases,
        Err(error) => return vec![Suite::unloadable(&format!("sha1 {label}"), error)],
    };
    let (short, long_cases): (Vec<RepeatCase>, Vec<RepeatCase>) =
        cases.into_iter().partition(|c| !c.is_long());
    let what = |case: &RepeatCase| {
        format!(
            "{relative}:{} ({} × {:?})",
            case.line,
            case.repeat,
            String::from_utf8_lossy(&case.message)
        )
    };
    let wholes: Vec<Vec<u8>> = short
        .iter()
        .map(|c| {
            c.message
                .repeat(usize::try_from(c.repeat).expect("a short input"))
        })
        .collect();
    let messages: Vec<&[u8]> = wholes.iter().map(Vec::as_slice).collect();
    let mut suites = Vec::new();
    for &backend in backends {
        let name = format!("sha1 {label} [{backend}]");
        let batch = digest_batch(backend, &messages);
        let with_whole: Vec<(&RepeatCase, &[u8], Digest)> = short
            .iter()
            .zip(messages.iter().copied())
            .zip(batch)
            .map(|((case, whole), batch)| (case, whole, batch))
            .collect();
        suites.push(Suite::run(&name, &with_whole, |&(case, whole, batch)| {
            check_routes(
                &what(case),
                backend,
                &case.digest,
                |hasher| feed_repeated(hasher, case, &name),
                Some(whole),
                Some(batch),
            )
        }));
        if long {
            let name = format!("sha1 {label}, long [{backend}]");
            suites.push(Suite::run(&name, &long_cases, |case| {
                check_routes(
                    &what(case),
                    backend,
                    &case.digest,
                    |hasher| feed_repeated(hasher, case, &name),
                    None,
                    None,
                )
            }));
        }
    }
    let named: Vec<(String, &[u8], &[u8])> = short
        .iter()
        .zip(&messages)
        .map(|(c, whole)| (what(c), *whole, &c.digest[..]))
        .collect();
    suites.push(default_digest_suite(
        &format!("sha1 {label} [digest()]"),
        &named,
    ));
    suites
}

/// `checked::Sha1` on `backend`, checked to be on it, in the given mode.
fn checked_on(backend: Backend, reduced_round: bool) -> Result<sha1_fast::checked::Sha1, String> {
    sha1_fast::checked::Sha1::with_backend(backend)
        .filter(|hasher| hasher.backend() == backend)
        .map(|hasher| hasher.detect_reduced_round(reduced_round))
        .ok_or_else(|| format!("no checked::Sha1 on the {backend} backend"))
}

/// One colliding file on `backend`: flagged with both digests right, fed
/// whole and in 1-, 63- and 4096-byte pieces, in both detection modes; and
/// with one bit flipped in its second block, plain SHA-1 and no error.
fn check_collision(case: &CollisionCase, backend: Backend) -> Result<(), String> {
    for (reduced_round, mitigated) in [
        (false, &case.mitigated),
        (true, &case.mitigated_reduced_round),
    ] {
        for piece in [case.data.len().max(1), 1, 63, 4096] {
            let mut hasher = checked_on(backend, reduced_round)?;
            case.data.chunks(piece).for_each(|p| hasher.update(p));
            let what = format!(
                "{} (reduced round: {reduced_round}, {piece}-byte pieces)",
                case.file
            );
            let found = hasher
                .finalize()
                .err()
                .ok_or_else(|| format!("{what}: no collision detected"))?;
            compare(&format!("{what}, plain"), None, &case.plain, found.digest())?;
            compare(
                &format!("{what}, mitigated"),
                None,
                mitigated,
                found.mitigated(),
            )?;
        }
    }
    let mut flipped = case.data.clone();
    flipped[100] ^= 1;
    let mut hasher = checked_on(backend, false)?;
    hasher.update(&flipped);
    match hasher.finalize() {
        Ok(digest) => compare(
            &format!("{}, one bit flipped", case.file),
            None,
            &sha1_fast::digest(&flipped).to_bytes(),
            digest,
        ),
        Err(found) => Err(format!(
            "{}, one bit flipped: flagged as {found}",
            case.file
        )),
    }
}

/// A suite per backend for a collisions manifest.
fn collision_suites(relative: &str, label: &str, backends: &[Backend]) -> Vec<Suite> {
    match testkit::vectors::load_collisions(relative) {
        Ok(cases) => backends
            .iter()
            .map(|&backend| {
                Suite::run(
                    &format!("sha1 {label} on {backend}"),
                    &cases,
                    |case: &CollisionCase| check_collision(case, backend),
                )
            })
            .collect(),
        Err(error) => vec![Suite::unloadable(&format!("sha1 {label}"), error)],
    }
}

/// Every listed vector file through the suites of its format, so a file
/// in `testkit::vectors::FILES` cannot go unrun.
fn file_suites(long: bool) -> Vec<Suite> {
    use testkit::vectors::{Format, files};
    let backends: Vec<Backend> = Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect();
    let mut suites: Vec<Suite> = files(Format::Bijou)
        .map(|f| bijou_file(&format!("bijou {} vectors", f.name), f.path))
        .collect();
    for f in files(Format::Rsp) {
        suites.extend(sha1_rsp_suites(f.path, f.name, &backends));
    }
    for f in files(Format::Repeat) {
        suites.extend(sha1_repeat_suites(f.path, f.name, &backends, long));
    }
    for f in files(Format::Collisions) {
        suites.extend(collision_suites(f.path, f.name, &backends));
    }
    suites.extend(files(Format::Serde).map(|f| serde_file(&format!("{} vectors", f.name), f.path)));
    suites
}

fn exhaustive_suites() -> Vec<Suite> {
    use testkit::exhaustive::{decode_all_strings, u32_round_trip_all};
    use testkit::oracle::Width;
    let (b32, b64, b128) = (Width::b32(), Width::b64(), Width::b128());
    let strings = |len: usize| {
        vec![
            Suite::sweep(&format!("bijou32 every {len}-byte string"), || {
                decode_all_strings::<u32>(&b32, len)
            }),
            Suite::sweep(&format!("bijou64 every {len}-byte string"), || {
                decode_all_strings::<u64>(&b64, len)
            }),
            Suite::sweep(&format!("bijou128 every {len}-byte string"), || {
                decode_all_strings::<u128>(&b128, len)
            }),
        ]
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let mut suites: Vec<Suite> = (1..=3).flat_map(strings).collect();
    suites.push(Suite::sweep("bijou32 every u32 round trip", || {
        u32_round_trip_all(threads)
    }));
    suites
}

pub(crate) fn main(args: &[OsString]) -> Result<(), String> {
    let Some([long, exhaustive]) = flags::switches(args, USAGE, ["long", "exhaustive"])? else {
        return Ok(());
    };
    let mut suites = vec![listed_files()];
    suites.extend(file_suites(long));
    if exhaustive {
        suites.extend(exhaustive_suites());
    }
    report(&suites)
}

fn report(suites: &[Suite]) -> Result<(), String> {
    let rows: Vec<Vec<String>> = suites
        .iter()
        .map(|s| {
            let failed = s.failures.len() as u64;
            vec![
                s.name.clone(),
                s.cases.to_string(),
                (s.cases - failed.min(s.cases)).to_string(),
                failed.to_string(),
                format!("{:.2?}", s.time),
            ]
        })
        .collect();
    crate::table::print(&["suite", "cases", "passed", "failed", "time"], &rows);
    let failures: Vec<&String> = suites.iter().flat_map(|s| &s.failures).collect();
    let total: u64 = suites.iter().map(|s| s.cases).sum();
    println!();
    if failures.is_empty() {
        println!("conformance: {total} passed, 0 failed");
        Ok(())
    } else {
        for failure in &failures {
            eprintln!("FAIL {failure}");
        }
        Err(format!(
            "{} of {total} conformance cases failed",
            failures.len()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use testkit::vectors::{parse_bijou, parse_rsp};

    #[test]
    fn a_malformed_vector_file_fails_the_run_with_its_line() {
        let suite = bijou_suite(
            "bad",
            "bad.txt",
            parse_bijou("bad.txt", "bijou64 0 00\nbijou64 12 zz\n"),
        );
        assert_eq!(suite.failures.len(), 1);
        assert!(
            suite.failures[0].contains("bad.txt:2") && suite.failures[0].contains("bad hex"),
            "{:?}",
            suite.failures
        );
        assert!(report(&[suite]).is_err());
    }

    #[test]
    fn a_wrong_vector_names_input_expected_and_got() {
        let suite = bijou_suite("wrong", "w.txt", parse_bijou("w.txt", "bijou64 301 F834\n"));
        assert!(
            suite.failures[0].contains("F834") && suite.failures[0].contains("301"),
            "{:?}",
            suite.failures
        );

        let cases = parse_rsp(
            "r.rsp",
            "Len = 24\nMsg = 616263\nMD = 0000000000000000000000000000000000000000\n",
            20,
        )
        .unwrap();
        let message = compare(
            "r.rsp:1",
            Some(&cases[0].message),
            &cases[0].digest,
            sha1_fast::digest(&cases[0].message),
        )
        .unwrap_err();
        assert!(
            message.contains("616263") && message.contains("a9993e36"),
            "{message}"
        );
    }

    /// Every byte of a digest counts: one wrong in its last byte fails.
    #[test]
    fn a_digest_wrong_in_its_last_byte_fails() {
        let mut expected = sha1_fast::digest(b"abc").to_bytes();
        expected[19] ^= 1;
        let failure = compare("x", None, &expected, sha1_fast::digest(b"abc")).unwrap_err();
        assert!(failure.contains("d89c"), "{failure}");
    }

    /// Each route of each backend is checked on its own: making one of
    /// them wrong fails the case and names that route.
    #[test]
    fn every_route_of_every_backend_is_checked() {
        let abc = sha1_fast::digest(b"abc");
        let abd = sha1_fast::digest(b"abd");
        let expected = abc.to_bytes();
        let right: &[u8] = b"abc";
        let wrong: &[u8] = b"abd";
        for &backend in Backend::ALL.iter().filter(|b| b.is_available()) {
            let check = |stream: &[u8], whole: &[u8], batch: Digest| {
                check_routes(
                    "x",
                    backend,
                    &expected,
                    |hasher| hasher.update(stream),
                    Some(whole),
                    Some(batch),
                )
            };
            assert_eq!(check(right, right, abc), Ok(()));
            for (route, result) in [
                ("Sha1", check(wrong, right, abc)),
                ("digest", check(right, wrong, abc)),
                ("digest_many", check(right, right, abd)),
            ] {
                let failure = result.unwrap_err();
                assert!(
                    failure.contains(&format!("[{backend}, {route}]")),
                    "{failure}"
                );
            }
        }
    }

    #[test]
    fn the_checked_in_vectors_pass() {
        let suites = file_suites(false);
        assert!(suites.iter().all(|s| s.cases > 0));
        assert!(report(&suites).is_ok());
        assert!(listed_files().failures.is_empty());
    }
}
