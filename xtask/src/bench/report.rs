//! The machine description and the markdown report of `cargo xtask bench
//! --report DIR`: `DIR/index.md` plus one SVG chart per group.

use super::BenchResults;
use super::svg::Chart;
use crate::criterion::{BLOWFISH_LADDER, Measurement, SHA1_LADDER, is_ladder};
use crate::groups::{Group, groups};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// CPU features that matter to varint and SHA-1 code (x86 and Arm names);
/// the report lists those present rather than all ~100.
const INTERESTING_FLAGS: &[&str] = &[
    "sse2",
    "ssse3",
    "sse4_1",
    "sse4_2",
    "popcnt",
    "abm",
    "bmi1",
    "bmi2",
    "avx",
    "avx2",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512_vbmi2",
    "sha_ni",
    "aes",
    "pclmulqdq",
    "hypervisor",
    "asimd",
    "sha1",
    "sha2",
    "sha3",
    "crc32",
    "sve",
    "sve2",
];

/// One line per bench target, for the report's headings.
const BENCH_TITLES: &[(&str, &str)] = &[
    ("bijou", "Varints: bijou-core's bijou64 against its peers"),
    ("io", "bijou-io"),
    (
        "serde",
        "bijou-serde against BCS, postcard, bincode and borsh",
    ),
    ("sha1", "SHA-1: sha1-fast against its peers"),
    (SHA1_LADDER, "SHA-1 optimisation ladder"),
    (
        BLOWFISH_LADDER,
        "Blowfish optimisation ladder (the 2007 write-up's example)",
    ),
];

/// What each varint group measures (the other benches' groups are named
/// plainly enough).
const GROUP_NOTES: &[(&str, &str)] = &[
    (
        "varint-encode",
        "Each value of a 4096-value batch appended to a reused `Vec<u8>`; \
         `bijou-core-batch` is one `encode_batch` call.",
    ),
    (
        "varint-decode",
        "Stream decode: a `while` loop over one buffer, each position waiting \
         for the previous value's length; `bijou-core-batch` is one \
         `decode_batch` call.",
    ),
    (
        "varint-decode-offsets",
        "Each value decoded at its known offset: the decodes are independent, \
         so this is throughput rather than latency.",
    ),
    (
        "varint-decode-canonical",
        "Stream decode that rejects non-shortest encodings. bijou is canonical \
         by construction and unsigned-varint and varu64 check already; prost, \
         leb128 and integer-encoding add LEB128's overlong check (last byte \
         non-zero) and vu128 re-encodes to compare lengths.",
    ),
];

/// The machine a report was taken on.
#[derive(Debug)]
pub(crate) struct Machine {
    cpu: String,
    logical_cpus: usize,
    affinity: Option<String>,
    flags: Vec<String>,
    os: String,
    rustc: String,
    rustflags: Option<String>,
    commit: String,
}

