//! Parsers for the vector files under `vectors/`.
//!
//! Every parser rejects what it does not understand, with the file line, so
//! a corrupted or truncated vector file fails the run instead of silently
//! testing fewer cases.

pub use crate::records::{VectorError, parse_hex, read};
use crate::records::{error, records};
use std::path::Path;

/// What a bijou vector expects from decoding its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BijouExpect {
    /// Decodes (consuming every byte) to this decimal value, and the value
    /// encodes to exactly these bytes.
    Value(String),
    /// Decoding fails with `Truncated`.
    Truncated,
    /// Decoding fails with `Overflow`.
    Overflow,
}

/// One line of a bijou vector file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BijouCase {
    /// 1-based line in the file.
    pub line: usize,
    /// `bijou32`, `bijou64`, `bijou128`, `bijou32s`, `bijou64s` or `bijou128s`.
    pub width: String,
    /// Expected outcome.
    pub expect: BijouExpect,
    /// The encoding.
    pub bytes: Vec<u8>,
}

/// The widths a bijou vector may name.
pub const BIJOU_WIDTHS: [&str; 6] = [
    "bijou32",
    "bijou64",
    "bijou128",
    "bijou32s",
    "bijou64s",
    "bijou128s",
];

/// Parses a bijou vector file: `#` comments and blank lines, then lines of
/// `WIDTH VALUE HEX` where VALUE is a decimal integer, `error:truncated` or
/// `error:overflow`, and HEX is the encoding (`-` when empty).
pub fn parse_bijou(source_name: &str, text: &str) -> Result<Vec<BijouCase>, VectorError> {
    let mut cases = Vec::new();
    for (line, fields) in records(text) {
        let [width, value, hex] = fields[..] else {
            return Err(error(
                source_name,
                line,
                format!("expected `WIDTH VALUE HEX`, found {} fields", fields.len()),
            ));
        };
        if !BIJOU_WIDTHS.contains(&width) {
            return Err(error(source_name, line, format!("unknown width `{width}`")));
        }
        let expect = match value {
            "error:truncated" => BijouExpect::Truncated,
            "error:overflow" => BijouExpect::Overflow,
            v if v
                .strip_prefix('-')
                .unwrap_or(v)
                .bytes()
                .all(|b| b.is_ascii_digit())
                && !v.is_empty()
                && v != "-" =>
            {
                BijouExpect::Value(v.to_owned())
            }
            other => return Err(error(source_name, line, format!("bad value `{other}`"))),
        };
        let bytes =
            parse_hex(hex).ok_or_else(|| error(source_name, line, format!("bad hex `{hex}`")))?;
        cases.push(BijouCase {
            line,
            width: width.to_owned(),
            expect,
            bytes,
        });
    }
    if cases.is_empty() {
        return Err(error(source_name, 0, "no vectors found"));
    }
    Ok(cases)
}

/// One NIST CAVP hash vector (or one of our own in the same layout).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashCase {
    /// 1-based line of the `Len` entry.
    pub line: usize,
    /// The message.
    pub message: Vec<u8>,
    /// The expected digest.
    pub digest: Vec<u8>,
}

