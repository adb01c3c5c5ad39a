//! `cargo xtask ladder`: runs the optimisation ladders' criterion groups
//! briefly, with the bench command's quick settings and its way of running
//! and reading criterion, and prints each ladder as a table beside the
//! figures of the 2007 write-up whose steps the ladders follow.

use crate::criterion::{
    self, BLOWFISH_LADDER, Benches, Measurement, QUICK_ARGS, Run, SHA1_LADDER, Throughput,
};
use crate::flags::{self, Args, Long, Value, push_once, unexpected};
use crate::groups::{Group, format_time, groups};
use std::ffi::OsString;

pub(crate) const USAGE: &str = "\
Usage: cargo xtask ladder [--no-run] [sha1|blowfish]... [-- CRITERION_ARGS...]

Runs the benches of the optimisation ladders named (both when none is) with
criterion's quick settings (those of `cargo xtask bench --quick`; under a
minute for both), then prints each ladder as a table: every step's median
time per block and its speed-up over the reference step and, for Blowfish,
the speed-ups the 2007 JavaScript write-up measured for the same step on IE6
and Firefox 2, with the `blowfish` crate as the last row; then a summary,
and the tables each bench measured interleaved in the same run (every step
timed in turn, round after round: steadier on a shared machine).

  sha1       sha1-fast's scalar core, step by step (benches/benches/sha1_ladder.rs)
  blowfish   the write-up's own example (benches/benches/blowfish_ladder.rs)

Options:
  --no-run      Measure nothing; print what criterion already holds
  -h, --help    Print this message

Arguments after `--` go to criterion after the quick settings, so they win
(e.g. -- --measurement-time 5). For steadier numbers pin the run to one
core and repeat it: taskset -c 1 cargo xtask ladder";

/// One ladder: its bench, its criterion group, what a block is and what
/// the write-up measured.
#[derive(Debug, PartialEq)]
struct Ladder {
    name: &'static str,
    bench: &'static str,
    group: &'static str,
    block_bytes: f64,
    /// The write-up's speed-up of each step over its reference, in order,
    /// in percent: (IE6, Firefox 2). Empty when it measured none.
    seed: &'static [(u32, u32)],
    /// The group's function that is a peer rather than a step.
    peer: Option<&'static str>,
}

/// The Blowfish figures of the 2007 write-up:
/// reference (134 ms on IE6, 162 ms on Firefox 2) 100%, one buffer 104%,
/// aliases 104%, one unroll without the swap 106%, F inlined 183% / 125%,
/// fully unrolled 252% / 157%, `optimize()` 183% / 160%. Where it gives one
/// figure (steps 2 to 4) both columns show it.
const SEED: &[(u32, u32)] = &[
    (100, 100),
    (104, 104),
    (104, 104),
    (106, 106),
    (183, 125),
    (252, 157),
    (183, 160),
];

const LADDERS: &[Ladder] = &[
    Ladder {
        name: "sha1",
        bench: SHA1_LADDER,
        group: "sha1-ladder",
        block_bytes: 64.0,
        seed: &[],
        peer: None,
    },
    Ladder {
        name: "blowfish",
        bench: BLOWFISH_LADDER,
        group: "blowfish-ladder",
        block_bytes: 8.0,
        seed: SEED,
        peer: Some("blowfish crate"),
    },
];

#[derive(Debug, PartialEq)]
struct Options {
    ladders: Vec<&'static Ladder>,
    run: bool,
    extra: Vec<String>,
}

fn parse(args: &[OsString]) -> Result<Option<Options>, String> {
    let mut options = Options {
        ladders: Vec::new(),
        run: true,
        extra: Vec::new(),
    };
    let mut args = Args::new(args, USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Long("no-run") => options.run = false,
            Value(name) => {
                let name = flags::string(name)?;
                let ladder = LADDERS
                    .iter()
                    .find(|l| l.name == name)
                    .ok_or_else(|| format!("unknown ladder `{name}`\n\n{USAGE}"))?;
                push_once(&mut options.ladders, ladder);
            }
            other => return Err(unexpected(other, USAGE)),
        }
    }
    options.extra = args.rest()?;
    if options.ladders.is_empty() {
        options.ladders = LADDERS.iter().collect();
    }
    args.finish(options)
}

