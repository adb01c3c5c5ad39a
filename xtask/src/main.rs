//! `cargo xtask`: the workspace's automation (the cargo-xtask convention: a
//! plain binary crate, aliased in `.cargo/config.toml`, nothing to install).

use std::process::ExitCode;

mod bench;
mod cargo;
mod conformance;
mod criterion;
mod cross;
mod fuzz;
mod groups;
mod ladder;
mod miri;
mod msrv;
mod process;
mod table;
mod wasm;

const USAGE: &str = "\
Usage: cargo xtask <COMMAND> [OPTIONS]

Commands:
  conformance   Run every vector file under vectors/ against every width and backend
  bench         Run the criterion shoot-outs, optionally writing a report
  ladder        Run the SHA-1 and Blowfish optimisation ladders briefly and print them
  fuzz          Build and run the cargo-fuzz targets for a while each
  cross         Run the library tests on aarch64, big-endian s390x and 32-bit i686 under QEMU
  miri          Run sha1-fast's unsafe SIMD backends under Miri
  msrv          Check the library crates on the oldest Rust they declare
  wasm          Build the bijou-wasm npm package, optionally test and bench it
  help          Print this message

Run `cargo xtask <COMMAND> --help` or `cargo xtask help <COMMAND>` for a
command's options.";

/// A command: its name, its entry point and its help, which `help NAME`
/// prints as `NAME --help` does.
struct Subcommand {
    name: &'static str,
    main: fn(&[String]) -> Result<(), String>,
    usage: &'static str,
}

const COMMANDS: &[Subcommand] = &[
    Subcommand {
        name: "conformance",
        main: conformance::main,
        usage: conformance::USAGE,
    },
    Subcommand {
        name: "bench",
        main: bench::main,
        usage: bench::USAGE,
    },
    Subcommand {
        name: "ladder",
        main: ladder::main,
        usage: ladder::USAGE,
    },
    Subcommand {
        name: "fuzz",
        main: fuzz::main,
        usage: fuzz::USAGE,
    },
    Subcommand {
        name: "cross",
        main: cross::main,
        usage: cross::USAGE,
    },
    Subcommand {
        name: "miri",
        main: miri::main,
        usage: miri::USAGE,
    },
    Subcommand {
        name: "msrv",
        main: msrv::main,
        usage: msrv::USAGE,
    },
    Subcommand {
        name: "wasm",
        main: wasm::main,
        usage: wasm::USAGE,
    },
];

/// The words that ask for this overview: the help command and its flags.
const HELP: &[&str] = &["help", "--help", "-h"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    let result = if HELP.contains(&command.as_str()) {
        help(rest).map(|text| println!("{text}"))
    } else {
        subcommand(command).and_then(|found| (found.main)(rest))
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The command called `name`.
fn subcommand(name: &str) -> Result<&'static Subcommand, String> {
    COMMANDS
        .iter()
        .find(|command| command.name == name)
        .ok_or_else(|| format!("unknown command `{name}`\n\n{USAGE}"))
}

/// What `help [COMMAND]` prints: COMMAND's own help, the same text as its
/// `--help`, or this overview when no command is named.
fn help(args: &[String]) -> Result<&'static str, String> {
    match args {
        [] => Ok(USAGE),
        [name] if HELP.contains(&name.as_str()) => Ok(USAGE),
        [name] => subcommand(name).map(|command| command.usage),
        [_, extra, ..] => Err(format!("unexpected argument `{extra}`\n\n{USAGE}")),
    }
}

/// Parses `args` with `parse`, then prints `usage` and returns `None` if
/// they ask for help (`-h` or `--help` before any `--`; `parse` never sees
/// those). The rest of the line is parsed either way, so a mistake in it is
/// still an error when help is asked for too: `--bogus --help` must not
/// exit 0 as if `--bogus` were an option.
fn parse_or_help<T>(
    args: &[String],
    usage: &str,
    parse: impl FnOnce(&[String]) -> Result<T, String>,
) -> Result<Option<T>, String> {
    let end = args
        .iter()
        .position(|arg| arg == "--")
        .unwrap_or(args.len());
    let (options, passed_on) = args.split_at(end);
    let rest: Vec<String> = options
        .iter()
        .filter(|arg| !is_help(arg))
        .chain(passed_on)
        .cloned()
        .collect();
    let parsed = parse(&rest)?;
    if options.iter().any(|arg| is_help(arg)) {
        println!("{usage}");
        return Ok(None);
    }
    Ok(Some(parsed))
}

