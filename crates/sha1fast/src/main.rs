//! `sha1fast`: coreutils `sha1sum`, byte for byte, with SHA-1 collision
//! detection on by default and files hashed on every core.
//!
//! ```text
//! sha1fast FILE...              hex  name lines, as sha1sum prints them
//! sha1fast --tag | -z | -b      sha1sum's other line forms
//! sha1fast -c LIST              verify a sha1sum list (--quiet, --status, ...)
//! sha1fast --mitigated FILE     the safe hash of a file that holds an attack
//! sha1fast --git FILE           git blob ids, as git hash-object prints them
//! sha1fast --no-detect FILE     plain SHA-1
//! ```
//!
//! Modules, each using only those listed before it: `options` (the
//! command line), `quote` and `escape` (names in messages and in lines),
//! `algorithm` (which digest), `input` (reading files), `pool` (threads,
//! results in order), `report` (standard output and error), `sum`
//! (hashing mode), `checkline` and `check` (`--check`).

mod algorithm;
mod check;
mod checkline;
mod escape;
mod input;
mod options;
mod pool;
mod quote;
mod report;
mod sum;

use options::Command;
use report::{PROGRAM, Report, describe};
use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let command = match options::parse(std::env::args_os().skip(1)) {
        Ok(command) => command,
        Err(error) => {
            eprintln!("{PROGRAM}: {error}\nTry '{PROGRAM} --help' for more information.");
            return ExitCode::FAILURE;
        }
    };
    let options = match command {
        Command::Help => return print(options::HELP),
        Command::Version => {
            return print(&format!(
                "{PROGRAM} {}\nSHA-1 backend: {}\n",
                env!("CARGO_PKG_VERSION"),
                sha1_fast::Backend::detect()
            ));
        }
        Command::Run(options) => options,
    };
    let mut report = Report::new();
    let result = if options.check {
        check::run(&options, &mut report)
    } else {
        sum::run(&options, &mut report)
    };
    match result.and_then(|ok| report.finish().map(|()| ok)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        // A reader that stopped early (`| head`) is not an error to
        // report.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("{PROGRAM}: write error: {}", describe(&error));
            ExitCode::FAILURE
        }
    }
}

/// Prints `text` (help, version) to standard output.
fn print(text: &str) -> ExitCode {
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{PROGRAM}: write error: {}", describe(&error));
            ExitCode::FAILURE
        }
    }
}