pub(crate) fn main(args: &[OsString]) -> Result<(), String> {
    let Some(options) = parse(args)? else {
        return Ok(());
    };
    let root = testkit::workspace_root();
    let package = Benches::find(&root)?;
    let benches: Vec<String> = options.ladders.iter().map(|l| l.bench.into()).collect();
    // Built even for --no-run: the benches list their benchmarks.
    let executables = criterion::build(&root, &benches, None)?;
    let mut criterion_args: Vec<String> = QUICK_ARGS.iter().map(|&a| a.into()).collect();
    criterion_args.extend(options.extra.iter().cloned());
    let mut results = Vec::new();
    for ladder in &options.ladders {
        let run = Run {
            bench: ladder.bench,
            label: ladder.bench.into(),
            executable: executables[ladder.bench].clone(),
            package_dir: &package.package_dir,
            filter: None,
            suffix: "",
            criterion_dir: package.criterion_dir(),
        };
        if options.run {
            run.run(&criterion_args)?;
        }
        results.push((ladder, run.collect(&run.list()?)?, run.tables()));
    }
    for (ladder, measurements, interleaved) in results {
        let groups = groups(&measurements);
        let group = groups
            .iter()
            .find(|g| g.name == ladder.group)
            .ok_or_else(|| {
                format!(
                    "no criterion results for {}; run `cargo xtask ladder {}` first",
                    ladder.group, ladder.name
                )
            })?;
        let table = table(ladder, group)?;
        println!("\n{}", table.title);
        crate::table::print(
            &table.header.iter().map(String::as_str).collect::<Vec<_>>(),
            &table.rows,
        );
        println!("{}", table.summary);
        // Criterion measures one function after another; on a shared
        // machine the bench's interleaved medians are the steadier figures.
        if let Some(text) = interleaved {
            println!(
                "\nThe same run's interleaved tables ({}):\n{}",
                ladder.bench,
                text.trim_end()
            );
        }
    }
    Ok(())
}

/// A ladder ready to print.
#[derive(Debug)]
struct Table {
    title: String,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    summary: String,
}

/// Each function of `group` (steps, then the peer) as a row: time per
/// block, speed-up over the first step and the write-up's speed-ups.
fn table(ladder: &Ladder, group: &Group<'_>) -> Result<Table, String> {
    let param = group.params[0];
    let cells: Vec<(&str, &Measurement)> = group
        .functions
        .iter()
        .filter_map(|&f| Some((f, group.get(f, param)?)))
        .collect();
    let per_block = |m: &Measurement| match m.throughput {
        Some(Throughput::Bytes(bytes)) => Ok(m.median_ns * ladder.block_bytes / bytes),
        _ => Err(format!(
            "{}: {} declares no byte throughput",
            group.name, m.function
        )),
    };
    let reference = per_block(cells.first().ok_or("no steps measured")?.1)?;
    let seed_columns = !ladder.seed.is_empty();
    let mut rows = Vec::new();
    let mut best: Option<(&str, f64)> = None;
    let mut peer = None;
    for (i, &(function, m)) in cells.iter().enumerate() {
        let time = per_block(m)?;
        let speedup = reference / time;
        let mut row = vec![
            function.to_owned(),
            format_time(time),
            format!("{speedup:.2}×"),
        ];
        if seed_columns {
            let seed = ladder.seed.get(i).filter(|_| Some(function) != ladder.peer);
            row.extend(match seed {
                Some(&(ie6, firefox)) => [ie6, firefox].map(percent_as_ratio),
                None => ["-".to_owned(), "-".to_owned()],
            });
        }
        rows.push(row);
        if Some(function) == ladder.peer {
            peer = Some((function, speedup));
        } else if best.is_none_or(|(_, b)| speedup > b) {
            best = Some((function, speedup));
        }
    }
    let mut header = ["step", "time/block", "vs reference"]
        .map(String::from)
        .to_vec();
    if seed_columns {
        header.extend(["IE6 (2007)", "Firefox 2 (2007)"].map(String::from));
    }
    let (best, best_speedup) = best.ok_or("no steps measured")?;
    let mut summary = format!(
        "{}: the fastest step, `{best}`, is {best_speedup:.2}× the reference",
        ladder.name
    );
    if seed_columns {
        let top = |pick: fn(&(u32, u32)) -> u32| {
            percent_as_ratio(ladder.seed.iter().map(pick).max().unwrap_or(100))
        };
        summary += &format!(
            " (the write-up's best: {} on IE6, {} on Firefox 2)",
            top(|s| s.0),
            top(|s| s.1)
        );
    }
    if let Some((peer, speedup)) = peer {
        summary += &format!("; the {peer} {speedup:.2}×");
    }
    summary.push('.');
    Ok(Table {
        title: format!(
            "{} ladder: criterion medians, {} bytes a block, input `{param}`",
            ladder.name, ladder.block_bytes
        ),
        header,
        rows,
        summary,
    })
}