/// Parses a NIST CAVP `.rsp` file (`Len = bits`, `Msg = hex`, `MD = hex`,
/// CRLF or LF). `Len = 0` carries `Msg = 00` by NIST convention. Bit
/// lengths that are not whole bytes, hex of the wrong length and digests of
/// the wrong size are errors.
pub fn parse_rsp(
    source_name: &str,
    text: &str,
    digest_len: usize,
) -> Result<Vec<HashCase>, VectorError> {
    let mut cases = Vec::new();
    let mut pending: Option<(usize, usize, Option<Vec<u8>>)> = None; // (line, bits, msg)
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.trim();
        if content.is_empty() || content.starts_with('#') || content.starts_with('[') {
            continue;
        }
        let Some((key, value)) = content.split_once('=') else {
            return Err(error(
                source_name,
                line,
                format!("expected `KEY = VALUE`, found `{content}`"),
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        match key {
            "Len" => {
                if pending.is_some() {
                    return Err(error(
                        source_name,
                        line,
                        "`Len` before the previous vector's `MD`",
                    ));
                }
                let bits: usize = value
                    .parse()
                    .map_err(|_| error(source_name, line, format!("bad Len `{value}`")))?;
                if !bits.is_multiple_of(8) {
                    return Err(error(
                        source_name,
                        line,
                        format!("Len {bits} is not whole bytes"),
                    ));
                }
                pending = Some((line, bits, None));
            }
            "Msg" => {
                let Some((_, bits, msg @ None)) = pending.as_mut() else {
                    return Err(error(source_name, line, "`Msg` without a preceding `Len`"));
                };
                let mut bytes =
                    parse_hex(value).ok_or_else(|| error(source_name, line, "bad Msg hex"))?;
                // An empty message is written `Msg = 00`.
                if *bits == 0 {
                    if bytes != [0] {
                        return Err(error(source_name, line, "Len 0 needs Msg = 00"));
                    }
                    bytes.clear();
                }
                if bytes.len() * 8 != *bits {
                    return Err(error(
                        source_name,
                        line,
                        format!("Msg has {} bytes, Len says {}", bytes.len(), *bits / 8),
                    ));
                }
                *msg = Some(bytes);
            }
            "MD" => {
                let Some((start, _, Some(message))) = pending.take() else {
                    return Err(error(source_name, line, "`MD` without `Len` and `Msg`"));
                };
                let digest =
                    parse_hex(value).ok_or_else(|| error(source_name, line, "bad MD hex"))?;
                if digest.len() != digest_len {
                    return Err(error(
                        source_name,
                        line,
                        format!("MD has {} bytes, expected {digest_len}", digest.len()),
                    ));
                }
                cases.push(HashCase {
                    line: start,
                    message,
                    digest,
                });
            }
            other => return Err(error(source_name, line, format!("unknown key `{other}`"))),
        }
    }
    if pending.is_some() {
        return Err(error(source_name, 0, "file ends inside a vector"));
    }
    if cases.is_empty() {
        return Err(error(source_name, 0, "no vectors found"));
    }
    Ok(cases)
}

/// One line of a repeated-message hash vector file (`vectors/sha1/fips.txt`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepeatCase {
    /// 1-based line in the file.
    pub line: usize,
    /// How many times `message` is hashed back to back.
    pub repeat: u64,
    /// The repeated unit.
    pub message: Vec<u8>,
    /// The expected digest of the whole input.
    pub digest: Vec<u8>,
}

impl RepeatCase {
    /// Inputs longer than this are long checks: `#[ignore]`d tests, and
    /// `cargo xtask conformance --long`.
    pub const LONG: u64 = 64 << 20;

    /// Whether this is a long check (over [`LONG`](Self::LONG) bytes).
    pub fn is_long(&self) -> bool {
        self.len() > Self::LONG
    }

    /// Total input length in bytes.
    pub fn len(&self) -> u64 {
        self.repeat * self.message.len() as u64
    }

    /// Whether the input is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Hands the whole input (`message` `repeat` times) to `sink` in
    /// pieces of whole messages, each of at most `max_piece` bytes (or one
    /// message, if longer), so a 1 GiB input never sits in memory. An
    /// empty input gives no pieces.
    pub fn for_each_piece(&self, max_piece: usize, mut sink: impl FnMut(&[u8])) {
        if self.message.is_empty() {
            return;
        }
        let per_piece = (max_piece / self.message.len()).max(1) as u64;
        let piece = self.message.repeat(per_piece as usize);
        let mut left = self.repeat;
        while left > 0 {
            let take = left.min(per_piece);
            sink(&piece[..take as usize * self.message.len()]);
            left -= take;
        }
    }
}

/// Parses `REPEAT MESSAGE DIGEST` lines (`#` comments; MESSAGE is ASCII
/// without spaces, `-` for empty; DIGEST is hex of `digest_len` bytes).
pub fn parse_repeat(
    source_name: &str,
    text: &str,
    digest_len: usize,
) -> Result<Vec<RepeatCase>, VectorError> {
    let mut cases = Vec::new();
    for (line, fields) in records(text) {
        let [repeat, message, digest] = fields[..] else {
            return Err(error(
                source_name,
                line,
                format!(
                    "expected `REPEAT MESSAGE DIGEST`, found {} fields",
                    fields.len()
                ),
            ));
        };
        let repeat: u64 = repeat
            .parse()
            .ok()
            .filter(|&r| r > 0)
            .ok_or_else(|| error(source_name, line, format!("bad REPEAT `{repeat}`")))?;
        if !message.is_ascii() {
            return Err(error(source_name, line, "MESSAGE must be ASCII"));
        }
        let message = if message == "-" {
            Vec::new()
        } else {
            message.as_bytes().to_vec()
        };
        let digest = parse_hex(digest)
            .filter(|d| d.len() == digest_len)
            .ok_or_else(|| {
                error(
                    source_name,
                    line,
                    format!("DIGEST must be {digest_len} bytes of hex"),
                )
            })?;
        cases.push(RepeatCase {
            line,
            repeat,
            message,
            digest,
        });
    }
    if cases.is_empty() {
        return Err(error(source_name, 0, "no vectors found"));
    }
    Ok(cases)
}

/// The format of a vector file, which says which suite runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `WIDTH VALUE HEX` lines ([`parse_bijou`]).
    Bijou,
    /// A NIST CAVP `.rsp` file ([`parse_rsp`]).
    Rsp,
    /// `REPEAT MESSAGE DIGEST` lines ([`parse_repeat`]).
    Repeat,
    /// `FILE PLAIN MITIGATED MITIGATED_REDUCED_ROUND` lines naming colliding
    /// files beside the manifest ([`parse_collisions`]).
    Collisions,
    /// `TYPE HEX EXPECTED` lines ([`crate::serde_cases::parse`]).
    Serde,
}

