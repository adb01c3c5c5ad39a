//! What every vector parser shares: the error that names the file and
//! line, the data lines of a file, reading it, and hex.

use std::fmt;
use std::path::Path;

/// A vector file that could not be read or parsed.
#[derive(Debug)]
pub struct VectorError {
    /// File (or source name) that failed.
    pub source_name: String,
    /// 1-based line, 0 for whole-file problems.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.source_name, self.message)
        } else {
            write!(f, "{}:{}: {}", self.source_name, self.line, self.message)
        }
    }
}

impl std::error::Error for VectorError {}

pub(crate) fn error(source_name: &str, line: usize, message: impl Into<String>) -> VectorError {
    VectorError {
        source_name: source_name.to_owned(),
        line,
        message: message.into(),
    }
}

/// The data lines of a vector file: `(line number, fields)` for every line
/// that is not blank once `#` comments are cut off.
pub(crate) fn records(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(index, raw)| {
        let content = raw.split('#').next().unwrap_or("").trim();
        (!content.is_empty()).then(|| (index + 1, content.split_whitespace().collect()))
    })
}

/// Reads a file for one of the parsers.
pub fn read(path: &Path) -> Result<String, VectorError> {
    std::fs::read_to_string(path)
        .map_err(|e| error(&path.display().to_string(), 0, format!("cannot read: {e}")))
}

/// Decodes hex (upper or lower case, even length); `-` is the empty string.
pub fn parse_hex(text: &str) -> Option<Vec<u8>> {
    if text == "-" {
        return Some(Vec::new());
    }
    if !text.len().is_multiple_of(2) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}