fn is_help(arg: &str) -> bool {
    arg == "-h" || arg == "--help"
}

/// The value that follows option `name`. A flag there is refused rather
/// than taken as the value: `--report --quick` forgot the directory, and
/// would otherwise write a report to `--quick` and not run quick.
fn option_value<'a>(
    args: &mut std::slice::Iter<'a, String>,
    name: &str,
    usage: &str,
) -> Result<&'a str, String> {
    match args.next() {
        None => Err(format!("`{name}` needs a value\n\n{usage}")),
        Some(flag) if flag.starts_with("--") => Err(format!(
            "`{name}` needs a value, found the flag `{flag}`\n\n{usage}"
        )),
        Some(value) => Ok(value),
    }
}

/// Parses `--flag` style options: every argument must be one of `known`
/// (or `--help`, which returns `None` after printing `usage`).
fn parse_flags(
    args: &[String],
    known: &[&str],
    usage: &str,
) -> Result<Option<Vec<String>>, String> {
    parse_or_help(args, usage, |args| {
        match args.iter().find(|arg| !known.contains(&arg.as_str())) {
            Some(unknown) => Err(format!("unknown option `{unknown}`\n\n{usage}")),
            None => Ok(args.to_vec()),
        }
    })
}

/// Appends `item` unless `list` holds it already: a repeatable option given
/// the same value twice (`--bench sha1 --bench sha1`) means it once, in the
/// place it first came, rather than running the same thing twice.
fn push_once<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// `list` as the owned command-line arguments the parsers take.
#[cfg(test)]
fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(ToString::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_value_is_never_a_flag() {
        let line = args(&["--quick"]);
        let error = option_value(&mut line.iter(), "--report", "USAGE").unwrap_err();
        assert!(
            error.contains("`--report` needs a value, found the flag `--quick`"),
            "{error}"
        );
        let line = args(&["-"]);
        assert_eq!(option_value(&mut line.iter(), "--report", "USAGE"), Ok("-"));
        let error = option_value(&mut [].iter(), "--report", "USAGE").unwrap_err();
        assert!(error.contains("`--report` needs a value"), "{error}");
    }

    #[test]
    fn an_unknown_flag_beside_help_is_an_error() {
        let parse = |list: &[&str]| parse_flags(&args(list), &["--long"], "USAGE");
        for line in [&["--bogus", "--help"][..], &["-h", "--bogus"]] {
            let error = parse(line).unwrap_err();
            assert!(error.contains("unknown option `--bogus`"), "{error}");
        }
        assert_eq!(parse(&["--long", "--help"]), Ok(None));
        assert_eq!(parse(&["--long"]), Ok(Some(args(&["--long"]))));
    }

    #[test]
    fn help_with_a_command_is_that_commands_help() {
        assert_eq!(help(&[]), Ok(USAGE));
        assert_eq!(help(&args(&["help"])), Ok(USAGE));
        assert_eq!(help(&args(&["conformance"])), Ok(conformance::USAGE));
        for command in COMMANDS {
            assert_eq!(help(&args(&[command.name])), Ok(command.usage));
            let usage_line: Vec<&str> = command.usage.split_whitespace().take(4).collect();
            assert_eq!(usage_line, ["Usage:", "cargo", "xtask", command.name]);
        }
        let error = help(&args(&["no-such-command"])).unwrap_err();
        assert!(
            error.contains("unknown command `no-such-command`"),
            "{error}"
        );
        assert!(help(&args(&["bench", "fuzz"])).is_err());
    }
}
