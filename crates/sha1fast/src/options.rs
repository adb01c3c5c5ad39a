//! The command line: coreutils `sha1sum`'s options under `getopt_long`'s
//! rules (short options bundled, long ones by any unambiguous prefix,
//! operands anywhere, everything after `--` an operand), its checks of
//! which options go together, and the options of this command alone.

use std::ffi::OsString;

/// What collision detection does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Detection {
    /// Plain SHA-1 (`--no-detect`).
    Off,
    /// Attack blocks are detected; a flagged file keeps its plain digest.
    On,
    /// Attack blocks are detected; a flagged file gets the mitigated
    /// ("safe") digest, as `sha1dcsum` and `sha1cdsum` print it.
    Mitigated,
}

/// A parsed command line that hashes or checks.
#[derive(Debug)]
pub(crate) struct Options {
    /// `-c`: the operands are checksum lists.
    pub(crate) check: bool,
    /// `-b`: mark lines with `*` (binary mode).
    pub(crate) binary: bool,
    /// `--tag`: BSD-style lines.
    pub(crate) tag: bool,
    /// `-z`: NUL-terminated lines, names unescaped.
    pub(crate) zero: bool,
    pub(crate) ignore_missing: bool,
    pub(crate) quiet: bool,
    pub(crate) status: bool,
    pub(crate) strict: bool,
    pub(crate) warn: bool,
    pub(crate) detection: Detection,
    /// `--git`: hash each file as a git blob (`blob <len>\0` first).
    pub(crate) git: bool,
    /// The operands; `-` (or none at all) is standard input.
    pub(crate) files: Vec<OsString>,
}

/// What the command line asks for.
#[derive(Debug)]
pub(crate) enum Command {
    Run(Options),
    Help,
    Version,
}

/// A command line that cannot run; shown as coreutils shows its own.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum UsageError {
    #[error("unrecognized option '--{0}'")]
    UnknownLong(String),
    #[error("invalid option -- '{0}'")]
    UnknownShort(char),
    #[error("option '--{given}' is ambiguous; possibilities:{candidates}")]
    Ambiguous { given: String, candidates: String },
    #[error("option '--{0}' doesn't allow an argument")]
    UnexpectedValue(&'static str),
    #[error("{0}")]
    Conflict(&'static str),
    #[error("{0}")]
    Other(String),
}

/// Every long option, for prefix matching.
const LONG: [&str; 15] = [
    "binary",
    "check",
    "git",
    "help",
    "ignore-missing",
    "mitigated",
    "no-detect",
    "quiet",
    "status",
    "strict",
    "tag",
    "text",
    "version",
    "warn",
    "zero",
];

/// The long option `given` names: itself, or the one option it is a
/// prefix of.
fn resolve_long(given: &str) -> Result<&'static str, UsageError> {
    if let Some(exact) = LONG.iter().find(|&&name| name == given) {
        return Ok(exact);
    }
    let matches: Vec<&'static str> = LONG
        .iter()
        .copied()
        .filter(|name| name.starts_with(given))
        .collect();
    match matches[..] {
        [one] => Ok(one),
        [] => Err(UsageError::UnknownLong(given.to_owned())),
        _ => Err(UsageError::Ambiguous {
            given: given.to_owned(),
            candidates: matches.iter().map(|m| format!(" '--{m}'")).collect(),
        }),
    }
}

/// The options as `getopt_long` leaves them, before the checks of which
/// go together.
struct Raw {
    check: bool,
    /// -1 unset, 0 text, 1 binary (coreutils' tri-state: `--tag` sets it).
    binary: i8,
    tag: bool,
    zero: bool,
    ignore_missing: bool,
    quiet: bool,
    status: bool,
    strict: bool,
    warn: bool,
    no_detect: bool,
    mitigated: bool,
    git: bool,
}

/// Parses the arguments after the program name.
///
/// # Errors
///
/// [`UsageError`] for an unknown or ambiguous option, a value given to
/// an option that takes none, or options that do not go together.
pub(crate) fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    use lexopt::Arg::{Long, Short, Value};

    let mut raw = Raw {
        check: false,
        binary: -1,
        tag: false,
        zero: false,
        ignore_missing: false,
        quiet: false,
        status: false,
        strict: false,
        warn: false,
        no_detect: false,
        mitigated: false,
        git: false,
    };
    let mut files = Vec::new();
    let mut parser = lexopt::Parser::from_args(args);
    let mut last_long = "";
    loop {
        let arg = match parser.next() {
            Ok(Some(arg)) => arg,
            Ok(None) => break,
            Err(lexopt::Error::UnexpectedValue { .. }) => {
                return Err(UsageError::UnexpectedValue(last_long));
            }
            Err(other) => return Err(UsageError::Other(other.to_string())),
        };
        let name = match arg {
            Value(file) => {
                files.push(file);
                continue;
            }
            Long(given) => {
                last_long = resolve_long(given)?;
                last_long
            }
            Short(c) => match c {
                'b' => "binary",
                'c' => "check",
                't' => "text",
                'w' => "warn",
                'z' => "zero",
                other => return Err(UsageError::UnknownShort(other)),
            },
        };
        match name {
            "help" => return Ok(Command::Help),
            "version" => return Ok(Command::Version),
            other => raw.set(other),
        }
    }
    raw.finish(files).map(Command::Run)
}

