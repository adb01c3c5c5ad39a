//! Where output goes: checksum lines to standard output (buffered), and
//! complaints to standard error as `sha1fast: ...` lines in coreutils'
//! wording, standard output flushed first so the two stay in order.

use std::fmt;
use std::io::{self, BufWriter, Stdout, Write};

/// The program name that starts every line on standard error.
pub(crate) const PROGRAM: &str = "sha1fast";

/// Something wrong, said on standard error.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Complaint {
    /// A file (or checksum list) that could not be opened or read.
    #[error("{name}: {}", describe(source))]
    File { name: String, source: io::Error },
    /// A checksum list opened but not read (coreutils' wording).
    #[error("{0}: read error")]
    ListRead(String),
    #[error("{name}: sha-1 collision attack detected (its plain sha-1 can name a different file)")]
    Collision { name: String },
    /// With `--warn`: one line of a checksum list that is not a checksum
    /// line.
    #[error("{list}: {line}: improperly formatted SHA1 checksum line")]
    Misformatted { list: String, line: u64 },
    #[error("{0}: no properly formatted checksum lines found")]
    NoChecksumLines(String),
    #[error("{0}: no file was verified")]
    NothingVerified(String),
    /// A `--check` summary: `count` lines or files of a kind.
    #[error("WARNING: {count} {}", kind.phrase(*count))]
    Summary { count: u64, kind: SummaryKind },
}

/// What a `--check` summary counts.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SummaryKind {
    Misformatted,
    Unreadable,
    Mismatched,
    Collisions,
}

impl SummaryKind {
    fn phrase(self, count: u64) -> &'static str {
        let one = count == 1;
        match (self, one) {
            (SummaryKind::Misformatted, true) => "line is improperly formatted",
            (SummaryKind::Misformatted, false) => "lines are improperly formatted",
            (SummaryKind::Unreadable, true) => "listed file could not be read",
            (SummaryKind::Unreadable, false) => "listed files could not be read",
            (SummaryKind::Mismatched, true) => "computed checksum did NOT match",
            (SummaryKind::Mismatched, false) => "computed checksums did NOT match",
            (SummaryKind::Collisions, true) => "listed file holds a sha-1 collision attack",
            (SummaryKind::Collisions, false) => "listed files hold a sha-1 collision attack",
        }
    }
}

/// An I/O error as C's `strerror` words it, without Rust's
/// ` (os error N)`.
pub(crate) fn describe(error: &io::Error) -> String {
    let text = error.to_string();
    match error.raw_os_error() {
        Some(code) => text
            .strip_suffix(&format!(" (os error {code})"))
            .map_or_else(|| text.clone(), str::to_owned),
        None => text,
    }
}

/// Standard output and standard error.
pub(crate) struct Report {
    out: BufWriter<Stdout>,
}

impl Report {
    pub(crate) fn new() -> Report {
        Report {
            out: BufWriter::with_capacity(64 * 1024, io::stdout()),
        }
    }

    /// Writes `bytes` to standard output.
    pub(crate) fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)
    }

    /// Says `complaint` on standard error.
    pub(crate) fn complain(&mut self, complaint: &Complaint) -> io::Result<()> {
        self.say(complaint)
    }

    /// `sha1fast: <message>` on standard error, after what standard
    /// output holds so far.
    pub(crate) fn say(&mut self, message: &dyn fmt::Display) -> io::Result<()> {
        self.out.flush()?;
        // Standard error failing is not worth stopping for: nothing could
        // say so.
        let _ = writeln!(io::stderr().lock(), "{PROGRAM}: {message}");
        Ok(())
    }

    /// Flushes standard output.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.out.flush()
    }
}
