//! The zip container of `torch.save`: records stored uncompressed, each record's data at a
//! 64-byte boundary of the file (so a map of the file can hand out aligned storages), under
//! one folder named after the file. Reading finds that folder from `data.pkl` (any name, any
//! record order) and indexes where each record's bytes are, without copying them.

use std::collections::HashMap;
use std::io::{Read, Seek, Write};

use zip::write::SimpleFileOptions;

use crate::core::error::{Result, TorchError};
use crate::core::memory::storage::Storage;

/// Where a record's data lies in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Length in bytes.
    pub len: usize,
}

/// What `torch.load` needs from an archive.
#[derive(Debug)]
pub struct Index {
    /// The folder every record is under (`name/` for `name.pt`).
    pub prefix: String,
    /// The bytes of `data.pkl`.
    pub pickle: Vec<u8>,
    /// Whether `byteorder` says `big`.
    pub big_endian: bool,
    /// Each record under the folder's `data/`, by key.
    pub records: HashMap<String, Span>,
}

/// The text PyTorch's stream reader ends its errors with.
const MINIZ_TAIL: &str = "This is an internal miniz error. If you are seeing this error, there is a high likelihood that your checkpoint file is corrupted. This can happen if the checkpoint was not saved properly, was transferred incorrectly, or the file was modified after saving.";

fn reader_error(what: &str) -> TorchError {
    TorchError::runtime(format!("PytorchStreamReader failed {what}. {MINIZ_TAIL}"))
}

/// Whether `bytes` start like a zip archive (else PyTorch tries its legacy format).
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// Indexes the archive read through `reader`, a file of `total` bytes: the small records
/// (`data.pkl`, `byteorder`) are read, the storages' records only located.
pub fn index<R: Read + Seek>(reader: R, total: u64) -> Result<Index> {
    let mut zip = zip::ZipArchive::new(reader)
        .map_err(|_| reader_error("reading zip archive: failed finding central directory"))?;
    let names: Vec<String> = zip
        .file_names()
        .filter_map(|n| n.ok())
        .map(|n| n.to_string())
        .collect();
    let prefix = names
        .iter()
        .filter_map(|n| n.strip_suffix("data.pkl"))
        .find(|p| p.is_empty() || p.ends_with('/') && p[..p.len() - 1].find('/').is_none())
        .map(str::to_string)
        .ok_or_else(|| reader_error("locating file data.pkl: file not found"))?;
    let mut records = HashMap::new();
    let mut pickle = Vec::new();
    let mut big_endian = false;
    for name in &names {
        let Some(rest) = name.strip_prefix(&prefix) else {
            continue;
        };
        let mut file = zip
            .by_name(name)
            .map_err(|_| reader_error(&format!("locating file {rest}: file not found")))?;
        let stored = file.compression() == zip::CompressionMethod::Stored;
        let start = file.data_start();
        let len = file.size();
        let span = match (stored, start) {
            (true, Some(start)) if start.checked_add(len).is_some_and(|e| e <= total) => Span {
                start: start as usize,
                len: len as usize,
            },
            _ => {
                return Err(reader_error(&format!(
                    "reading file {rest}: record is compressed or out of the file"
                )));
            }
        };
        if rest == "data.pkl" || rest == "byteorder" {
            let mut data = crate::core::memory::alloc::vec_with_capacity(span.len)?;
            file.read_to_end(&mut data)
                .map_err(|_| reader_error(&format!("reading file {rest}")))?;
            if rest == "data.pkl" {
                pickle = data;
            } else {
                big_endian = data == b"big";
            }
        } else if let Some(key) = rest.strip_prefix("data/") {
            records.insert(key.to_string(), span);
        }
    }
    Ok(Index {
        prefix,
        pickle,
        big_endian,
        records,
    })
}

impl Index {
    /// The record of storage `key`, or PyTorch's error for a missing one.
    pub fn record(&self, key: &str) -> Result<Span> {
        self.records
            .get(key)
            .copied()
            .ok_or_else(|| reader_error(&format!("locating file data/{key}: file not found")))
    }
}

/// What a record holds when written: bytes, or a storage's bytes (written straight from
/// the storage, never copied first).
pub enum Payload<'a> {
    /// These bytes.
    Bytes(&'a [u8]),
    /// The storage's bytes.
    Storage(&'a Storage),
}

/// Writes `records` (`(name, payload)` under `folder/`) as `torch.save`'s archive to `out`.
pub fn write(
    out: impl Write + Seek,
    folder: &str,
    records: &[(String, Payload)],
) -> std::io::Result<()> {
    let mut zip = zip::ZipWriter::new(out);
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .with_alignment(64);
    for (name, payload) in records {
        let len = match payload {
            Payload::Bytes(b) => b.len(),
            Payload::Storage(s) => s.nbytes(),
        };
        // Zip64 fields only where a record needs them, as PyTorch's writer does.
        let options = options.large_file(len as u64 >= u32::MAX as u64);
        zip.start_file(format!("{folder}/{name}"), options)
            .map_err(std::io::Error::other)?;
        match payload {
            Payload::Bytes(b) => zip.write_all(b)?,
            Payload::Storage(s) => s.with_bytes(|b| zip.write_all(b))?,
        }
    }
    zip.finish().map_err(std::io::Error::other)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    #[test]
    fn records_are_aligned_and_found_again() {
        let mut buf = Cursor::new(Vec::new());
        let records = vec![
            ("data.pkl".to_string(), Payload::Bytes(b"\x80\x02N.")),
            ("byteorder".to_string(), Payload::Bytes(b"little")),
            ("data/0".to_string(), Payload::Bytes(&[1u8, 2, 3])),
        ];
        write(&mut buf, "model", &records).expect("writes");
        let bytes = buf.into_inner();
        let idx = index(Cursor::new(&bytes), bytes.len() as u64).expect("reads");
        assert_eq!(idx.prefix, "model/");
        assert_eq!(idx.pickle, b"\x80\x02N.");
        let span = idx.record("0").expect("record 0");
        assert_eq!(span.start % 64, 0);
        assert_eq!(&bytes[span.start..span.start + span.len], &[1, 2, 3]);
        assert!(idx.record("1").is_err());
    }

    #[test]
    fn a_truncated_archive_is_pytorchs_error() {
        let mut buf = Cursor::new(Vec::new());
        write(
            &mut buf,
            "m",
            &[("data.pkl".to_string(), Payload::Bytes(b"N."))],
        )
        .expect("writes");
        let bytes = buf.into_inner();
        let half = &bytes[..bytes.len() / 2];
        let e = index(Cursor::new(half), half.len() as u64).expect_err("truncated");
        assert!(e.message.contains("failed finding central directory"));
    }
}
