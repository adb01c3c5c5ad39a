//! A command's arguments, read with lexopt, plus the rules every command
//! shares: `-h`/`--help` anywhere before `--` asks for the usage, but only
//! once the whole line has parsed (`--bogus --help` is an error, not help);
//! an option's value is never a flag (`--report --quick` forgot the
//! directory); whatever follows `--` is passed on untouched.

use std::ffi::OsString;

pub(crate) use lexopt::Arg::{Long, Short, Value};

/// The arguments after a command's name.
pub(crate) struct Args {
    parser: lexopt::Parser,
    usage: &'static str,
    help: bool,
    /// Set at `--`: what follows is for [`Args::rest`].
    ended: bool,
}

impl Args {
    pub(crate) fn new(args: &[OsString], usage: &'static str) -> Args {
        Args {
            parser: lexopt::Parser::from_args(args),
            usage,
            help: false,
            ended: false,
        }
    }

    /// The next option or operand; `None` at the end or at `--`. Help
    /// options are noted for [`Args::finish`] rather than returned.
    pub(crate) fn next(&mut self) -> Result<Option<lexopt::Arg<'_>>, String> {
        if self.ended {
            return Ok(None);
        }
        // Seen whole, before lexopt splits them: `--` ends the options and
        // a help option never reaches the command.
        if let Some(mut raw) = self.parser.try_raw_args() {
            while let Some(arg) = raw.next_if(|arg| arg == "-h" || arg == "--help" || arg == "--") {
                if arg == "--" {
                    self.ended = true;
                    return Ok(None);
                }
                self.help = true;
            }
        }
        let usage = self.usage;
        self.parser.next().map_err(|error| {
            let what = match error {
                lexopt::Error::UnexpectedValue { option, value } => format!(
                    "`{option}` takes no value, found `{}`",
                    value.to_string_lossy()
                ),
                other => other.to_string(),
            };
            format!("{what}\n\n{usage}")
        })
    }

    /// The value of option `name`, which has just been read.
    pub(crate) fn value(&mut self, name: &str) -> Result<String, String> {
        let usage = self.usage;
        let value = self
            .parser
            .value()
            .map_err(|_| format!("`{name}` needs a value\n\n{usage}"))?;
        let value = string(value)?;
        if value.starts_with("--") {
            return Err(format!(
                "`{name}` needs a value, found the flag `{value}`\n\n{usage}"
            ));
        }
        Ok(value)
    }

    /// Everything after `--`, for a command that passes it on.
    pub(crate) fn rest(&mut self) -> Result<Vec<String>, String> {
        if !self.ended {
            return Ok(Vec::new());
        }
        let rest: Vec<OsString> = self.parser.raw_args().map_err(|e| e.to_string())?.collect();
        rest.into_iter().map(string).collect()
    }

    /// `parsed`, or `None` after printing the usage if help was asked for.
    /// Anything left after `--` that the command did not take is an error.
    pub(crate) fn finish<T>(mut self, parsed: T) -> Result<Option<T>, String> {
        if let Some(extra) = self.parser.raw_args().ok().and_then(|mut raw| raw.next()) {
            return Err(unexpected(Value(extra), self.usage));
        }
        if self.help {
            println!("{}", self.usage);
            return Ok(None);
        }
        Ok(Some(parsed))
    }
}

/// For a command whose options are all switches: which of `names` (long
/// options, without their dashes) are on, in order; `None` after help.
pub(crate) fn switches<const N: usize>(
    args: &[OsString],
    usage: &'static str,
    names: [&str; N],
) -> Result<Option<[bool; N]>, String> {
    let mut on = [false; N];
    let mut args = Args::new(args, usage);
    while let Some(arg) = args.next()? {
        let index = match &arg {
            Long(name) => names.iter().position(|known| known == name),
            _ => None,
        };
        match index {
            Some(index) => on[index] = true,
            None => return Err(unexpected(arg, usage)),
        }
    }
    args.finish(on)
}

/// The error for an argument the command does not take.
pub(crate) fn unexpected(arg: lexopt::Arg<'_>, usage: &str) -> String {
    let what = match arg {
        Short(c) => format!("unknown option `-{c}`"),
        Long(name) => format!("unknown option `--{name}`"),
        Value(value) => format!("unexpected argument `{}`", value.to_string_lossy()),
    };
    format!("{what}\n\n{usage}")
}

