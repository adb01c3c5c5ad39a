//! Reading what is hashed: a small file whole into its worker's arena,
//! so that many go through the many-message lanes together; anything
//! larger, and standard input, streamed through a hasher in 64 KiB
//! reads.

use crate::algorithm::{Algorithm, Hashed, Stream, git_header};
use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::path::Path;

/// Files up to this size are read whole and hashed in batches.
pub(crate) const SMALL: u64 = 256 * 1024;

/// The read size for streamed files. The kernel's copy and the hasher's
/// read of it stay in the near caches: 16–64 KiB reads took 30–35% less
/// CPU time than 256 KiB–4 MiB ones on a 512 MiB file (AMD Zen 3, a
/// shared 2-core machine).
const BLOCK: usize = 64 * 1024;

/// Room kept before each file's bytes for its git header
/// (`blob 262144\0` and far longer lengths fit).
const HEADER_ROOM: usize = 32;

/// Bytes of small files a worker holds before they are hashed together.
pub(crate) const BATCH_BYTES: usize = 4 << 20;

/// One worker's reading space: small files are read one after another
/// into `arena`, which is allocated and zeroed once and reused for every
/// batch, and streamed files go through `block`.
pub(crate) struct Buffers {
    arena: Vec<u8>,
    /// The end of the last file read into `arena`.
    used: usize,
    block: Vec<u8>,
}

impl Buffers {
    pub(crate) fn new() -> Buffers {
        Buffers {
            arena: Vec::new(),
            used: 0,
            block: Vec::new(),
        }
    }

    /// Whether the arena holds a batch's worth of files.
    pub(crate) fn full(&self) -> bool {
        self.used >= BATCH_BYTES
    }

    /// A message read into the arena.
    pub(crate) fn message(&self, range: Range<usize>) -> &[u8] {
        &self.arena[range]
    }

    /// Forgets the arena's files, once their batch is hashed.
    pub(crate) fn clear(&mut self) {
        self.used = 0;
    }
}

/// A file, read whole into the arena (its message's range there: the git
/// header, then the bytes) or already hashed.
pub(crate) enum Opened {
    Whole(Range<usize>),
    Hashed(Hashed),
}

/// Reads the file at `path`: whole into the arena if it is no larger than
/// [`SMALL`], else hashed as a stream.
///
/// The file is read straight into the arena, with no size asked first: a
/// small file costs `openat`, two `read`s (the second finding its end)
/// and `close`. Only a file that fills the window is asked its size (for
/// `--git`'s header) and streamed on from what was read.
///
/// # Errors
///
/// The error of opening or reading the file (reading a directory fails
/// with "Is a directory", as in coreutils), or, with `--git`, a regular
/// file that changed size while it was read.
pub(crate) fn open(path: &Path, algorithm: Algorithm, buffers: &mut Buffers) -> io::Result<Opened> {
    let mut file = File::open(path)?;
    let window_len = SMALL as usize + 1;
    let start = buffers.used + HEADER_ROOM;
    if buffers.arena.len() < start + window_len {
        // Zeroed by the allocator (`calloc`): pages no file reaches are
        // never touched.
        buffers.arena = vec![0; BATCH_BYTES + HEADER_ROOM + window_len];
    }
    let window = &mut buffers.arena[start..start + window_len];
    let n = read_up_to(&mut file, window)?;
    if n < window_len {
        let end = start + n;
        buffers.used = end;
        let mut message_start = start;
        if algorithm.git {
            let header = git_header(n as u64);
            message_start -= header.len();
            buffers.arena[message_start..start].copy_from_slice(&header);
        }
        return Ok(Opened::Whole(message_start..end));
    }
    let head = &buffers.arena[start..start + n];
    let meta = file.metadata()?;
    if algorithm.git && !meta.is_file() {
        // No length to put in the header before the end: read it all.
        let mut all = head.to_vec();
        file.read_to_end(&mut all)?;
        let mut message = git_header(all.len() as u64);
        message.extend_from_slice(&all);
        return Ok(Opened::Hashed(algorithm.one(&message)));
    }
    let git_len = algorithm.git.then_some(meta.len());
    let mut hasher = algorithm.stream();
    if let Some(len) = git_len {
        hasher.update(&git_header(len));
    }
    hasher.update(head);
    let total = n as u64 + stream_into(&mut hasher, file, &mut buffers.block)?;
    if git_len.is_some_and(|len| len != total) {
        return Err(io::Error::other("file changed size while it was read"));
    }
    Ok(Opened::Hashed(hasher.finish()))
}

/// Hashes standard input, streamed (read whole with `--git`, which must
/// know the length first).
///
/// # Errors
///
/// The error of reading standard input.
pub(crate) fn stdin(algorithm: Algorithm, buffers: &mut Buffers) -> io::Result<Hashed> {
    let mut input = io::stdin().lock();
    if algorithm.git {
        let mut all = Vec::new();
        input.read_to_end(&mut all)?;
        let mut message = git_header(all.len() as u64);
        message.extend_from_slice(&all);
        return Ok(algorithm.one(&message));
    }
    let mut hasher = algorithm.stream();
    stream_into(&mut hasher, input, &mut buffers.block)?;
    Ok(hasher.finish())
}

/// Reads into `buffer` until it is full or the reader ends; returns how
/// many bytes were read.
fn read_up_to(reader: &mut impl Read, buffer: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Hashes the rest of `reader` in [`BLOCK`]-sized reads into `block`;
/// returns how many bytes that was.
fn stream_into(hasher: &mut Stream, mut reader: impl Read, block: &mut Vec<u8>) -> io::Result<u64> {
    block.resize(BLOCK, 0);
    let mut total = 0u64;
    loop {
        match reader.read(block) {
            Ok(0) => return Ok(total),
            Ok(n) => {
                hasher.update(&block[..n]);
                total += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}
