//! Reading what is hashed: a small regular file whole into memory, so
//! that many go through the many-message lanes together; anything
//! larger, and standard input, streamed through a hasher in large
//! blocks.

use crate::algorithm::{Algorithm, Hashed, git_header};
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Regular files up to this size are read whole and hashed in batches.
pub(crate) const SMALL: u64 = 256 * 1024;

/// The read size for streamed files. The kernel's copy and the hasher's
/// read of it stay in the near caches: 16–64 KiB reads took 30–35% less
/// CPU time than 256 KiB–4 MiB ones on a 512 MiB file (AMD Zen 3, a
/// shared 2-core machine).
const BLOCK: usize = 64 * 1024;

/// Room kept before a small file's bytes for its git header
/// (`blob 262144\0` and far longer lengths fit).
const HEADER_ROOM: usize = 32;

/// A file read whole: its message (the git header, then the bytes).
pub(crate) struct Loaded {
    buffer: Vec<u8>,
    start: usize,
}

impl Loaded {
    /// What is hashed: the bytes, after the git header with `--git`.
    pub(crate) fn message(&self) -> &[u8] {
        &self.buffer[self.start..]
    }
}

/// A file, read whole or already hashed.
pub(crate) enum Opened {
    Whole(Loaded),
    Hashed(Hashed),
}

/// Reads the file at `path`: whole if it is a small regular file (or if
/// `--git` needs the length of something that is not a regular file),
/// else hashed as a stream, reading into `scratch`.
///
/// # Errors
///
/// The error of opening or reading the file (reading a directory fails
/// with "Is a directory", as in coreutils), or, with `--git`, a file that
/// changed size while it was read.
pub(crate) fn open(path: &Path, algorithm: Algorithm, scratch: &mut Vec<u8>) -> io::Result<Opened> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    let regular = meta.is_file();
    if (regular && meta.len() <= SMALL) || (algorithm.git && !regular && !meta.is_dir()) {
        return load(file, meta.len(), algorithm).map(Opened::Whole);
    }
    let git_len = algorithm.git.then_some(meta.len());
    stream(file, algorithm, git_len, scratch).map(Opened::Hashed)
}

/// Hashes standard input, streamed (read whole with `--git`, which must
/// know the length first).
///
/// # Errors
///
/// The error of reading standard input.
pub(crate) fn stdin(algorithm: Algorithm, scratch: &mut Vec<u8>) -> io::Result<Hashed> {
    let input = io::stdin().lock();
    if algorithm.git {
        return load(input, 0, algorithm).map(|loaded| algorithm.one(loaded.message()));
    }
    stream(input, algorithm, None, scratch)
}

/// Reads all of `reader`, expected to hold `expected` bytes, leaving room
/// for the git header before them.
///
/// A buffer of the expected size and one byte more is read into
/// directly: `File`'s `read_to_end` would ask the size again (`statx`
/// and `lseek`, two more system calls a file).
fn load(mut reader: impl Read, expected: u64, algorithm: Algorithm) -> io::Result<Loaded> {
    let room = usize::try_from(expected).map_or(0, |len| len.saturating_add(1));
    let mut buffer = vec![0; HEADER_ROOM.saturating_add(room)];
    let mut filled = HEADER_ROOM;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buffer.truncate(filled);
    if filled == HEADER_ROOM + room {
        // More than expected: the file grew, or its size was unknown.
        reader.read_to_end(&mut buffer)?;
    }
    let mut start = HEADER_ROOM;
    if algorithm.git {
        let header = git_header((buffer.len() - HEADER_ROOM) as u64);
        start -= header.len();
        buffer[start..HEADER_ROOM].copy_from_slice(&header);
    }
    Ok(Loaded { buffer, start })
}

/// Hashes `reader` to its end; with `git_len`, as a blob of that many
/// bytes, which must be how many there are.
fn stream(
    mut reader: impl Read,
    algorithm: Algorithm,
    git_len: Option<u64>,
    scratch: &mut Vec<u8>,
) -> io::Result<Hashed> {
    scratch.resize(BLOCK, 0);
    let mut hasher = algorithm.stream();
    if let Some(len) = git_len {
        hasher.update(&git_header(len));
    }
    let mut total = 0u64;
    loop {
        match reader.read(scratch) {
            Ok(0) => break,
            Ok(n) => {
                hasher.update(&scratch[..n]);
                total += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    if git_len.is_some_and(|len| len != total) {
        return Err(io::Error::other("file changed size while it was read"));
    }
    Ok(hasher.finish())
}
