//! Hashes every object of a git repository the way git names it, with
//! collision detection, and checks each id against git's.
//!
//! ```text
//! cargo run --release -p bijou-examples --example git_objects -- [--runs N] [REPO]
//! ```
//!
//! `git cat-file --batch-all-objects --batch` streams each object as a
//! header line (`<id> <type> <size>`), the object's bytes and a newline.
//! git's id of an object is the SHA-1 of `<type> <size>\0` followed by the
//! bytes, so each object is framed that way and all of them are hashed
//! with [`checked::digest_many`], which keeps several messages in flight
//! and flags a collision attack in one object without touching the
//! others' results. The program then times the same hashing against a
//! loop of the `sha1dc` crate (SHA-NI plus the C library's filter) and
//! prints the medians of `N` alternating runs each (9 by default;
//! `--runs 0` only checks, as CI does on an unoptimised build). It exits
//! non-zero if any id differs or any object holds an attack.
//!
//! With no repository named it reads the one of the current directory.

use std::error::Error;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sha1_fast::{Digest, checked};

/// One object as git hashes it: its id, and the header and bytes framed.
struct GitObject {
    id: Digest,
    framed: Vec<u8>,
}

/// Every object of the repository at `repo`, framed as git frames it.
fn read_objects(repo: &str) -> Result<Vec<GitObject>, Box<dyn Error>> {
    let mut child = Command::new("git")
        .args(["-C", repo, "cat-file", "--batch-all-objects", "--batch"])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let mut out = BufReader::with_capacity(1 << 20, child.stdout.take().expect("piped"));
    let mut objects = Vec::new();
    let mut header = String::new();
    while out.read_line(&mut header)? != 0 {
        let fields: Vec<&str> = header.split_ascii_whitespace().collect();
        let [id, kind, size] = fields[..] else {
            return Err(format!("unexpected header from git: {header:?}").into());
        };
        let id: Digest = id
            .parse()
            .map_err(|e| format!("object id {id:?} is not SHA-1 (a SHA-256 repository?): {e}"))?;
        let size: usize = size.parse()?;
        let mut framed = format!("{kind} {size}\0").into_bytes();
        let start = framed.len();
        framed.resize(start + size + 1, 0);
        out.read_exact(&mut framed[start..])?;
        if framed.pop() != Some(b'\n') {
            return Err("object not followed by a newline".into());
        }
        objects.push(GitObject { id, framed });
        header.clear();
    }
    let status = child.wait()?;
    if !status.success() {
        return Err(format!("git cat-file failed: {status}").into());
    }
    Ok(objects)
}

/// The time of one call of `hash`.
fn time(hash: impl FnOnce()) -> Duration {
    let start = Instant::now();
    hash();
    start.elapsed()
}

/// The median of `values`, which it sorts.
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn mib_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / time.as_secs_f64() / f64::from(1 << 20)
}

/// The command line: how many timed runs, and the repository.
fn parse_args() -> Result<(usize, String), Box<dyn Error>> {
    let mut runs = 9;
    let mut repo = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => {
                let n = args.next().ok_or("--runs needs a number")?;
                runs = n.parse().map_err(|e| format!("--runs {n:?}: {e}"))?;
            }
            _ if repo.is_none() && !arg.starts_with('-') => repo = Some(arg),
            _ => {
                return Err(
                    format!("unexpected argument {arg:?}; usage: [--runs N] [REPO]").into(),
                );
            }
        }
    }
    Ok((runs, repo.unwrap_or_else(|| ".".to_owned())))
}

fn main() -> Result<(), Box<dyn Error>> {
    let (runs, repo) = parse_args()?;
    let objects = read_objects(&repo)?;
    let messages: Vec<&[u8]> = objects.iter().map(|o| o.framed.as_slice()).collect();
    let bytes: usize = messages.iter().map(|m| m.len()).sum();

    let results = checked::digest_many(&messages);
    let mut failures = 0;
    for (object, result) in objects.iter().zip(&results) {
        match result {
            Ok(digest) if *digest == object.id => {}
            Ok(digest) => {
                eprintln!("{}: hashed to {digest}", object.id);
                failures += 1;
            }
            Err(attack) => {
                eprintln!("{}: {attack}", object.id);
                failures += 1;
            }
        }
    }
    println!(
        "{} objects, {:.1} MiB: {} ids checked, {failures} failures",
        objects.len(),
        bytes as f64 / f64::from(1 << 20),
        objects.len() - failures,
    );
    if failures > 0 {
        return Err(format!("{failures} objects failed their check").into());
    }

    if runs == 0 {
        return Ok(());
    }
    // The two alternate, so that both see the same load on the machine;
    // the medians of their speeds and of the per-pair ratio are printed.
    let (mut ours, mut theirs, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let a = time(|| {
            std::hint::black_box(checked::digest_many(std::hint::black_box(&messages)));
        });
        let b = time(|| {
            for message in &messages {
                let _ = std::hint::black_box(sha1dc::digest(std::hint::black_box(message)));
            }
        });
        ours.push(mib_per_s(bytes, a));
        theirs.push(mib_per_s(bytes, b));
        ratios.push(b.as_secs_f64() / a.as_secs_f64());
    }
    println!(
        "checked::digest_many {:>8.0} MiB/s\nsha1dc::digest loop  {:>8.0} MiB/s\nratio                {:>8.2}x",
        median(&mut ours),
        median(&mut theirs),
        median(&mut ratios),
    );
    Ok(())
}
