//! `cargo xtask`: the workspace's automation (the cargo-xtask convention: a
//! plain binary crate, aliased in `.cargo/config.toml`, nothing to install).

use std::ffi::OsString;
use std::process::ExitCode;

mod asm_check;
mod bench;
mod cargo;
mod conformance;
mod criterion;
mod cross;
mod flags;
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
  asm-check     Check that no SHA-NI kernel touches a ymm or zmm register
  help          Print this message

Run `cargo xtask <COMMAND> --help` or `cargo xtask help <COMMAND>` for a
command's options.";

/// A command: its name, its entry point and its help, which `help NAME`
/// prints as `NAME --help` does.
struct Subcommand {
    name: &'static str,
    main: fn(&[OsString]) -> Result<(), String>,
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
    Subcommand {
        name: "asm-check",
        main: asm_check::main,
        usage: asm_check::USAGE,
    },
];

/// The words that ask for this overview: the help command and its flags.
const HELP: &[&str] = &["help", "--help", "-h"];

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    match run(command, rest) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `command` (or `help`) with the arguments after it.
fn run(command: &OsString, args: &[OsString]) -> Result<(), String> {
    let command = flags::string(command.clone())?;
    if HELP.contains(&command.as_str()) {
        help(args).map(|text| println!("{text}"))
    } else {
        subcommand(&command).and_then(|found| (found.main)(args))
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
fn help(args: &[OsString]) -> Result<&'static str, String> {
    match args {
        [] => Ok(USAGE),
        [name] if HELP.iter().any(|help| name == help) => Ok(USAGE),
        [name] => subcommand(&name.to_string_lossy()).map(|command| command.usage),
        [_, extra, ..] => Err(flags::unexpected(flags::Value(extra.clone()), USAGE)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flags::args;

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
        let error = help(&args(&["bench", "fuzz"])).unwrap_err();
        assert!(error.contains("unexpected argument `fuzz`"), "{error}");
    }

    /// Every command refuses an option it does not have, by name, with its
    /// usage, whatever else is on the line.
    #[test]
    fn every_command_refuses_an_unknown_option() {
        for command in COMMANDS {
            for line in [&["--bogus"][..], &["--bogus", "--help"], &["-h", "--bogus"]] {
                let error = (command.main)(&args(line)).unwrap_err();
                assert!(
                    error.starts_with("unknown option `--bogus`"),
                    "{} {line:?}: {error}",
                    command.name
                );
                assert!(error.ends_with(command.usage), "{}: {error}", command.name);
            }
        }
    }
}
