//! The seed inputs `cargo xtask fuzz` writes into each target's corpus,
//! built from `vectors/`. Each target's input format is documented in its
//! module under fuzz/src/targets/ (and `split_chunks` in fuzz/src/lib.rs);
//! these builders must follow it.

use testkit::vectors::{BijouCase, BijouExpect, VectorError};

/// The bijou widths in the order of `each_width!` in fuzz/src/lib.rs (the
/// `bijou_roundtrip` selector byte indexes it), with their byte sizes.
const WIDTHS: [(&str, usize); 6] = [
    ("bijou32", 4),
    ("bijou64", 8),
    ("bijou128", 16),
    ("bijou32s", 4),
    ("bijou64s", 8),
    ("bijou128s", 16),
];

/// Seeds larger than this are left out: libFuzzer sizes its inputs by the
/// largest seed, and small inputs run faster.
const MAX_SEED_MESSAGE: usize = 8 * 1024;

/// The vector files the seeds come from.
pub(super) struct Vectors {
    bijou: Vec<BijouCase>,
    sha1_messages: Vec<Vec<u8>>,
    serde: Vec<Vec<u8>>,
}

impl Vectors {
    pub(super) fn load() -> Result<Vectors, VectorError> {
        use testkit::vectors::{Format, files, load_bijou, load_rsp, load_serde};
        let mut bijou = Vec::new();
        for file in files(Format::Bijou) {
            bijou.extend(load_bijou(file.path)?);
        }
        let mut sha1_messages = Vec::new();
        for file in files(Format::Rsp) {
            let cases = load_rsp(file.path, 20)?;
            sha1_messages.extend(cases.into_iter().map(|c| c.message));
        }
        sha1_messages.retain(|m| m.len() <= MAX_SEED_MESSAGE);
        let mut serde = Vec::new();
        for file in files(Format::Serde) {
            serde.extend(load_serde(file.path)?.into_iter().map(|c| c.bytes));
        }
        Ok(Vectors {
            bijou,
            sha1_messages,
            serde,
        })
    }

    /// The cases of one width.
    fn cases<'a>(&'a self, width: &'a str) -> impl Iterator<Item = &'a BijouCase> {
        self.bijou.iter().filter(move |c| c.width == width)
    }

    /// One width's valid encodings, back to back.
    fn valid_stream(&self, width: &str) -> Vec<u8> {
        self.cases(width)
            .filter(|c| matches!(c.expect, BijouExpect::Value(_)))
            .flat_map(|c| c.bytes.clone())
            .collect()
    }

    /// [`valid_stream`](Self::valid_stream), then the width's overflowing
    /// encodings, then its truncated ones (a truncated value ends a stream).
    fn stream(&self, width: &str) -> Vec<u8> {
        let mut stream = self.valid_stream(width);
        for expect in [BijouExpect::Overflow, BijouExpect::Truncated] {
            for case in self.cases(width).filter(|c| c.expect == expect) {
                stream.extend_from_slice(&case.bytes);
            }
        }
        stream
    }
}

/// The `split_chunks` format: the piece count, the piece lengths, then the
/// payload (whatever the lengths leave over is the last piece).
fn chunked(lengths: &[u8], payload: &[u8]) -> Vec<u8> {
    let count = u8::try_from(lengths.len()).expect("at most 255 piece lengths");
    let mut out = vec![count];
    out.extend_from_slice(lengths);
    out.extend_from_slice(payload);
    out
}

/// `payload` whole, byte by byte (as far as 255 lengths reach), and cut
/// into a few uneven pieces.
fn chunkings(payload: &[u8]) -> [Vec<u8>; 3] {
    [
        chunked(&[], payload),
        chunked(&vec![1; payload.len().min(255)], payload),
        chunked(&[3, 0, 17, 64], payload),
    ]
}

pub(super) fn decode_seeds(vectors: &Vectors) -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = vectors.bijou.iter().map(|c| c.bytes.clone()).collect();
    seeds.sort();
    seeds.dedup();
    seeds
}

pub(super) fn roundtrip_seeds(vectors: &Vectors) -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for (selector, (width, size)) in WIDTHS.iter().enumerate() {
        let mut seed = vec![selector as u8];
        for case in vectors.cases(width) {
            let BijouExpect::Value(text) = &case.expect else {
                continue;
            };
            // Little-endian two's complement: the low `size` bytes of the
            // 128-bit value, which fits the width by the vector's contract.
            let le = match text.parse::<u128>() {
                Ok(unsigned) => unsigned.to_le_bytes(),
                Err(_) => text.parse::<i128>().map_or([0; 16], i128::to_le_bytes),
            };
            seed.extend_from_slice(&le[..*size]);
        }
        seeds.push(seed);
    }
    seeds
}