/// The first line of a command's stdout, if it ran and succeeded.
fn output(command: &mut Command) -> Option<String> {
    let out = command.output().ok().filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The CPU's model name, with its x86 family and model numbers where
/// `/proc/cpuinfo` has them: a virtual machine's name (`AMD EPYC`) often
/// does not say which core generation it runs on.
fn cpu_name(name: Option<String>, family: Option<String>, model: Option<String>) -> String {
    let name = name.unwrap_or_else(|| "unknown".to_owned());
    match (family, model) {
        (Some(family), Some(model)) => format!("{name} (family {family} model {model})"),
        _ => name,
    }
}

impl Machine {
    pub(crate) fn detect(root: &Path) -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |names: &[&str]| {
            cpuinfo.lines().find_map(|line| {
                let (key, value) = line.split_once(':')?;
                names.contains(&key.trim()).then(|| value.trim().to_owned())
            })
        };
        let present = field(&["flags", "Features"]).unwrap_or_default();
        let present: Vec<&str> = present.split_whitespace().collect();
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();

        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let rustc = output(Command::new(rustc).arg("-vV")).map_or_else(
            || "unknown".to_owned(),
            |v| {
                let get = |key: &str| v.lines().find_map(|l| l.strip_prefix(key)).unwrap_or("?");
                let first = v.lines().next().unwrap_or("rustc");
                format!("{first}, LLVM {}, {}", get("LLVM version: "), get("host: "))
            },
        );

        let git = |args: &[&str]| Command::new("git").arg("-C").arg(root).args(args).output();
        let commit = match output(Command::new("git").arg("-C").arg(root).args([
            "rev-parse",
            "--short",
            "HEAD",
        ])) {
            Some(hash) => {
                let dirty = git(&["diff", "--quiet", "HEAD", "--"])
                    .is_ok_and(|o| o.status.code() == Some(1));
                if dirty {
                    format!("{hash} with uncommitted changes")
                } else {
                    hash
                }
            }
            None => "unknown".to_owned(),
        };

        Machine {
            cpu: cpu_name(
                field(&["model name", "Hardware", "CPU part"]),
                field(&["cpu family"]),
                field(&["model"]),
            ),
            logical_cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            affinity: status
                .lines()
                .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                .map(|s| s.trim().to_owned()),
            flags: INTERESTING_FLAGS
                .iter()
                .filter(|f| present.contains(f))
                .map(|&f| f.to_owned())
                .collect(),
            os: format!(
                "{} {}{}",
                std::env::consts::OS,
                std::env::consts::ARCH,
                match kernel.trim() {
                    "" => String::new(),
                    k => format!(", kernel {k}"),
                }
            ),
            rustc,
            rustflags: std::env::var("RUSTFLAGS")
                .ok()
                .filter(|f| !f.trim().is_empty()),
            commit,
        }
    }

    fn rows(&self) -> Vec<(&'static str, String)> {
        let cpus = match &self.affinity {
            Some(list) => format!("{} usable (affinity: CPUs {list})", self.logical_cpus),
            None => format!("{} usable", self.logical_cpus),
        };
        vec![
            ("CPU", self.cpu.clone()),
            ("logical CPUs", cpus),
            (
                "CPU flags",
                if self.flags.is_empty() {
                    "-".to_owned()
                } else {
                    self.flags.join(" ")
                },
            ),
            ("OS", self.os.clone()),
            ("rustc", self.rustc.clone()),
            (
                "RUSTFLAGS",
                self.rustflags
                    .clone()
                    .unwrap_or_else(|| "(none)".to_owned()),
            ),
            ("commit", self.commit.clone()),
        ]
    }

    /// The CPU: its model name, and family and model where known.
    pub(crate) fn cpu(&self) -> &str {
        &self.cpu
    }

    /// A few lines for the terminal before a run.
    pub(crate) fn summary(&self) -> String {
        self.rows()
            .iter()
            .map(|(k, v)| format!("{k:>12}: {v}"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Everything a report states besides the results.
pub(crate) struct Context {
    pub(crate) date: String,
    pub(crate) command: String,
    /// How the numbers were taken, for the report's first line.
    pub(crate) mode: String,
    pub(crate) machine: Machine,
    /// The per-batch decode-time CDF chart's file, drawn beside the
    /// report, if the `bijou` bench was timed for it.
    pub(crate) cdf_chart: Option<&'static str>,
}

/// Now, as `YYYY-MM-DD HH:MM UTC`.
pub(crate) fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day), by
/// counting 400-year eras of 146,097 days from 0000-03-01 (so the leap day
/// ends each year).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn lookup(table: &[(&str, &'static str)], key: &str) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// A file name for a group's chart.
fn chart_file(group: &str) -> String {
    let safe: String = group
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("{safe}.svg")
}

/// A markdown table; the first column left-aligned, the rest (numbers)
/// right-aligned.
fn markdown_table(out: &mut String, header: &[String], rows: &[Vec<String>]) {
    aligned_table(out, header, rows, "---:");
}

/// A markdown table whose columns after the first are aligned by `align`.
fn aligned_table(out: &mut String, header: &[String], rows: &[Vec<String>], align: &str) {
    let cell = |c: &String| c.replace('|', "\\|");
    let line = |cells: &[String]| {
        format!(
            "| {} |",
            cells.iter().map(cell).collect::<Vec<_>>().join(" | ")
        )
    };
    let _ = writeln!(out, "{}", line(header));
    let aligns: Vec<&str> = (0..header.len())
        .map(|i| if i == 0 { ":---" } else { align })
        .collect();
    let _ = writeln!(out, "| {} |", aligns.join(" | "));
    for row in rows {
        let _ = writeln!(out, "{}", line(row));
    }
    out.push('\n');
}

/// Per bench, each group's subject and its geometric-mean speed-up over
/// each other function, one row per group.
fn summary(out: &mut String, bench: &BenchResults) {
    let groups = groups(&bench.measurements);
    let mut peers: Vec<&str> = Vec::new();
    for group in &groups {
        for &f in &group.functions[1..] {
            if !peers.contains(&f) {
                peers.push(f);
            }
        }
    }
    if peers.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "**{}**: how many times faster each group's subject is than each \
         peer (geometric mean over the inputs{}):\n",
        bench.name,
        if groups.iter().any(|g| !g.like_for_like().is_empty()) {
            "; a peer named crate/setting against the subject's crate on the \
             same setting, as each group's section says"
        } else {
            ""
        }
    );
    let mut header = vec!["group".to_owned(), "subject".to_owned()];
    header.extend(peers.iter().map(|p| (*p).to_owned()));
    let rows: Vec<Vec<String>> = groups
        .iter()
        .map(|g| {
            let mut row = vec![g.name.to_owned(), g.functions[0].to_owned()];
            row.extend(peers.iter().map(|p| {
                g.mean_ratio(p)
                    .filter(|_| *p != g.functions[0])
                    .map_or("-".to_owned(), |r| format!("{r:.2}×"))
            }));
            row
        })
        .collect();
    markdown_table(out, &header, &rows);
}

fn group_section(
    out: &mut String,
    dir: &Path,
    bench: &str,
    group: &Group<'_>,
) -> Result<(), String> {
    let _ = writeln!(out, "### {}\n", group.name);
    if let Some(note) = lookup(GROUP_NOTES, group.name) {
        let _ = writeln!(out, "{note}\n");
    }
    let _ = writeln!(out, "{} ({}).\n", group.unit.label(), group.unit.better());
    if is_ladder(bench) {
        for (other, rows) in group.ladder() {
            if !other.is_empty() {
                let _ = writeln!(out, "Input `{other}`:\n");
            }
            markdown_table(out, &group.ladder_header(), &rows);
        }
    } else {
        let (header, rows) = group.table();
        markdown_table(out, &header, &rows);
        if let Some(note) = group.like_for_like_note() {
            let _ = writeln!(out, "{note}\n");
        }
    }
    let file = chart_file(group.name);
    std::fs::write(dir.join(&file), chart(group).render()).map_err(|e| format!("{file}: {e}"))?;
    let _ = writeln!(out, "![{}]({file})\n", group.name);
    Ok(())
}

/// A group's bar chart: a block of bars per input, a bar per function.
fn chart(group: &Group<'_>) -> Chart {
    Chart {
        title: group.name.to_owned(),
        axis: format!("{} ({})", group.unit.label(), group.unit.better()),
        series: group
            .functions
            .iter()
            .map(|f| group.column_name(f).to_owned())
            .collect(),
        categories: group
            .params
            .iter()
            .map(|&p| {
                let values = group
                    .functions
                    .iter()
                    .map(|&f| group.get(f, p).map(Measurement::shown));
                (
                    if p.is_empty() { "-" } else { p }.to_owned(),
                    values.collect(),
                )
            })
            .collect(),
    }
}

/// Charts an earlier report in `dir` linked to, so a renamed or dropped
/// group leaves no stale SVG behind.
fn remove_old_charts(dir: &Path) {
    let Ok(old) = std::fs::read_to_string(dir.join("index.md")) else {
        return;
    };
    for line in old.lines() {
        let target = line
            .strip_prefix("![")
            .and_then(|l| l.split_once("]("))
            .map(|(_, t)| t);
        if let Some(file) = target.and_then(|t| t.strip_suffix(')'))
            && file.ends_with(".svg")
            && !file.contains('/')
        {
            let _ = std::fs::remove_file(dir.join(file));
        }
    }
}

pub(crate) fn write(dir: &Path, results: &[BenchResults], context: &Context) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    remove_old_charts(dir);

    let mut out = String::new();
    let mode = &context.mode;
    let _ = writeln!(
        out,
        "# Benchmark report\n\nTaken {} with `{}`, {mode}. Regenerate it with the \
         same command; the method is described in `docs/BENCHMARKS.md`.\n",
        context.date, context.command
    );

    let _ = writeln!(out, "## Machine\n");
    let rows: Vec<Vec<String>> = context
        .machine
        .rows()
        .into_iter()
        .map(|(k, v)| vec![k.to_owned(), v])
        .collect();
    let header = ["machine".to_owned(), String::new()];
    aligned_table(&mut out, &header, &rows, ":---");

    let _ = writeln!(
        out,
        "## How to read\n\n\
         - Every number is criterion's median. Groups that count values are in \
         **ns/value** (the time for a batch divided by its size; lower is \
         better); groups that count bytes are in **MB/s** (10⁶ bytes per \
         second; higher is better).\n\
         - In each table the first function column is the subject \
         (bijou-core, sha1-fast, …). Every other cell reads `number (r×)`: \
         the subject is r times as fast as that column (above 1× the subject \
         wins, below 1× the peer does). Where functions are named \
         crate/setting (a buffer or reader type), a peer is compared with the \
         subject's crate on the same setting, as the note under the table \
         says.\n\
         - Shared and virtual machines are noisy: trust ratios within one \
         report more than absolute numbers across reports.\n"
    );

    let _ = writeln!(out, "## Summary\n");
    for bench in results.iter().filter(|b| !is_ladder(&b.name)) {
        summary(&mut out, bench);
    }

    for bench in results {
        let title = lookup(BENCH_TITLES, &bench.name).unwrap_or("");
        let _ = writeln!(out, "## `{}`: {title}\n", bench.name);
        if bench.measurements.is_empty() {
            let _ = writeln!(out, "No results.\n");
        }
        for group in groups(&bench.measurements) {
            group_section(&mut out, dir, &bench.name, &group)?;
        }
        for (label, text) in &bench.tables {
            let _ = writeln!(
                out,
                "### Interleaved tables (`{label}`)\n\n\
                 Printed by the bench after criterion: its contenders timed in turn, \
                 round after round, in one process (`docs/BENCHMARKS.md`).\n"
            );
            let _ = writeln!(out, "{}", as_markdown(text));
        }
        if let (Some(file), "bijou") = (context.cdf_chart, bench.name.as_str()) {
            let _ = writeln!(
                out,
                "### varint-decode: per-batch times\n\n\
                 Every stream decoder timed on one 4096-value batch at a time, the \
                 decoders taking turns, many batches each: per workload, the \
                 fraction of batches decoded within each time (ns/value; left and \
                 steep is fast and consistent). The axis ends past the slowest \
                 decoder's 99th percentile.\n\n![varint-decode per-batch CDF]({file})\n"
            );
        }
    }

    let index = dir.join("index.md");
    std::fs::write(&index, out.trim_end().to_owned() + "\n")
        .map_err(|e| format!("{}: {e}", index.display()))
}

/// A bench's printed tables as markdown: each line that is not part of a
/// table becomes a paragraph of its own, so a title is not run into the
/// table under it or the title after it.
fn as_markdown(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines().map(str::trim_end).filter(|l| !l.is_empty()) {
        if line.starts_with('|') {
            out.push_str(line);
            out.push('\n');
        } else {
            if !out.is_empty() && !out.ends_with("\n\n") {
                out.push('\n');
            }
            out.push_str(line);
            out.push_str("\n\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_names_carry_family_and_model_where_known() {
        let some = |s: &str| Some(s.to_owned());
        assert_eq!(
            cpu_name(some("AMD EPYC"), some("25"), some("17")),
            "AMD EPYC (family 25 model 17)"
        );
        assert_eq!(cpu_name(some("Neoverse"), None, None), "Neoverse");
        assert_eq!(cpu_name(None, None, some("1")), "unknown");
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn markdown_tables_escape_pipes() {
        let mut out = String::new();
        markdown_table(
            &mut out,
            &["a".into(), "b".into()],
            &[vec!["x|y".into(), "1".into()]],
        );
        assert_eq!(out, "| a | b |\n| :--- | ---: |\n| x\\|y | 1 |\n\n");
    }

    /// One row per group: its subject, then its mean speed-up over each
    /// peer of the bench, `-` where the group lacks that peer or where the
    /// peer is its own subject.
    #[test]
    fn the_summary_has_a_row_per_group_and_blanks_the_subject() {
        let m = |group: &str, function: &str, median_ns: f64| Measurement {
            group: group.into(),
            function: function.into(),
            param: "p".into(),
            median_ns,
            throughput: None,
        };
        let bench = BenchResults {
            name: "b".into(),
            measurements: vec![
                m("enc", "us", 1.0),
                m("enc", "them", 3.0),
                m("dec", "them", 2.0),
                m("dec", "us", 4.0),
            ],
            tables: Vec::new(),
        };
        let mut out = String::new();
        summary(&mut out, &bench);
        assert!(out.contains("| group | subject | them | us |"), "{out}");
        assert!(out.contains("| enc | us | 3.00× | - |"), "{out}");
        assert!(out.contains("| dec | them | - | 2.00× |"), "{out}");
    }

    /// Every bench of the package has a heading of its own in the report.
    #[test]
    fn every_bench_has_a_title() {
        let benches = crate::criterion::Benches::find(&testkit::workspace_root()).unwrap();
        for bench in &benches.names {
            assert!(
                lookup(BENCH_TITLES, bench).is_some(),
                "no title for {bench}"
            );
        }
    }

    #[test]
    fn chart_files_are_plain_names() {
        assert_eq!(chart_file("varint-decode"), "varint-decode.svg");
        assert_eq!(chart_file("sha1/one shot"), "sha1-one-shot.svg");
    }

    #[test]
    fn printed_tables_become_paragraphs_and_tables() {
        let printed =
            "\nTitle one\nsecond line\n| a | b |\n| :--- | ---: |\n| x | 1 |\n\nTitle two\n| c |\n";
        assert_eq!(
            as_markdown(printed),
            "Title one\n\nsecond line\n\n| a | b |\n| :--- | ---: |\n| x | 1 |\n\nTitle two\n\n| c |\n"
        );
    }
}
