//! `--check`: each operand is a checksum list; every file it names is
//! hashed (in parallel, reported in list order) and compared, with
//! `sha1sum -c`'s report lines, summary warnings and exit status.
//!
//! A file that holds a collision attack is never `OK` by its plain
//! digest: it is reported `FAILED` with a line on standard error, and
//! counted in a summary of its own. With `--mitigated` the list's digest
//! is compared with the mitigated one, which the colliding twin does not
//! share, and the attack is still reported.

use crate::algorithm::Algorithm;
use crate::checkline::{Entry, LineReader};
use crate::escape::{needs_escape_in_report, push_escaped};
use crate::options::{Detection, Options};
use crate::pool::{self, Source};
use crate::quote::quote;
use crate::report::{Complaint, Report, SummaryKind};
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};

/// Checks every list; returns whether all passed.
///
/// # Errors
///
/// A failure to write standard output.
pub(crate) fn run(options: &Options, report: &mut Report) -> io::Result<bool> {
    // The reversed form, once decided, holds across lists, as in sha1sum.
    let mut reader = LineReader::default();
    let mut ok = true;
    for list in &options.files {
        ok &= check_list(options, list, &mut reader, report)?;
    }
    Ok(ok)
}

/// What a list's line is.
enum Line {
    Misformatted { number: u64 },
    Entry(Entry),
}

/// The counts behind a list's summary.
#[derive(Default)]
struct Tally {
    misformatted: u64,
    unreadable: u64,
    mismatched: u64,
    collisions: u64,
    matched: bool,
}

/// A list's contents, or `None` after saying why there are none.
fn read_list(list: &OsStr, shown: &str, report: &mut Report) -> io::Result<Option<Vec<u8>>> {
    let mut contents = Vec::new();
    if list == "-" {
        if io::stdin().lock().read_to_end(&mut contents).is_err() {
            report.complain(&Complaint::ListRead(shown.to_owned()))?;
            return Ok(None);
        }
        return Ok(Some(contents));
    }
    let mut file = match File::open(list) {
        Ok(file) => file,
        Err(source) => {
            report.complain(&Complaint::File {
                name: shown.to_owned(),
                source,
            })?;
            return Ok(None);
        }
    };
    if file.read_to_end(&mut contents).is_err() {
        report.complain(&Complaint::ListRead(shown.to_owned()))?;
        return Ok(None);
    }
    Ok(Some(contents))
}

/// The lines of a list that matter: comments (`#` first) and empty
/// lines are skipped; a line's `\n` and then one `\r` are dropped.
fn parse_list(contents: &[u8], from_stdin: bool, reader: &mut LineReader) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut rest = contents;
    let mut number = 0;
    while !rest.is_empty() {
        number += 1;
        let (mut line, after) = match rest.iter().position(|&b| b == b'\n') {
            Some(end) => (&rest[..end], &rest[end + 1..]),
            None => (rest, &[][..]),
        };
        rest = after;
        if line.first() == Some(&b'#') {
            continue;
        }
        if let Some(without_cr) = line.strip_suffix(b"\r") {
            line = without_cr;
        }
        if line.is_empty() {
            continue;
        }
        match reader.read(line) {
            // A list on standard input cannot name standard input.
            Some(entry) if !(from_stdin && entry.name == b"-") => lines.push(Line::Entry(entry)),
            _ => lines.push(Line::Misformatted { number }),
        }
    }
    lines
}

/// Where an entry's file is read from.
fn source(name: &[u8]) -> Source<'_> {
    if name == b"-" {
        Source::Stdin
    } else {
        Source::Path(path_of(name))
    }
}

#[cfg(unix)]
fn path_of(name: &[u8]) -> &std::path::Path {
    use std::os::unix::ffi::OsStrExt;
    std::path::Path::new(OsStr::from_bytes(name))
}

#[cfg(not(unix))]
fn path_of(name: &[u8]) -> &std::path::Path {
    // Names that are not UTF-8 cannot be opened by name here.
    std::path::Path::new(std::str::from_utf8(name).unwrap_or("\u{FFFD}"))
}