/// One vector file under `vectors/`.
#[derive(Debug, Clone, Copy)]
pub struct VectorFile {
    /// Short name for reports (`spec`, `NIST ShortMsg`, …).
    pub name: &'static str,
    /// Path relative to `vectors/`.
    pub path: &'static str,
    /// How to read it, hence which suite runs it.
    pub format: Format,
    /// The number of vectors it holds.
    pub cases: usize,
}

/// Every vector file under `vectors/`. Conformance runs each through the
/// suite of its format, and the loaders refuse a file that is not listed
/// here or whose count differs, so a truncated or extended file fails every
/// suite that reads it; [`unlisted_files`] finds a file on disk that no
/// suite would run.
pub const FILES: [VectorFile; 8] = {
    const fn file(
        name: &'static str,
        path: &'static str,
        format: Format,
        cases: usize,
    ) -> VectorFile {
        VectorFile {
            name,
            path,
            format,
            cases,
        }
    }
    [
        // The spec's own vectors, the signed widths', and every width's
        // tier edges, overflow and truncation edges.
        file("spec", "bijou/spec.txt", Format::Bijou, 55),
        file("signed", "bijou/signed.txt", Format::Bijou, 43),
        file("boundaries", "bijou/boundaries.txt", Format::Bijou, 164),
        file("NIST ShortMsg", "sha1/SHA1ShortMsg.rsp", Format::Rsp, 65),
        file("NIST LongMsg", "sha1/SHA1LongMsg.rsp", Format::Rsp, 64),
        file("FIPS examples", "sha1/fips.txt", Format::Repeat, 6),
        // SHAttered and Shambles, with the digests sha1collisiondetection gives.
        file(
            "SHA-1 collisions",
            "sha1-collisions/expected.txt",
            Format::Collisions,
            4,
        ),
        // bijou-serde: each rule of docs/SERDE.md, accepted and refused.
        file("serde format", "serde/format.txt", Format::Serde, 129),
    ]
};

