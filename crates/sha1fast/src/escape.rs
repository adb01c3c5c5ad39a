//! The escaping coreutils applies to file names in checksum lines, so a
//! name with a newline cannot break a line in two: such a line starts
//! with `\`, and in its name `\` is written `\\`, newline `\n` and
//! carriage return `\r`. `-z` lines are never escaped.

/// Whether a name in a hashing line must be escaped (`sha1sum`'s
/// `problematic_chars`).
pub(crate) fn needs_escape(name: &[u8]) -> bool {
    name.iter().any(|&b| matches!(b, b'\\' | b'\n' | b'\r'))
}

/// Whether a name in a `--check` report line is escaped: coreutils 9.1
/// escapes those only for a newline.
pub(crate) fn needs_escape_in_report(name: &[u8]) -> bool {
    name.contains(&b'\n')
}

/// Appends `name`, escaped.
pub(crate) fn push_escaped(out: &mut Vec<u8>, name: &[u8]) {
    for &b in name {
        match b {
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            _ => out.push(b),
        }
    }
}

/// An escaped name read back, or `None` where it is not a valid escaped
/// name: a trailing lone `\`, a `\` before anything but `n`, `r` or
/// `\`, or a NUL byte (`sha1sum`'s `filename_unescape`).
pub(crate) fn unescape(escaped: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(escaped.len());
    let mut bytes = escaped.iter();
    while let Some(&b) = bytes.next() {
        match b {
            b'\\' => out.push(match bytes.next()? {
                b'n' => b'\n',
                b'r' => b'\r',
                b'\\' => b'\\',
                _ => return None,
            }),
            0 => return None,
            _ => out.push(b),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_reads_back() {
        let name = b"a\\b\nc\rd";
        let mut escaped = Vec::new();
        push_escaped(&mut escaped, name);
        assert_eq!(escaped, b"a\\\\b\\nc\\rd");
        assert_eq!(unescape(&escaped).as_deref(), Some(&name[..]));
        assert!(needs_escape(name) && needs_escape_in_report(name));
        assert!(needs_escape(b"a\\b") && !needs_escape_in_report(b"a\\b"));
        assert!(!needs_escape(b"plain name"));
    }

    #[test]
    fn refuses_invalid_escapes() {
        for bad in [&b"trailing\\"[..], b"\\t", b"a\\x", b"nul\0"] {
            assert_eq!(unescape(bad), None, "{bad:?}");
        }
    }
}
