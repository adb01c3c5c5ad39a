//! `cargo xtask conformance`: every vector file against every width and
//! SHA-1 backend, one table, non-zero exit on any failure.

use std::time::{Duration, Instant};
use testkit::vectors::{BijouCase, VectorError};

const USAGE: &str = "\
Usage: cargo xtask conformance [--long] [--exhaustive]

Runs every vector file under vectors/ and prints a table: suite, cases,
passed, failed, time. Exits non-zero on any failure, naming each failing case
(input, expected, got), and on any missing or malformed vector file.

Options:
  --exhaustive  Also decode every 1-, 2- and 3-byte string with bijou32 and
                bijou64 against the naive oracle, and round-trip every u32
                through bijou32 (about a minute on 2 cores)
  --long        Also run the slow vectors (reserved for suites that have them)
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

fn bijou_file(name: &str, relative: &str) -> Suite {
    match testkit::vectors::load_bijou(relative) {
        Ok(cases) => Suite::run(name, &cases, |case: &BijouCase| {
            testkit::bijou_cases::run(case).map_err(|e| format!("{relative}:{}: {e}", case.line))
        }),
        Err(error) => Suite::unloadable(name, error),
    }
}

fn exhaustive_suites() -> Vec<Suite> {
    use testkit::exhaustive::{decode_all_strings, u32_round_trip_all};
    use testkit::oracle::Width;
    let (b32, b64) = (Width::b32(), Width::b64());
    let strings = |len: usize| {
        vec![
            Suite::sweep(&format!("bijou32 every {len}-byte string"), || {
                decode_all_strings::<u32>(&b32, len)
            }),
            Suite::sweep(&format!("bijou64 every {len}-byte string"), || {
                decode_all_strings::<u64>(&b64, len)
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

pub(crate) fn main(args: &[String]) -> Result<(), String> {
    let Some(flags) = crate::parse_flags(args, &["--long", "--exhaustive"], USAGE)? else {
        return Ok(());
    };
    let exhaustive = flags.iter().any(|f| f == "--exhaustive");

    let mut suites = vec![
        bijou_file("bijou spec vectors", "bijou/spec.txt"),
        bijou_file("bijou signed vectors", "bijou/signed.txt"),
    ];
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