/// The listed files of one format.
pub fn files(format: Format) -> impl Iterator<Item = &'static VectorFile> {
    FILES.iter().filter(move |f| f.format == format)
}

/// Reads, parses and counts a listed file under `vectors/`.
fn load<T>(
    relative: &str,
    parse: impl FnOnce(&str, &str) -> Result<Vec<T>, VectorError>,
) -> Result<Vec<T>, VectorError> {
    let path = crate::vector_path(relative);
    let source_name = path.display().to_string();
    let Some(expected) = FILES.iter().find(|f| f.path == relative).map(|f| f.cases) else {
        return Err(error(
            &source_name,
            0,
            "not listed in testkit::vectors::FILES",
        ));
    };
    let cases = parse(&source_name, &read(&path)?)?;
    if cases.len() != expected {
        return Err(error(
            &source_name,
            0,
            format!(
                "{} vectors, testkit::vectors::FILES expects {expected} \
                 (a truncated or edited file, or a count to update)",
                cases.len()
            ),
        ));
    }
    Ok(cases)
}

/// Loads and parses a repeated-message vector file under `vectors/`.
pub fn load_repeat(relative: &str, digest_len: usize) -> Result<Vec<RepeatCase>, VectorError> {
    load(relative, |name, text| parse_repeat(name, text, digest_len))
}

/// One published colliding file and what a collision-detecting SHA-1
/// says of it.
#[derive(Debug, Clone)]
pub struct CollisionCase {
    /// 1-based line in the manifest.
    pub line: usize,
    /// The file's name, beside the manifest.
    pub file: String,
    /// Its bytes (empty until [`load_collisions`] reads them).
    pub data: Vec<u8>,
    /// Its plain SHA-1, which the other file of its pair shares.
    pub plain: Vec<u8>,
    /// The digest sha1collisiondetection's `sha1dcsum` prints.
    pub mitigated: Vec<u8>,
    /// The same in its reduced-round mode (`sha1dcsum_partialcoll`).
    pub mitigated_reduced_round: Vec<u8>,
}

/// Parses a collisions manifest: `FILE PLAIN MITIGATED
/// MITIGATED_REDUCED_ROUND` lines, digests in hex.
///
/// # Errors
///
/// A line with another number of fields, a file name with a path in it,
/// or a digest that is not 20 bytes of hex.
pub fn parse_collisions(source_name: &str, text: &str) -> Result<Vec<CollisionCase>, VectorError> {
    let mut cases = Vec::new();
    for (line, fields) in records(text) {
        let [file, plain, mitigated, reduced] = fields[..] else {
            return Err(error(
                source_name,
                line,
                format!(
                    "expected `FILE PLAIN MITIGATED MITIGATED_REDUCED_ROUND`, found {} fields",
                    fields.len()
                ),
            ));
        };
        if file.contains(['/', '\\']) || file == "README.md" {
            return Err(error(source_name, line, format!("bad FILE `{file}`")));
        }
        let digest = |text: &str| {
            parse_hex(text)
                .filter(|d| d.len() == 20)
                .ok_or_else(|| error(source_name, line, format!("bad digest `{text}`")))
        };
        cases.push(CollisionCase {
            line,
            file: file.to_owned(),
            data: Vec::new(),
            plain: digest(plain)?,
            mitigated: digest(mitigated)?,
            mitigated_reduced_round: digest(reduced)?,
        });
    }
    Ok(cases)
}

/// Loads a collisions manifest under `vectors/` and the files it names.
pub fn load_collisions(relative: &str) -> Result<Vec<CollisionCase>, VectorError> {
    let mut cases = load(relative, parse_collisions)?;
    let dir = crate::vector_path(relative)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    for case in &mut cases {
        let path = dir.join(&case.file);
        case.data = std::fs::read(&path)
            .map_err(|e| error(&path.display().to_string(), 0, format!("cannot read: {e}")))?;
    }
    Ok(cases)
}

