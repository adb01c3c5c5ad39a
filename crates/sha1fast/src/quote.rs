//! File names in error messages, quoted as coreutils quotes them
//! (gnulib's `quotef`: the shell-escape style, with `:` quoted too), so
//! `sha1fast: 'a b': No such file or directory` reads as `sha1sum`'s
//! line and can be pasted into a shell.
//!
//! A name that a shell would read as itself is shown bare. Any other is
//! put in single quotes, a `'` inside as `'\''`, and control characters
//! and bytes that are not UTF-8 as `$'\n'`-style escapes between the
//! quoted runs. A name whose only problem is a `'` gets double quotes
//! instead (`"it's"`). Characters are judged as in a UTF-8 locale.

/// `name` quoted for an error message. Every byte that is not part of
/// a printable UTF-8 character is escaped, so the result is text.
pub(crate) fn quote(name: &[u8]) -> String {
    let quoted = quote_bytes(name);
    String::from_utf8(quoted).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn quote_bytes(name: &[u8]) -> Vec<u8> {
    let units: Vec<Unit> = units(name).collect();
    let first = |u: &Unit| u.start == 0;
    if !name.is_empty() && units.iter().all(|u| bare(u, first(u), name.len())) {
        return name.to_vec();
    }
    if name.contains(&b'\'') && units.iter().all(|u| double_quotable(u, first(u))) {
        let mut out = Vec::with_capacity(name.len() + 2);
        out.push(b'"');
        out.extend_from_slice(name);
        out.push(b'"');
        return out;
    }
    single_quoted(name, &units)
}

/// A character of a name as gnulib sees it in a UTF-8 locale.
#[derive(Clone, Copy)]
struct Unit {
    start: usize,
    len: usize,
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A printable ASCII character.
    Ascii(u8),
    /// A printable character beyond ASCII.
    Wide,
    /// A control character, or a byte that is not part of valid UTF-8.
    Unprintable(u8),
}

/// The characters of `name`, each invalid byte a unit of its own.
fn units(name: &[u8]) -> impl Iterator<Item = Unit> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let b = *name.get(at)?;
        let start = at;
        let (len, kind) = match b {
            0x20..=0x7E => (1, Kind::Ascii(b)),
            0x80.. => match char_at(&name[at..]) {
                Some((c, len)) if !c.is_control() => (len, Kind::Wide),
                _ => (1, Kind::Unprintable(b)),
            },
            _ => (1, Kind::Unprintable(b)),
        };
        at += len;
        Some(Unit { start, len, kind })
    })
}

/// The UTF-8 character `bytes` starts with, and its length.
fn char_at(bytes: &[u8]) -> Option<(char, usize)> {
    let len = match bytes.first()? {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let s = std::str::from_utf8(bytes.get(..len)?).ok()?;
    s.chars().next().map(|c| (c, len))
}

/// Whether `unit` leaves a name readable unquoted by a shell.
fn bare(unit: &Unit, first: bool, name_len: usize) -> bool {
    match unit.kind {
        Kind::Ascii(b'{' | b'}') => name_len != 1,
        Kind::Ascii(b'#' | b'~') => !first,
        Kind::Ascii(
            b' ' | b'!' | b'"' | b'$' | b'&' | b'(' | b')' | b'*' | b';' | b'<' | b'=' | b'>'
            | b'[' | b'^' | b'`' | b'|' | b'\'' | b'?' | b'\\' | b':',
        ) => false,
        Kind::Ascii(_) | Kind::Wide => true,
        Kind::Unprintable(_) => false,
    }
}

/// Whether `unit` may stand in a double-quoted name: the characters
/// gnulib counts as reading the same in C and in shell quotes.
fn double_quotable(unit: &Unit, first: bool) -> bool {
    match unit.kind {
        Kind::Ascii(b'#' | b'~') => first,
        Kind::Ascii(
            b' '
            | b'\''
            | b'%'
            | b'+'
            | b','
            | b'-'
            | b'.'
            | b'/'
            | b':'
            | b']'
            | b'_'
            | b'@'
            | b'0'..=b'9'
            | b'A'..=b'Z'
            | b'a'..=b'z',
        )
        | Kind::Wide => true,
        Kind::Ascii(_) | Kind::Unprintable(_) => false,
    }
}

/// `name` in single quotes, with `$'...'` escapes for what cannot be
/// shown as it is.
fn single_quoted(name: &[u8], units: &[Unit]) -> Vec<u8> {
    let mut out = vec![b'\''];
    // Inside a `'$'...` run, which `''` closes before a plain character.
    let mut in_escape = false;
    for unit in units {
        match unit.kind {
            Kind::Ascii(b'\'') => {
                out.extend_from_slice(b"'\\''");
                in_escape = false;
            }
            Kind::Ascii(_) | Kind::Wide => {
                if in_escape {
                    out.extend_from_slice(b"''");
                    in_escape = false;
                }
                out.extend_from_slice(&name[unit.start..unit.start + unit.len]);
            }
            Kind::Unprintable(b) => {
                if !in_escape {
                    out.extend_from_slice(b"'$'");
                    in_escape = true;
                }
                out.push(b'\\');
                match b {
                    0x07 => out.push(b'a'),
                    0x08 => out.push(b'b'),
                    0x0C => out.push(b'f'),
                    b'\n' => out.push(b'n'),
                    b'\r' => out.push(b'r'),
                    b'\t' => out.push(b't'),
                    0x0B => out.push(b'v'),
                    _ => out.extend_from_slice(&[
                        b'0' + (b >> 6),
                        b'0' + ((b >> 3) & 7),
                        b'0' + (b & 7),
                    ]),
                }
            }
        }
    }
    out.push(b'\'');
    out
}

#[cfg(test)]
mod tests {
    use super::quote;

    /// Each case as `sha1sum` 9.1 (coreutils, C.UTF-8) printed it.
    #[test]
    fn quotes_as_coreutils() {
        let cases: [(&[u8], &str); 22] = [
            (b"plain.txt", "plain.txt"),
            (b"a b", "'a b'"),
            (b"a:b", "'a:b'"),
            (b"it's", "\"it's\""),
            (b"it's a", "\"it's a\""),
            (b"x'", "\"x'\""),
            (b"#x", "'#x'"),
            (b"x#", "x#"),
            (b"~x", "'~x'"),
            (b"a=b", "'a=b'"),
            ("é".as_bytes(), "é"),
            (b"a\tb", "'a'$'\\t''b'"),
            (b"a,b", "a,b"),
            (b"a%b+@^", "'a%b+@^'"),
            (b"{x}", "{x}"),
            (b"a?b", "'a?b'"),
            (b"x\x01y", "'x'$'\\001''y'"),
            (b"", "''"),
            (b"\xFF", "''$'\\377'"),
            (b"a'b\"c", "'a'\\''b\"c'"),
            (b"nx/a\\b\nc", "'nx/a\\b'$'\\n''c'"),
            (b"nx/it's\nx", "'nx/it'\\''s'$'\\n''x'"),
        ];
        for (name, want) in cases {
            assert_eq!(quote(name), want, "{}", String::from_utf8_lossy(name));
        }
    }
}