pub(super) fn batch_seeds(vectors: &Vectors) -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for (width, _) in WIDTHS {
        // Room for everything, a capacity that stops mid-stream, and a long
        // stream: past the decoder's 128-value adaptive blocks and the
        // signed widths' 4 KiB scratch (over 1024 values of about 2 bytes).
        let valid = vectors.valid_stream(width);
        let long = valid.repeat(3000usize.div_ceil(valid.len()));
        let stream = vectors.stream(width);
        for (capacity, bytes) in [(u16::MAX, &stream), (3, &stream), (u16::MAX, &long)] {
            seeds.push([&capacity.to_le_bytes()[..], bytes].concat());
        }
    }
    seeds
}

pub(super) fn stream_seeds(vectors: &Vectors) -> Vec<Vec<u8>> {
    WIDTHS
        .iter()
        .flat_map(|(width, _)| chunkings(&vectors.stream(width)))
        .collect()
}

pub(super) fn frame_seeds(vectors: &Vectors) -> Vec<Vec<u8>> {
    // Frames carrying the SHA-1 messages (a bijou64 length, then the
    // bytes), as many as fit libFuzzer's default 4 KiB inputs.
    let mut frames = Vec::new();
    for message in &vectors.sha1_messages {
        let mut frame = Vec::new();
        bijou_core::bijou64::encode(message.len() as u64, &mut frame);
        frame.extend_from_slice(message);
        if frames.len() + frame.len() > 4000 {
            break;
        }
        frames.extend_from_slice(&frame);
    }
    let mut seeds = Vec::new();
    // The first byte is the square root of `max_frame_len`: 255 (no limit)
    // and 254 admit every frame here, 16 (256 bytes) refuses the longer
    // ones, 0 all but the empty one.
    for max_root in [255, 254, 16, 0] {
        for input in chunkings(&frames) {
            seeds.push([vec![max_root], input].concat());
        }
    }
    // The stream ending inside a frame.
    seeds.push([vec![255], chunked(&[], &frames[..frames.len() - 1])].concat());
    // With no limit, lengths whose prefix plus payload overflow `usize`.
    let mut huge = Vec::new();
    bijou_core::bijou64::encode(u64::MAX, &mut huge);
    huge.extend_from_slice(b"abc");
    seeds.push([vec![255], chunked(&[], &huge)].concat());
    seeds
}

/// Every serde vector's bytes (valid and refused alike) after each of the
/// target's type selectors, and the vectors back to back after each.
pub(super) fn serde_seeds(vectors: &Vectors) -> Vec<Vec<u8>> {
    // The length of `bijou_fuzz::targets::serde_canonical::TYPES`.
    const TYPES: u8 = 8;
    let mut seeds = Vec::new();
    for selector in 0..TYPES {
        for bytes in &vectors.serde {
            seeds.push([&[selector][..], bytes].concat());
        }
        seeds.push([vec![selector], vectors.serde.concat()].concat());
    }
    seeds.sort();
    seeds.dedup();
    seeds
}

pub(super) fn sha1_seeds(vectors: &Vectors) -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for message in &vectors.sha1_messages {
        seeds.push(chunked(&[], message));
        // Pieces that straddle the 64-byte blocks and the padding boundary.
        seeds.push(chunked(&[1, 54, 9, 64, 0, 65], message));
    }
    seeds
}

/// `sha1_checked` seeds: each colliding file's first ten blocks (the
/// attack) with and without noise after, cut across block boundaries, and
/// plain data.
pub(super) fn checked_seeds(vectors: &Vectors) -> Vec<Vec<u8>> {
    let mut seeds = Vec::new();
    for file in 0..4u8 {
        let start = 10 << 3 | file;
        for tail in [&b""[..], b"after the attack, some bytes of noise"] {
            let mut seed = vec![start];
            seed.extend(chunked(&[3, 64, 100], tail));
            seeds.push(seed);
        }
    }
    for message in vectors.sha1_messages.iter().take(4) {
        let mut seed = vec![4];
        seed.extend(chunked(&[1, 54, 9, 64], message));
        seeds.push(seed);
    }
    seeds
}