impl Raw {
    /// Applies option `name` as `sha1sum`'s option loop does: the last
    /// of `--status`, `--warn` and `--quiet` wins.
    fn set(&mut self, name: &str) {
        match name {
            "binary" => self.binary = 1,
            "text" => self.binary = 0,
            "check" => self.check = true,
            "tag" => {
                self.tag = true;
                self.binary = 1;
            }
            "zero" => self.zero = true,
            "ignore-missing" => self.ignore_missing = true,
            "strict" => self.strict = true,
            "status" => (self.status, self.warn, self.quiet) = (true, false, false),
            "warn" => (self.status, self.warn, self.quiet) = (false, true, false),
            "quiet" => (self.status, self.warn, self.quiet) = (false, false, true),
            "no-detect" => self.no_detect = true,
            "mitigated" => self.mitigated = true,
            "git" => self.git = true,
            _ => unreachable!("every option in LONG is handled"),
        }
    }

    /// `sha1sum`'s checks, in its order, then this command's own.
    fn finish(self, files: Vec<OsString>) -> Result<Options, UsageError> {
        let conflict = [
            (
                self.tag && self.binary == 0,
                "--tag does not support --text mode",
            ),
            (
                self.zero && self.check,
                "the --zero option is not supported when verifying checksums",
            ),
            (
                self.tag && self.check,
                "the --tag option is meaningless when verifying checksums",
            ),
            (
                self.binary >= 0 && self.check,
                "the --binary and --text options are meaningless when verifying checksums",
            ),
            (
                self.ignore_missing && !self.check,
                "the --ignore-missing option is meaningful only when verifying checksums",
            ),
            (
                self.status && !self.check,
                "the --status option is meaningful only when verifying checksums",
            ),
            (
                self.warn && !self.check,
                "the --warn option is meaningful only when verifying checksums",
            ),
            (
                self.quiet && !self.check,
                "the --quiet option is meaningful only when verifying checksums",
            ),
            (
                self.strict && !self.check,
                "the --strict option is meaningful only when verifying checksums",
            ),
            (
                self.no_detect && self.mitigated,
                "--mitigated needs collision detection: drop --no-detect",
            ),
        ]
        .into_iter()
        .find_map(|(bad, message)| bad.then_some(message));
        if let Some(message) = conflict {
            return Err(UsageError::Conflict(message));
        }
        let detection = match (self.no_detect, self.mitigated) {
            (true, _) => Detection::Off,
            (false, true) => Detection::Mitigated,
            (false, false) => Detection::On,
        };
        Ok(Options {
            check: self.check,
            binary: self.binary == 1,
            tag: self.tag,
            zero: self.zero,
            ignore_missing: self.ignore_missing,
            quiet: self.quiet,
            status: self.status,
            strict: self.strict,
            warn: self.warn,
            detection,
            git: self.git,
            files: if files.is_empty() {
                vec![OsString::from("-")]
            } else {
                files
            },
        })
    }
}

/// `--help`.
pub(crate) const HELP: &str = "\
Usage: sha1fast [OPTION]... [FILE]...
Print or check SHA1 (160-bit) checksums, detecting collision attacks.

With no FILE, or when FILE is -, read standard input.
  -b, --binary          read in binary mode
  -c, --check           read checksums from the FILEs and check them
      --tag             create a BSD-style checksum
  -t, --text            read in text mode (default)
  -z, --zero            end each output line with NUL, not newline,
                          and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet           don't print OK for each successfully verified file
      --status          don't output anything, status code shows success
      --strict          exit non-zero for improperly formatted checksum lines
  -w, --warn            warn about improperly formatted checksum lines

Collision detection and git:
      --no-detect       plain SHA-1, without collision detection
      --mitigated       print the safe hash of a file that holds a collision
                          attack (as sha1dcsum and sha1cdsum print it)
      --git             hash each file as a git blob, as git hash-object does

      --help        display this help and exit
      --version     output version information and exit

Lines are those of coreutils sha1sum: checksum, a space, a character
indicating input mode ('*' for binary, ' ' for text), and the name;
names with a backslash, newline or carriage return are escaped and the
line starts with a backslash.

Every file is checked for the blocks a SHA-1 collision attack leaves
(sha1collisiondetection's method). A file that holds one gets '*coll*'
before its name, a line on standard error, and exit status 1.

Files are hashed in parallel, on every core; lines come in argument order.
Exit status: 0 if every file was read, matched and free of attacks, else 1.
";
