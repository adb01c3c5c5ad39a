//! Criterion's results arranged for reading: a group's functions as
//! columns and its inputs as rows, each peer's ratio to the subject, and
//! the ladder view of optimisation steps. The `bench` and `ladder` commands
//! print these; the bench report writes them as markdown.

use crate::criterion::{Measurement, Throughput};
use std::collections::HashMap;

/// How a group's numbers are shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Unit {
    NsPerValue,
    MegabytesPerSecond,
    Nanoseconds,
}

impl Unit {
    pub(crate) fn of(throughput: Option<Throughput>) -> Unit {
        match throughput {
            Some(Throughput::Elements(_)) => Unit::NsPerValue,
            Some(Throughput::Bytes(_)) => Unit::MegabytesPerSecond,
            None => Unit::Nanoseconds,
        }
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            Unit::NsPerValue => "ns/value",
            Unit::MegabytesPerSecond => "MB/s",
            Unit::Nanoseconds => "ns",
        }
    }

    pub(crate) fn better(self) -> &'static str {
        match self {
            Unit::MegabytesPerSecond => "higher is better",
            _ => "lower is better",
        }
    }
}

impl Measurement {
    /// The number shown for this result in `unit`'s terms.
    pub(crate) fn shown(&self) -> f64 {
        match self.throughput {
            Some(Throughput::Elements(n)) => self.median_ns / n,
            // bytes per ns × 1000 = MB/s (10^6 bytes).
            Some(Throughput::Bytes(n)) => n / self.median_ns * 1e3,
            None => self.median_ns,
        }
    }
}

/// Formats a shown number with three significant digits or so.
pub(crate) fn format_number(x: f64) -> String {
    match x.abs() {
        a if a >= 1000.0 => format!("{x:.0}"),
        a if a >= 100.0 => format!("{x:.1}"),
        a if a >= 10.0 => format!("{x:.2}"),
        _ => format!("{x:.3}"),
    }
}

/// A time in ns, in the unit that keeps it readable.
pub(crate) fn format_time(ns: f64) -> String {
    match ns {
        ns if ns >= 1e9 => format!("{:.2} s", ns / 1e9),
        ns if ns >= 1e6 => format!("{:.2} ms", ns / 1e6),
        ns if ns >= 1e3 => format!("{:.2} µs", ns / 1e3),
        ns => format!("{ns:.1} ns"),
    }
}

/// One criterion group: functions are columns, parameters rows. The first
/// function is the subject every other one is compared with.
#[derive(Debug)]
pub(crate) struct Group<'a> {
    pub(crate) name: &'a str,
    pub(crate) unit: Unit,
    pub(crate) functions: Vec<&'a str>,
    pub(crate) params: Vec<&'a str>,
    cells: HashMap<(&'a str, &'a str), &'a Measurement>,
}

/// Splits measurements into groups, keeping first-seen order throughout.
pub(crate) fn groups(measurements: &[Measurement]) -> Vec<Group<'_>> {
    let mut groups: Vec<Group<'_>> = Vec::new();
    for m in measurements {
        let index = match groups.iter().position(|g| g.name == m.group) {
            Some(index) => index,
            None => {
                groups.push(Group {
                    name: &m.group,
                    unit: Unit::of(m.throughput),
                    functions: Vec::new(),
                    params: Vec::new(),
                    cells: HashMap::new(),
                });
                groups.len() - 1
            }
        };
        let group = &mut groups[index];
        if !group.functions.contains(&m.function.as_str()) {
            group.functions.push(&m.function);
        }
        if !group.params.contains(&m.param.as_str()) {
            group.params.push(&m.param);
        }
        group.cells.insert((&m.function, &m.param), m);
    }
    groups
}

