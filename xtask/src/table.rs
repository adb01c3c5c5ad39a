//! A plain-text table printer for xtask reports.

/// Prints `rows` under `header`, columns padded to their widest cell;
/// columns after the first are right-aligned (they hold numbers).
pub(crate) fn print(header: &[&str], rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, &w))| {
                if i == 0 {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        println!("{}", padded.join("  ").trim_end());
    };
    line(header.to_vec());
    println!(
        "{}",
        widths
            .iter()
            .map(|&w| "-".repeat(w))
            .collect::<Vec<_>>()
            .join("  ")
    );
    for row in rows {
        line(row.iter().map(String::as_str).collect());
    }
}