/// Checks one list; returns whether it passed.
fn check_list(
    options: &Options,
    list: &OsStr,
    reader: &mut LineReader,
    report: &mut Report,
) -> io::Result<bool> {
    let from_stdin = list == "-";
    let shown = quote(if from_stdin {
        b"standard input"
    } else {
        list.as_encoded_bytes()
    });
    let Some(contents) = read_list(list, &shown, report)? else {
        return Ok(false);
    };
    let lines = parse_list(&contents, from_stdin, reader);
    let entries: Vec<&Entry> = lines
        .iter()
        .filter_map(|line| match line {
            Line::Entry(entry) => Some(entry),
            Line::Misformatted { .. } => None,
        })
        .collect();
    let sources: Vec<Source<'_>> = entries.iter().map(|e| source(&e.name)).collect();
    let algorithm = Algorithm {
        detection: options.detection,
        git: options.git,
    };

    let mut tally = Tally::default();
    let mut pending = lines.iter();
    let mut out = Vec::new();
    pool::hash_in_order(algorithm, &sources, |index, outcome| {
        // The misformatted lines before this entry, in their place.
        for line in pending.by_ref() {
            match line {
                Line::Misformatted { number } => {
                    misformatted(options, &shown, *number, &mut tally, report)?;
                }
                Line::Entry(_) => break,
            }
        }
        out.clear();
        verify(
            options,
            entries[index],
            outcome,
            &mut tally,
            &mut out,
            report,
        )?;
        report.write(&out)
    })?;
    for line in pending {
        if let Line::Misformatted { number } = line {
            misformatted(options, &shown, *number, &mut tally, report)?;
        }
    }

    if entries.is_empty() {
        report.complain(&Complaint::NoChecksumLines(shown))?;
        return Ok(false);
    }
    if !options.status {
        summarize(&tally, report)?;
        if options.ignore_missing && !tally.matched {
            report.complain(&Complaint::NothingVerified(shown))?;
        }
    }
    Ok(tally.matched
        && tally.mismatched == 0
        && tally.unreadable == 0
        && tally.collisions == 0
        && (!options.strict || tally.misformatted == 0))
}

fn misformatted(
    options: &Options,
    shown: &str,
    number: u64,
    tally: &mut Tally,
    report: &mut Report,
) -> io::Result<()> {
    tally.misformatted += 1;
    if options.warn {
        report.complain(&Complaint::Misformatted {
            list: shown.to_owned(),
            line: number,
        })?;
    }
    Ok(())
}

/// Compares one entry's file with its digest; its report line goes to
/// `out`, complaints straight to `report`.
fn verify(
    options: &Options,
    entry: &Entry,
    outcome: pool::Outcome,
    tally: &mut Tally,
    out: &mut Vec<u8>,
    report: &mut Report,
) -> io::Result<()> {
    let verdict: &[u8] = match outcome {
        Err(e) if options.ignore_missing && e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            tally.unreadable += 1;
            report.complain(&Complaint::File {
                name: quote(&entry.name),
                source,
            })?;
            b"FAILED open or read"
        }
        Ok(hashed) => {
            if hashed.collision {
                tally.collisions += 1;
                report.complain(&Complaint::Collision {
                    name: quote(&entry.name),
                })?;
            }
            if hashed.collision && options.detection == Detection::On {
                b"FAILED"
            } else if hashed.digest == entry.digest {
                tally.matched = true;
                if options.quiet {
                    return Ok(());
                }
                b"OK"
            } else {
                tally.mismatched += 1;
                b"FAILED"
            }
        }
    };
    if !options.status {
        if needs_escape_in_report(&entry.name) {
            out.push(b'\\');
            push_escaped(out, &entry.name);
        } else {
            out.extend_from_slice(&entry.name);
        }
        out.extend_from_slice(b": ");
        out.extend_from_slice(verdict);
        out.push(b'\n');
    }
    Ok(())
}

fn summarize(tally: &Tally, report: &mut Report) -> io::Result<()> {
    for (count, kind) in [
        (tally.misformatted, SummaryKind::Misformatted),
        (tally.unreadable, SummaryKind::Unreadable),
        (tally.mismatched, SummaryKind::Mismatched),
        (tally.collisions, SummaryKind::Collisions),
    ] {
        if count != 0 {
            report.complain(&Complaint::Summary { count, kind })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_list;
    use crate::algorithm::Hashed;
    use crate::checkline::{Entry, LineReader};
    use crate::sum::LineFormat;
    use proptest::prelude::*;
    use sha1_fast::Digest;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Every line the hashing mode writes (all its forms) reads back
        /// as the name and digest it was written from.
        #[test]
        fn written_lines_read_back(
            name in proptest::collection::vec(1u8.., 1..40),
            bytes in any::<[u8; 20]>(),
            tag in any::<bool>(),
            binary in any::<bool>(),
        ) {
            let digest = Digest::from_bytes(bytes);
            let mut line = Vec::new();
            let format = LineFormat { tag, binary: binary && !tag, zero: false };
            format.push_line(&mut line, &name, Hashed { digest, collision: false });
            let lines = parse_list(&line, false, &mut LineReader::default());
            let read: Vec<&Entry> = lines.iter().filter_map(|l| match l {
                super::Line::Entry(entry) => Some(entry),
                super::Line::Misformatted { .. } => None,
            }).collect();
            prop_assert_eq!(read.len(), 1);
            prop_assert_eq!(&read[0].name, &name);
            prop_assert_eq!(read[0].digest, digest);
        }

        /// Any bytes as a list: lines are counted, nothing panics.
        #[test]
        fn any_list_is_read_without_panic(list in proptest::collection::vec(any::<u8>(), 0..400)) {
            let lines = parse_list(&list, true, &mut LineReader::default());
            prop_assert!(lines.len() <= list.len());
        }
    }
}
