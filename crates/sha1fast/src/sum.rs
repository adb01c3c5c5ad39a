//! Hashing mode: a checksum line per file, in `sha1sum`'s formats.

use crate::algorithm::{Algorithm, Hashed};
use crate::escape::{needs_escape, push_escaped};
use crate::options::Options;
use crate::pool::{self, Source};
use crate::quote::quote;
use crate::report::{Complaint, Report};
use std::ffi::OsString;
use std::io;
use std::path::Path;

/// How checksum lines are written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineFormat {
    /// `SHA1 (name) = hex`.
    pub(crate) tag: bool,
    /// `hex *name` rather than `hex  name`.
    pub(crate) binary: bool,
    /// NUL-terminated, names not escaped.
    pub(crate) zero: bool,
}

impl LineFormat {
    /// Appends the line for `name`: `sha1sum`'s, with `*coll*` where
    /// `sha1cdsum` puts it for a file that holds a collision attack
    /// (before the name, or before the digest in `--tag` lines).
    pub(crate) fn push_line(self, line: &mut Vec<u8>, name: &[u8], hashed: Hashed) {
        let escape = !self.zero && needs_escape(name);
        if escape {
            line.push(b'\\');
        }
        let push_name = |line: &mut Vec<u8>| {
            if escape {
                push_escaped(line, name);
            } else {
                line.extend_from_slice(name);
            }
        };
        let hex = hashed.digest.to_string();
        let coll: &[u8] = if hashed.collision { b"*coll* " } else { b"" };
        if self.tag {
            line.extend_from_slice(b"SHA1 (");
            push_name(line);
            line.extend_from_slice(b") = ");
            line.extend_from_slice(coll);
            line.extend_from_slice(hex.as_bytes());
        } else {
            line.extend_from_slice(hex.as_bytes());
            line.push(b' ');
            if hashed.collision {
                line.extend_from_slice(coll);
            } else {
                line.push(if self.binary { b'*' } else { b' ' });
            }
            push_name(line);
        }
        line.push(if self.zero { b'\0' } else { b'\n' });
    }
}

/// The bytes of a file name as given.
pub(crate) fn name_bytes(name: &OsString) -> &[u8] {
    name.as_encoded_bytes()
}

/// Where an operand is read from: `-` is standard input.
pub(crate) fn source(name: &OsString) -> Source<'_> {
    if name == "-" {
        Source::Stdin
    } else {
        Source::Path(Path::new(name))
    }
}

/// Hashes every operand and prints its line; returns whether all were
/// read and none holds a collision attack.
///
/// # Errors
///
/// A failure to write standard output.
pub(crate) fn run(options: &Options, report: &mut Report) -> io::Result<bool> {
    let algorithm = Algorithm {
        detection: options.detection,
        git: options.git,
    };
    let format = LineFormat {
        tag: options.tag,
        binary: options.binary,
        zero: options.zero,
    };
    let sources: Vec<Source<'_>> = options.files.iter().map(source).collect();
    let mut ok = true;
    let mut line = Vec::new();
    pool::hash_in_order(algorithm, &sources, |index, outcome| {
        let name = name_bytes(&options.files[index]);
        match outcome {
            Ok(hashed) => {
                line.clear();
                format.push_line(&mut line, name, hashed);
                report.write(&line)?;
                if hashed.collision {
                    ok = false;
                    report.complain(&Complaint::Collision { name: quote(name) })?;
                }
            }
            Err(source) => {
                ok = false;
                report.complain(&Complaint::File {
                    name: quote(name),
                    source,
                })?;
            }
        }
        Ok::<(), io::Error>(())
    })?;
    Ok(ok)
}