/// `183` (percent) as `1.83×`.
fn percent_as_ratio(percent: u32) -> String {
    format!("{:.2}×", f64::from(percent) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::args;

    fn m(function: &str, median_ns: f64) -> Measurement {
        Measurement {
            group: "blowfish-ladder".into(),
            function: function.into(),
            param: "4KiB".into(),
            median_ns,
            throughput: Some(Throughput::Bytes(4096.0)),
        }
    }

    #[test]
    fn parses_ladder_names() {
        let parsed = |line: &[&str]| parse(&args(line)).unwrap().unwrap();
        assert_eq!(parsed(&[]).ladders, LADDERS.iter().collect::<Vec<_>>());
        let blowfish = parsed(&["blowfish", "blowfish", "--no-run"]);
        assert_eq!(blowfish.ladders, [&LADDERS[1]]);
        assert!(!blowfish.run);
        assert_eq!(parsed(&["sha1", "--", "--x"]).extra, ["--x"]);
        let error = parse(&args(&["aes"])).unwrap_err();
        assert!(error.starts_with("unknown ladder `aes`"), "{error}");
        let error = parse(&args(&["--aes"])).unwrap_err();
        assert!(error.starts_with("unknown option `--aes`"), "{error}");
        assert!(parse(&args(&["--help"])).unwrap().is_none());
    }

    #[test]
    fn the_table_prices_blocks_and_sets_the_write_up_beside() {
        // 4096 bytes = 512 blocks: 5120 ns an iteration is 10 ns a block.
        let results = [
            m("reference", 5120.0),
            m("block in place", 2560.0),
            m("blowfish crate", 1024.0),
        ];
        let groups = groups(&results);
        let table = table(&LADDERS[1], &groups[0]).unwrap();
        assert_eq!(table.header.len(), 5);
        assert_eq!(
            table.rows[0],
            ["reference", "10.0 ns", "1.00×", "1.00×", "1.00×"]
        );
        assert_eq!(
            table.rows[1],
            ["block in place", "5.0 ns", "2.00×", "1.04×", "1.04×"]
        );
        // The peer is no step: no write-up figures, not the best step.
        assert_eq!(
            table.rows[2],
            ["blowfish crate", "2.0 ns", "5.00×", "-", "-"]
        );
        assert_eq!(
            table.summary,
            "blowfish: the fastest step, `block in place`, is 2.00× the reference \
             (the write-up's best: 2.52× on IE6, 1.60× on Firefox 2); \
             the blowfish crate 5.00×."
        );
    }

    #[test]
    fn a_ladder_without_write_up_figures_has_no_such_columns() {
        let results = [m("reference", 100.0), m("opaque K", 50.0)];
        let groups = groups(&results);
        let table = table(&LADDERS[0], &groups[0]).unwrap();
        assert_eq!(table.header, ["step", "time/block", "vs reference"]);
        assert_eq!(
            table.summary,
            "sha1: the fastest step, `opaque K`, is 2.00× the reference."
        );
    }

    #[test]
    fn the_write_up_figures_cover_every_blowfish_step() {
        assert_eq!(SEED.len(), blowfish_ladder::STEPS.len());
    }
}
