//! A content-addressed record file: each record is one frame holding the
//! SHA-1 of its content (20 bytes) and then the content, as git names its
//! objects. Writing sends the id and the content as two slices of one
//! frame, without joining them; reading checks every id against its
//! content and builds an index from id to offset, so a record can be read
//! again by its id alone.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Seek, SeekFrom};
use std::path::Path;

use bijou_io::{FrameReader, FrameWriter};
use sha1_fast::Digest;

/// No record is larger than this.
const MAX_RECORD_LEN: usize = 1 << 20;

/// Appends `contents` to a new file at `path`, one frame each, and
/// returns their ids.
fn write_records(path: &Path, contents: &[&[u8]]) -> io::Result<Vec<Digest>> {
    let mut writer = FrameWriter::with_max_frame_len(
        BufWriter::new(File::create(path)?),
        Digest::LEN + MAX_RECORD_LEN,
    );
    let mut ids = Vec::new();
    for content in contents {
        let id = sha1_fast::digest(content);
        writer.write_frame_vectored(&[id.as_bytes(), content])?;
        ids.push(id);
    }
    writer.flush()?;
    Ok(ids)
}

/// Reads every record, checks its id, and returns where each one starts.
fn index_records(path: &Path) -> io::Result<HashMap<Digest, u64>> {
    let mut reader = FrameReader::with_max_frame_len(
        BufReader::new(File::open(path)?),
        Digest::LEN + MAX_RECORD_LEN,
    );
    let mut index = HashMap::new();
    let mut offset = 0;
    while let Some(record) = reader.read_frame()? {
        let (id, _) = split_record(&record)?;
        index.insert(id, offset);
        let prefix_len = bijou_core::bijou64::encoded_len(record.len() as u64);
        offset += (prefix_len + record.len()) as u64;
    }
    Ok(index)
}

/// A record's id and content, once the id is checked against the content.
fn split_record(record: &[u8]) -> io::Result<(Digest, &[u8])> {
    let invalid = |message: &str| io::Error::new(io::ErrorKind::InvalidData, message.to_owned());
    let (id, content) = record
        .split_first_chunk::<{ Digest::LEN }>()
        .ok_or_else(|| invalid("record shorter than its id"))?;
    let id = Digest::from_bytes(*id);
    if sha1_fast::digest(content) != id {
        return Err(invalid("record content does not match its id"));
    }
    Ok((id, content))
}

/// Reads the record that starts at `offset`.
fn read_record_at(path: &Path, offset: u64) -> io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(offset))?;
    let mut reader = FrameReader::with_max_frame_len(file, Digest::LEN + MAX_RECORD_LEN);
    let record = reader
        .read_frame()?
        .ok_or_else(|| io::Error::from(io::ErrorKind::UnexpectedEof))?;
    let (_, content) = split_record(&record)?;
    Ok(content.to_vec())
}

fn main() -> io::Result<()> {
    let path = std::env::temp_dir().join(format!("bijou-records-{}.bin", std::process::id()));
    let contents: [&[u8]; 3] = [b"blob one", b"", &[0xEE; 5000]];
    let ids = write_records(&path, &contents)?;
    // The id of a record is the SHA-1 of its content, as `sha1sum` prints it.
    assert_eq!(
        ids[1].to_string(),
        "da39a3ee5e6b4b0d3255bfef95601890afd80709"
    );

    let index = index_records(&path)?;
    assert_eq!(index.len(), contents.len());
    for (id, content) in ids.iter().zip(contents) {
        assert_eq!(read_record_at(&path, index[id])?, content);
    }

    // A flipped byte in a record's content no longer matches its id.
    let mut bytes = std::fs::read(&path)?;
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes)?;
    let error = index_records(&path).unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::InvalidData);

    std::fs::remove_file(&path)?;
    println!(
        "record_file: {} records written, indexed by id and read back",
        ids.len()
    );
    Ok(())
}