/// An argument as text: the commands take no other.
pub(crate) fn string(arg: OsString) -> Result<String, String> {
    arg.into_string()
        .map_err(|arg| format!("`{}` is not valid UTF-8", arg.to_string_lossy()))
}

/// Appends `item` unless `list` holds it already: a repeatable option given
/// the same value twice (`--bench sha1 --bench sha1`) means it once, in the
/// place it first came, rather than running the same thing twice.
pub(crate) fn push_once<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// `list` as the command-line arguments the parsers take.
#[cfg(test)]
pub(crate) fn args(list: &[&str]) -> Vec<OsString> {
    list.iter().map(OsString::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`parse`] read.
    #[derive(Debug, Default, PartialEq)]
    struct Parsed {
        flag: bool,
        values: Vec<String>,
        rest: Vec<String>,
    }

    /// `--flag` and `--value V` (also `--value=V`), `--` passed on.
    fn parse(line: &[&str]) -> Result<Option<Parsed>, String> {
        let mut args = Args::new(&super::args(line), "USAGE");
        let mut parsed = Parsed::default();
        while let Some(arg) = args.next()? {
            match arg {
                Long("flag") => parsed.flag = true,
                Long("value") => parsed.values.push(args.value("--value")?),
                other => return Err(unexpected(other, "USAGE")),
            }
        }
        parsed.rest = args.rest()?;
        args.finish(parsed)
    }

    #[test]
    fn reads_flags_values_and_what_follows_the_separator() {
        let parsed = parse(&["--value", "a", "--flag", "--value=-", "--", "--x", "-h"]);
        let expected = Parsed {
            flag: true,
            values: vec!["a".into(), "-".into()],
            rest: vec!["--x".into(), "-h".into()],
        };
        assert_eq!(parsed, Ok(Some(expected)));
        assert_eq!(parse(&[]), Ok(Some(Parsed::default())));
    }

    #[test]
    fn an_unknown_option_is_an_error_that_names_it() {
        for (line, expected) in [
            (&["--bogus"][..], "unknown option `--bogus`"),
            (&["-x"], "unknown option `-x`"),
            (&["extra"], "unexpected argument `extra`"),
            (&["--flag=yes"], "`--flag` takes no value, found `yes`"),
        ] {
            let error = parse(line).unwrap_err();
            assert!(error.starts_with(expected), "{line:?}: {error}");
            assert!(error.ends_with("\n\nUSAGE"), "{line:?}: {error}");
        }
    }

    #[test]
    fn an_option_value_is_never_a_flag() {
        let error = parse(&["--value", "--flag"]).unwrap_err();
        assert!(
            error.starts_with("`--value` needs a value, found the flag `--flag`"),
            "{error}"
        );
        let error = parse(&["--value"]).unwrap_err();
        assert!(error.starts_with("`--value` needs a value"), "{error}");
    }

    #[test]
    fn help_is_given_only_for_a_line_that_parses() {
        assert_eq!(parse(&["--help"]), Ok(None));
        assert_eq!(parse(&["--flag", "-h"]), Ok(None));
        for line in [
            &["--bogus", "--help"][..],
            &["-h", "--bogus"],
            &["--help", "--value"],
        ] {
            assert!(parse(line).is_err(), "{line:?}");
        }
    }

    #[test]
    fn switches_are_on_when_given() {
        let two = |line: &[&str]| switches(&args(line), "USAGE", ["a", "b"]);
        assert_eq!(two(&[]), Ok(Some([false, false])));
        assert_eq!(two(&["--b", "--b"]), Ok(Some([false, true])));
        assert_eq!(two(&["--b", "--help"]), Ok(None));
        assert!(
            two(&["--c"])
                .unwrap_err()
                .starts_with("unknown option `--c`")
        );
        let none = |line: &[&str]| switches(&args(line), "USAGE", []);
        assert_eq!(none(&[]), Ok(Some([])));
        assert!(none(&["--a"]).unwrap_err().contains("`--a`"));
        let error = none(&["--", "x"]).unwrap_err();
        assert!(error.starts_with("unexpected argument `x`"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn an_argument_that_is_not_utf8_is_an_error() {
        use std::os::unix::ffi::OsStringExt;
        let bad = OsString::from_vec(vec![b'a', 0xFF]);
        let mut args = Args::new(&[OsString::from("--value"), bad], "USAGE");
        assert!(matches!(args.next(), Ok(Some(Long("value")))));
        let error = args.value("--value").unwrap_err();
        assert!(error.contains("not valid UTF-8"), "{error}");
    }
}
