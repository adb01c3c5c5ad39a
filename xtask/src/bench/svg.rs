//! Hand-written SVG bar charts: a few rectangles and labels render the same
//! on GitHub and in any browser, with no plotting crate to build.

use std::fmt::Write as _;

/// A grouped horizontal bar chart: one block of bars per category, one bar
/// (and legend entry) per series.
pub(crate) struct Chart {
    pub(crate) title: String,
    /// What the axis measures, e.g. "ns/value (lower is better)".
    pub(crate) axis: String,
    pub(crate) series: Vec<String>,
    /// Each category's label and its value for each series (`None`: not
    /// measured).
    pub(crate) categories: Vec<(String, Vec<Option<f64>>)>,
}

/// The first series (the subject) gets the strongest colour.
const PALETTE: [&str; 10] = [
    "#d62728", "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

const WIDTH: f64 = 900.0;
const LEFT: f64 = 120.0;
const RIGHT: f64 = 70.0;
const BAR: f64 = 11.0;
const BAR_GAP: f64 = 2.0;
const CATEGORY_GAP: f64 = 12.0;
const LEGEND_COLUMN: f64 = 175.0;
const FONT: &str = "font-family=\"Helvetica, Arial, sans-serif\"";

/// `x` rounded up to a round multiple of a power of ten, so the axis and
/// its fifths land on short numbers.
fn nice_ceiling(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return 1.0;
    }
    let power = 10f64.powf(x.log10().floor());
    [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= x)
        .unwrap_or(10.0 * power)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Short labels for bar ends and ticks.
fn number(x: f64) -> String {
    match x {
        x if x >= 100.0 => format!("{x:.0}"),
        x if x >= 10.0 => format!("{x:.1}"),
        _ => format!("{x:.2}"),
    }
}

impl Chart {
    pub(crate) fn render(&self) -> String {
        let max = self
            .categories
            .iter()
            .flat_map(|(_, values)| values.iter().flatten())
            .fold(0.0f64, |m, &v| m.max(v));
        let axis_max = nice_ceiling(max);
        let plot_width = WIDTH - LEFT - RIGHT;
        let scale = |v: f64| v / axis_max * plot_width;

        let per_row = ((WIDTH - 20.0) / LEGEND_COLUMN).floor().max(1.0) as usize;
        let legend_rows = self.series.len().div_ceil(per_row);
        let legend_top = 40.0;
        let plot_top = legend_top + legend_rows as f64 * 18.0 + 10.0;
        let block = self.series.len() as f64 * (BAR + BAR_GAP) - BAR_GAP;
        let plot_height = self.categories.len() as f64 * (block + CATEGORY_GAP);
        let height = plot_top + plot_height + 40.0;

        let mut svg = String::new();
        let _ = writeln!(
            svg,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
             viewBox=\"0 0 {WIDTH} {height}\" {FONT} font-size=\"11\">"
        );
        // An opaque background keeps the chart legible in dark themes.
        let _ = writeln!(
            svg,
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>"
        );
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"22\" font-size=\"15\" font-weight=\"bold\" text-anchor=\"middle\">{}</text>",
            WIDTH / 2.0,
            escape(&self.title)
        );

        for (i, name) in self.series.iter().enumerate() {
            let x = 10.0 + (i % per_row) as f64 * LEGEND_COLUMN;
            let y = legend_top + (i / per_row) as f64 * 18.0;
            let colour = PALETTE[i % PALETTE.len()];
            let _ = writeln!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"12\" height=\"12\" fill=\"{colour}\"/>\
                 <text x=\"{}\" y=\"{}\">{}</text>",
                x + 17.0,
                y + 10.0,
                escape(name)
            );
        }

        // Grid lines and tick labels at fifths of the axis.
        for tick in 0..=5 {
            let value = axis_max * f64::from(tick) / 5.0;
            let x = LEFT + scale(value);
            let bottom = plot_top + plot_height;
            let _ = writeln!(
                svg,
                "<line x1=\"{x:.1}\" y1=\"{plot_top}\" x2=\"{x:.1}\" y2=\"{bottom}\" stroke=\"#dddddd\"/>\
                 <text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555555\">{}</text>",
                bottom + 14.0,
                // Ticks are round: print them without trailing zeros.
                (value * 1e3).round() / 1e3
            );
        }
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            LEFT + plot_width / 2.0,
            height - 8.0,
            escape(&self.axis)
        );

        for (c, (label, values)) in self.categories.iter().enumerate() {
            let top = plot_top + c as f64 * (block + CATEGORY_GAP) + CATEGORY_GAP / 2.0;
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" font-weight=\"bold\">{}</text>",
                LEFT - 8.0,
                top + block / 2.0 + 4.0,
                escape(label)
            );
            for (i, value) in values.iter().enumerate() {
                let Some(value) = *value else { continue };
                let y = top + i as f64 * (BAR + BAR_GAP);
                let w = scale(value).max(0.5);
                let colour = PALETTE[i % PALETTE.len()];
                let _ = writeln!(
                    svg,
                    "<rect x=\"{LEFT}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{BAR}\" fill=\"{colour}\">\
                     <title>{}: {}</title></rect>\
                     <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" fill=\"#333333\">{}</text>",
                    escape(&self.series[i]),
                    number(value),
                    LEFT + w + 3.0,
                    y + BAR - 2.0,
                    number(value)
                );
            }
        }
        svg.push_str("</svg>\n");
        svg
    }
}

#[cfg(test)]
mod tests {
    use super::{Chart, nice_ceiling};

    #[test]
    fn axis_ends_on_round_numbers() {
        assert!((nice_ceiling(0.7) - 0.8).abs() < 1e-12);
        assert_eq!(nice_ceiling(0.95), 1.0);
        assert_eq!(nice_ceiling(3.2), 4.0);
        assert_eq!(nice_ceiling(10.2), 15.0);
        assert_eq!(nice_ceiling(500.0), 500.0);
        assert_eq!(nice_ceiling(0.0), 1.0);
    }

    #[test]
    fn renders_every_bar_and_escapes_labels() {
        let chart = Chart {
            title: "a <b> & c".into(),
            axis: "ns/value".into(),
            series: vec!["x".into(), "y".into()],
            categories: vec![
                ("tiny".into(), vec![Some(1.0), Some(2.0)]),
                ("large".into(), vec![None, Some(4.0)]),
            ],
        };
        let svg = chart.render();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(svg.contains("a &lt;b&gt; &amp; c"));
        assert_eq!(svg.matches("<title>").count(), 3);
    }
}