/// Loads and parses a bijou vector file under `vectors/`.
pub fn load_bijou(relative: &str) -> Result<Vec<BijouCase>, VectorError> {
    load(relative, parse_bijou)
}

/// Loads and parses a bijou-serde vector file under `vectors/`.
pub fn load_serde(relative: &str) -> Result<Vec<crate::serde_cases::SerdeCase>, VectorError> {
    load(relative, crate::serde_cases::parse)
}

/// Loads and parses an `.rsp` file under `vectors/`.
pub fn load_rsp(relative: &str, digest_len: usize) -> Result<Vec<HashCase>, VectorError> {
    load(relative, |name, text| parse_rsp(name, text, digest_len))
}

/// Files under `vectors/` (paths relative to it) that [`FILES`] does not
/// list, so that no suite runs them; `README.md` files aside.
///
/// # Errors
///
/// If a directory under `vectors/` cannot be read.
pub fn unlisted_files() -> Result<Vec<String>, VectorError> {
    fn walk(dir: &Path, prefix: &str, found: &mut Vec<String>) -> Result<(), VectorError> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| error(&dir.display().to_string(), 0, format!("cannot list: {e}")))?;
        for entry in entries {
            let entry = entry.map_err(|e| error(&dir.display().to_string(), 0, e.to_string()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let relative = format!("{prefix}{name}");
            if entry.path().is_dir() {
                walk(&entry.path(), &format!("{relative}/"), found)?;
            } else if name != "README.md" && !FILES.iter().any(|f| f.path == relative) {
                found.push(relative);
            }
        }
        Ok(())
    }
    let mut found = Vec::new();
    walk(&crate::vector_path(""), "", &mut found)?;
    // The files a collisions manifest names are its data.
    for manifest in files(Format::Collisions) {
        let dir = manifest.path.rsplit_once('/').map_or("", |(dir, _)| dir);
        for case in load(manifest.path, parse_collisions)? {
            let named = format!("{dir}/{}", case.file);
            found.retain(|f| *f != named);
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_vector_file_is_listed_and_counted() {
        assert_eq!(unlisted_files().unwrap(), Vec::<String>::new());
        for file in FILES {
            let loaded = match file.format {
                Format::Rsp => load_rsp(file.path, 20).map(|c| c.len()),
                Format::Bijou => load_bijou(file.path).map(|c| c.len()),
                Format::Repeat => load_repeat(file.path, 20).map(|c| c.len()),
                Format::Collisions => load_collisions(file.path).map(|c| c.len()),
                Format::Serde => load_serde(file.path).map(|c| c.len()),
            };
            loaded.unwrap_or_else(|e| panic!("{e}"));
        }
    }

    #[test]
    fn unlisted_or_miscounted_files_are_refused() {
        let error = load_bijou("sha1/README.md").unwrap_err().to_string();
        assert!(error.contains("not listed"), "{error}");
        let first = FILES[0];
        for count in [first.cases - 1, first.cases + 1] {
            let error = load(first.path, |_, _| Ok(vec![(); count]))
                .unwrap_err()
                .to_string();
            assert!(
                error.contains(&format!(
                    "{count} vectors, testkit::vectors::FILES expects {}",
                    first.cases
                )),
                "{error}"
            );
        }
        assert!(load(first.path, |_, _| Ok(vec![(); first.cases])).is_ok());
    }

    #[test]
    fn pieces_concatenate_to_the_input() {
        let case = |repeat, message: &[u8]| RepeatCase {
            line: 1,
            repeat,
            message: message.to_vec(),
            digest: Vec::new(),
        };
        for (repeat, message, max_piece) in [
            (7, &b"abc"[..], 7),
            (7, b"abc", 3),
            (7, b"abc", 1),
            (1, b"abc", 100),
            (1000, b"a", 64),
            (5, b"", 10),
        ] {
            let case = case(repeat, message);
            let mut whole = Vec::new();
            case.for_each_piece(max_piece, |piece| {
                assert!(!piece.is_empty());
                assert!(piece.len() <= max_piece.max(message.len()));
                assert_eq!(piece.len() % message.len(), 0);
                whole.extend_from_slice(piece);
            });
            assert_eq!(
                whole,
                message.repeat(repeat as usize),
                "{repeat} × {message:?}"
            );
        }
    }

    #[test]
    fn bijou_parser_rejects_corruption() {
        assert!(parse_bijou("t", "bijou64 0 00\n").is_ok());
        assert!(parse_bijou("t", "bijou65 0 00\n").is_err());
        assert!(parse_bijou("t", "bijou64 0 0\n").is_err());
        assert!(parse_bijou("t", "bijou64 x 00\n").is_err());
        assert!(parse_bijou("t", "bijou64 0\n").is_err());
        assert!(parse_bijou("t", "bijou64 0 00 00\n").is_err());
        assert!(parse_bijou("t", "bijou64 - 00\n").is_err());
        assert!(parse_bijou("t", "bijou64 -- 00\n").is_err());
        assert!(parse_bijou("t", "bijou64 +1 01\n").is_err());
        assert!(parse_bijou("t", "bijou64 error:other 00\n").is_err());
        assert!(parse_bijou("t", "# only a comment\n").is_err());
    }

    #[test]
    fn repeat_parser_rejects_corruption() {
        let good = parse_repeat("t", "3 ab 0102\n1 - 0304\n", 2).unwrap();
        assert_eq!((good[0].len(), good[1].is_empty()), (6, true));
        assert!(parse_repeat("t", "0 ab 0102\n", 2).is_err());
        assert!(parse_repeat("t", "x ab 0102\n", 2).is_err());
        assert!(parse_repeat("t", "1 ab 01\n", 2).is_err());
        assert!(parse_repeat("t", "1 ab\n", 2).is_err());
        assert!(parse_repeat("t", "1 ab 0102 03\n", 2).is_err());
        assert!(parse_repeat("t", "# nothing\n", 2).is_err());
    }

    #[test]
    fn rsp_parser_rejects_corruption() {
        let good = "Len = 8\r\nMsg = ab\r\nMD = 0102\r\n";
        assert_eq!(parse_rsp("t", good, 2).unwrap()[0].message, [0xAB]);
        assert!(parse_rsp("t", "Len = 16\nMsg = ab\nMD = 0102\n", 2).is_err());
        assert!(parse_rsp("t", "Len = 8\nMsg = ab\nMD = 01\n", 2).is_err());
        assert!(parse_rsp("t", "Len = 8\nMsg = ab\n", 2).is_err());
        assert!(parse_rsp("t", "Len = 8\nMsg = zz\nMD = 0102\n", 2).is_err());
        let empty = parse_rsp("t", "Len = 0\nMsg = 00\nMD = 0102\n", 2).unwrap();
        assert!(empty[0].message.is_empty());
        assert!(parse_rsp("t", "Len = 0\nMsg = deadbeef\nMD = 0102\n", 2).is_err());
        // Msg longer than Len, a second Msg, and a vector left without MD.
        assert!(parse_rsp("t", "Len = 8\nMsg = abcd\nMD = 0102\n", 2).is_err());
        assert!(parse_rsp("t", "Len = 8\nMsg = ab\nMsg = cd\nMD = 0102\n", 2).is_err());
        assert!(parse_rsp("t", "Len = 8\nMsg = ab\nLen = 8\nMsg = cd\nMD = 0102\n", 2).is_err());
        assert!(parse_rsp("t", "Len = 8\nLen = 8\nMsg = ab\nMD = 0102\n", 2).is_err());
    }
}
