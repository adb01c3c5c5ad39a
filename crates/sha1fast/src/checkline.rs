//! Reading one line of a checksum list as `sha1sum -c` reads it
//! (coreutils' `split_3` and `bsd_split_3`): `hex  name`, `hex *name`,
//! the BSD `SHA1 (name) = hex`, a leading `\` for an escaped name, and
//! the "reversed" `hex name` with one space, which once seen (or once
//! the two-space form is seen) fixes the form for every later line.

use crate::escape::unescape;
use sha1_fast::Digest;

/// Hex digits of a digest.
const HEX_LEN: usize = 2 * Digest::LEN;

/// The shortest `hex  name` line: the digest, a blank, one character.
const MIN_LINE: usize = HEX_LEN + 2;

/// A checksum line: the digest it expects and the name it gives.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) digest: Digest,
    pub(crate) name: Vec<u8>,
}

/// Reads lines, remembering whether the reversed form is in use.
#[derive(Debug, Default)]
pub(crate) struct LineReader {
    /// `None` until a line decides it.
    reversed: Option<bool>,
}

fn is_white(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// The byte at `i`, or 0 past the end, as C reads a terminated string.
fn at(s: &[u8], i: usize) -> u8 {
    s.get(i).copied().unwrap_or(0)
}

/// The digest written as exactly 40 hex digits, either case.
fn parse_digest(hex: &[u8]) -> Option<Digest> {
    if hex.len() != HEX_LEN {
        return None;
    }
    let mut bytes = [0u8; Digest::LEN];
    for (byte, pair) in bytes.iter_mut().zip(hex.chunks_exact(2)) {
        let digit = |c: u8| char::from(c).to_digit(16);
        *byte = (digit(pair[0])? << 4 | digit(pair[1])?) as u8;
    }
    Some(Digest::from_bytes(bytes))
}

/// A name as C sees it: up to its first NUL, or unescaped.
fn name(raw: &[u8], escaped: bool) -> Option<Vec<u8>> {
    if escaped {
        return unescape(raw);
    }
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    Some(raw[..end].to_vec())
}

impl LineReader {
    /// The entry on `line` (its `\n` and one `\r` already removed), or
    /// `None` for a line that is not a checksum line.
    pub(crate) fn read(&mut self, s: &[u8]) -> Option<Entry> {
        let mut i = 0;
        while is_white(at(s, i)) {
            i += 1;
        }
        let escaped = at(s, i) == b'\\';
        if escaped {
            i += 1;
        }
        if s[i..].starts_with(b"SHA1") {
            i += 4;
            if at(s, i) == b' ' {
                i += 1;
            }
            if at(s, i) != b'(' {
                return None;
            }
            return read_tagged(&s[i + 1..], escaped);
        }
        if s.len() - i < MIN_LINE + usize::from(at(s, i) == b'\\') {
            return None;
        }
        let hex_start = i;
        while at(s, i) != 0 && !is_white(at(s, i)) {
            i += 1;
        }
        if i == s.len() {
            return None;
        }
        let digest = parse_digest(&s[hex_start..i])?;
        i += 1;
        if s.len() - i == 1 || (at(s, i) != b' ' && at(s, i) != b'*') {
            // `hex name`: refused once the two-space form was seen, so
            // a renamed file with a leading blank cannot slip in.
            if self.reversed == Some(false) {
                return None;
            }
            self.reversed = Some(true);
        } else if self.reversed != Some(true) {
            self.reversed = Some(false);
            // The mode character, `*` or ` `: binary and text are the
            // same here.
            i += 1;
        }
        Some(Entry {
            digest,
            name: name(&s[i..], escaped)?,
        })
    }
}

/// `name) = hex`, the rest of a BSD-style line after `SHA1 (`.
fn read_tagged(s: &[u8], escaped: bool) -> Option<Entry> {
    let close = s.iter().rposition(|&b| b == b')')?;
    let name = name(&s[..close], escaped)?;
    let mut i = close + 1;
    while is_white(at(s, i)) {
        i += 1;
    }
    if at(s, i) != b'=' {
        return None;
    }
    i += 1;
    while is_white(at(s, i)) {
        i += 1;
    }
    let digest = parse_digest(&s[i..])?;
    Some(Entry { digest, name })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "a9993e364706816aba3e25717850c26c9cd0d89d";

    fn read(lines: &[&str]) -> Vec<Option<Vec<u8>>> {
        let mut reader = LineReader::default();
        lines
            .iter()
            .map(|line| reader.read(line.as_bytes()).map(|entry| entry.name))
            .collect()
    }

    #[test]
    fn reads_each_form() {
        let name = |s: &str| Some(s.as_bytes().to_vec());
        assert_eq!(read(&[&format!("{HEX}  a b")]), [name("a b")]);
        assert_eq!(read(&[&format!("{HEX} *a")]), [name("a")]);
        assert_eq!(read(&[&format!("SHA1 (x) = {HEX}")]), [name("x")]);
        assert_eq!(read(&[&format!("SHA1(x)={HEX}")]), [name("x")]);
        assert_eq!(read(&[&format!("\\{HEX}  a\\\\b\\nc")]), [name("a\\b\nc")]);
        assert_eq!(
            read(&[&format!("  {}  up", HEX.to_uppercase())]),
            [name("up")]
        );
    }

    #[test]
    fn the_first_line_fixes_the_form() {
        let name = |s: &str| Some(s.as_bytes().to_vec());
        let reversed = format!("{HEX} a");
        let standard = format!("{HEX}  a");
        assert_eq!(read(&[&reversed, &standard]), [name("a"), name(" a")]);
        assert_eq!(read(&[&standard, &reversed]), [name("a"), None]);
    }

    #[test]
    fn refuses_what_is_not_a_checksum_line() {
        let short = &HEX[1..];
        for line in [
            "",
            "bad line",
            &format!("{short}  a"),
            HEX,
            &format!("{HEX}x  a"),
            &format!("SHA1 (a) = {short}"),
            &format!("SHA1 (a = {HEX}"),
            &format!("SHA1 (a) {HEX}"),
            &format!("\\{HEX}  bad\\escape"),
            &format!("g{}  a", &HEX[1..]),
        ] {
            assert_eq!(read(&[line]), [None], "{line:?}");
        }
    }
}