impl<'a> Group<'a> {
    pub(crate) fn get(&self, function: &str, param: &str) -> Option<&'a Measurement> {
        self.cells.get(&(function, param)).copied()
    }

    /// The function `function` is compared with: the subject, except that
    /// a peer named `crate/setting` (`prost/Bytes`) is compared with the
    /// subject's crate on the same setting (`bijou-io/Bytes`) where the
    /// group has it, so a buffer or reader type is never priced as the
    /// peer's. The subject's own other settings are compared with the
    /// subject (what `Bytes` costs over a slice).
    pub(crate) fn baseline(&self, function: &str) -> &'a str {
        let subject = self.functions[0];
        let like_for_like = subject
            .split_once('/')
            .zip(function.split_once('/'))
            .filter(|((ours, _), (theirs, _))| ours != theirs)
            .and_then(|((ours, _), (_, setting))| {
                self.functions
                    .iter()
                    .find(|f| f.split_once('/') == Some((ours, setting)))
            });
        like_for_like.copied().unwrap_or(subject)
    }

    /// How many times faster `function`'s baseline (see
    /// [`Group::baseline`]) is than `function` on `param`.
    pub(crate) fn ratio(&self, function: &str, param: &str) -> Option<f64> {
        let baseline = self.get(self.baseline(function), param)?;
        Some(self.get(function, param)?.median_ns / baseline.median_ns)
    }

    /// The peers compared with something other than the subject, each with
    /// its baseline.
    pub(crate) fn like_for_like(&self) -> Vec<(&'a str, &'a str)> {
        self.functions[1..]
            .iter()
            .map(|&f| (f, self.baseline(f)))
            .filter(|&(_, baseline)| baseline != self.functions[0])
            .collect()
    }

    /// A sentence naming the peers compared with something other than the
    /// subject, for under the group's table; `None` when there are none.
    pub(crate) fn like_for_like_note(&self) -> Option<String> {
        let pairs = self.like_for_like();
        (!pairs.is_empty()).then(|| {
            let pairs: Vec<String> = pairs
                .iter()
                .map(|(peer, baseline)| format!("{peer} with {baseline}"))
                .collect();
            format!(
                "Peers are compared on the same setting: {}; the rest with {}.",
                pairs.join(", "),
                self.functions[0]
            )
        })
    }

    /// The subject's speed-up over `function`: the geometric mean of the
    /// per-parameter ratios, so no single input dominates.
    pub(crate) fn mean_ratio(&self, function: &str) -> Option<f64> {
        let logs: Vec<f64> = self
            .params
            .iter()
            .filter_map(|p| self.ratio(function, p))
            .map(f64::ln)
            .collect();
        (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp())
    }

    /// The name a function's column or bar goes by: the group's own for
    /// a benchmark without a function name.
    pub(crate) fn column_name(&self, function: &'a str) -> &'a str {
        if function.is_empty() {
            self.name
        } else {
            function
        }
    }

    /// Header and rows: each parameter's number for the subject, then
    /// `number (ratio×)` for every other function.
    pub(crate) fn table(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let mut header = vec!["input".to_owned()];
        header.extend(
            self.functions
                .iter()
                .map(|f| self.column_name(f).to_owned()),
        );
        let rows = self
            .params
            .iter()
            .map(|&param| {
                let mut row = vec![if param.is_empty() { "-" } else { param }.to_owned()];
                for (i, &function) in self.functions.iter().enumerate() {
                    let cell = match (self.get(function, param), self.ratio(function, param)) {
                        (None, _) => "-".to_owned(),
                        (Some(m), Some(r)) if i > 0 => {
                            format!("{} ({r:.2}×)", format_number(m.shown()))
                        }
                        (Some(m), _) => format_number(m.shown()),
                    };
                    row.push(cell);
                }
                row
            })
            .collect();
        (header, rows)
    }

    /// Whether a ladder's steps are the functions (else the parameters).
    fn steps_are_functions(&self) -> bool {
        self.functions.len() > 1 || self.params.len() == 1
    }

    /// The ladder view: the functions are successive steps (or, when there
    /// is only one function, the parameters are), each with its time and
    /// speed-up over the first step and over the one before. One table per
    /// value of the other axis.
    pub(crate) fn ladder(&self) -> Vec<(String, Vec<Vec<String>>)> {
        let steps_are_functions = self.steps_are_functions();
        let (steps, others) = if steps_are_functions {
            (&self.functions, &self.params)
        } else {
            (&self.params, &self.functions)
        };
        let cell = |step: &str, other: &str| {
            let (f, p) = if steps_are_functions {
                (step, other)
            } else {
                (other, step)
            };
            self.get(f, p)
        };
        others
            .iter()
            .map(|&other| {
                let mut rows = Vec::new();
                let first = cell(steps[0], other);
                let mut previous = None;
                for &step in steps {
                    let Some(m) = cell(step, other) else { continue };
                    let speedup = |base: Option<&Measurement>| {
                        base.map_or("-".to_owned(), |b| {
                            format!("{:.2}×", b.median_ns / m.median_ns)
                        })
                    };
                    let mut row = vec![step.to_owned(), format_time(m.median_ns)];
                    if self.unit != Unit::Nanoseconds {
                        row.push(format_number(m.shown()));
                    }
                    row.push(speedup(first));
                    row.push(speedup(previous));
                    rows.push(row);
                    previous = Some(m);
                }
                (other.to_owned(), rows)
            })
            .collect()
    }

    pub(crate) fn ladder_header(&self) -> Vec<String> {
        let mut header = vec!["step".to_owned(), "time".to_owned()];
        if self.unit != Unit::Nanoseconds {
            header.push(self.unit.label().to_owned());
        }
        let first = if self.steps_are_functions() {
            self.functions[0]
        } else {
            self.params[0]
        };
        header.extend([format!("vs {first}"), "vs previous".to_owned()]);
        header
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(group: &str, function: &str, param: &str, median_ns: f64) -> Measurement {
        Measurement {
            group: group.into(),
            function: function.into(),
            param: param.into(),
            median_ns,
            throughput: Some(Throughput::Elements(4.0)),
        }
    }

    #[test]
    fn groups_tables_and_ratios() {
        let results = [
            m("enc", "us", "tiny", 4.0),
            m("enc", "them", "tiny", 8.0),
            m("enc", "us", "large", 40.0),
            m("enc", "them", "large", 20.0),
            m("dec", "us", "tiny", 1.0),
        ];
        let groups = groups(&results);
        assert_eq!(groups.len(), 2);
        let enc = &groups[0];
        assert_eq!(enc.functions, ["us", "them"]);
        assert_eq!(enc.params, ["tiny", "large"]);
        assert_eq!(enc.ratio("them", "tiny"), Some(2.0));
        assert!((enc.mean_ratio("them").unwrap() - 1.0).abs() < 1e-12);
        let (header, rows) = enc.table();
        assert_eq!(header, ["input", "us", "them"]);
        assert_eq!(rows[0], ["tiny", "1.000", "2.000 (2.00×)"]);
        assert_eq!(rows[1], ["large", "10.00", "5.000 (0.50×)"]);
        assert!(enc.like_for_like().is_empty());

        // A peer measured on only some inputs: its mean is over those.
        let results = [
            m("mix", "us", "tiny", 1.0),
            m("mix", "us", "large", 1.0),
            m("mix", "them", "tiny", 4.0),
        ];
        let mix = &super::groups(&results)[0];
        assert!((mix.mean_ratio("them").unwrap() - 4.0).abs() < 1e-12);
        assert_eq!(mix.mean_ratio("nobody"), None);
    }

    #[test]
    fn peers_are_compared_on_the_same_setting() {
        let times = [
            ("ours/slice", 1.0),
            ("theirs/slice", 3.0),
            ("ours/Bytes", 2.0),
            ("theirs/Bytes", 3.0),
            ("theirs/Cursor", 4.0),
            ("plain", 5.0),
        ];
        let results = times.map(|(function, ns)| m("io", function, "mix", ns));
        let io = &groups(&results)[0];
        assert_eq!(io.baseline("theirs/slice"), "ours/slice");
        assert_eq!(io.baseline("theirs/Bytes"), "ours/Bytes");
        // No `ours/Cursor`, and our own settings: the subject.
        assert_eq!(io.baseline("theirs/Cursor"), "ours/slice");
        assert_eq!(io.baseline("ours/Bytes"), "ours/slice");
        assert_eq!(io.baseline("plain"), "ours/slice");
        assert_eq!(io.ratio("theirs/Bytes", "mix"), Some(1.5));
        assert_eq!(io.ratio("ours/Bytes", "mix"), Some(2.0));
        assert_eq!(io.like_for_like(), [("theirs/Bytes", "ours/Bytes")]);
        assert_eq!(
            io.like_for_like_note().unwrap(),
            "Peers are compared on the same setting: theirs/Bytes with ours/Bytes; the rest with ours/slice."
        );
        let (_, rows) = io.table();
        assert_eq!(rows[0][4], "0.750 (1.50×)"); // ns per value of 4
    }

    #[test]
    fn ladder_compares_with_first_and_previous_step() {
        let results = [
            m("ladder", "reference", "64", 100.0),
            m("ladder", "step 2", "64", 50.0),
            m("ladder", "step 3", "64", 25.0),
        ];
        let groups = groups(&results);
        let ladder = groups[0].ladder();
        assert_eq!(ladder.len(), 1);
        let (param, rows) = &ladder[0];
        assert_eq!(param, "64");
        assert_eq!(rows[2][0], "step 3");
        assert_eq!(rows[0][3..], ["1.00×", "-"]);
        assert_eq!(rows[2][3..], ["4.00×", "2.00×"]);

        // One function over several inputs: the inputs are the steps.
        let results = [
            m("ladder", "core", "step 1", 100.0),
            m("ladder", "core", "step 2", 25.0),
        ];
        let ladder = super::groups(&results)[0].ladder();
        assert_eq!(ladder.len(), 1);
        let (_, rows) = &ladder[0];
        assert_eq!(rows[1][0], "step 2");
        assert_eq!(rows[1][3..], ["4.00×", "4.00×"]);
    }

    #[test]
    fn shown_units() {
        let mut x = m("g", "f", "p", 2000.0);
        assert_eq!(x.shown(), 500.0);
        x.throughput = Some(Throughput::Bytes(1000.0));
        assert_eq!(x.shown(), 500.0); // 1000 B in 2 µs = 500 MB/s
        x.throughput = None;
        assert_eq!(x.shown(), 2000.0);
        assert_eq!(Unit::MegabytesPerSecond.better(), "higher is better");
        assert_eq!(Unit::NsPerValue.better(), "lower is better");
        assert_eq!(Unit::Nanoseconds.better(), "lower is better");
    }
}
