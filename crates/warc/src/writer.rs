//! The writer: WARC/1.1, one gzip member per record, digests computed here.

use std::io::{self, Write};

use flate2::Compression;

use crate::digest::DigestBuilder;
use crate::fields::Fields;

/// A record to write: its fields in the order they are to appear, and its block.
///
/// [`WarcWriter::write`] adds `WARC-Block-Digest` (unless present) and `Content-Length` after
/// the fields; the builders in this crate ([`warcinfo`](crate::warcinfo),
/// [`response`](crate::response), …) fill in the rest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WarcRecord {
    /// Header fields, in order, without `Content-Length`.
    pub fields: Fields,
    /// The block (for HTTP records: head and body).
    pub block: Vec<u8>,
}

impl WarcRecord {
    /// Appends a field, for chaining after a builder.
    pub fn with_field(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.fields.push(name, value);
        self
    }

    /// The `WARC-Record-ID`, if set.
    pub fn id(&self) -> Option<&str> {
        self.fields.get("WARC-Record-ID")
    }

    /// The uncompressed bytes of the record: version line, fields, block and the closing
    /// CRLF CRLF.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = record_head(&self.fields, &[&self.block]);
        out.reserve(self.block.len() + 4);
        out.extend_from_slice(&self.block);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }
}

/// The version line, `fields` (without `Content-Length`), `WARC-Block-Digest` of the block
/// made of `parts` unless `fields` has one, `Content-Length` and the empty line.
fn record_head(fields: &Fields, parts: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(512);
    out.extend_from_slice(b"WARC/1.1\r\n");
    for (name, value) in fields.iter() {
        if name.eq_ignore_ascii_case("Content-Length") {
            continue;
        }
        push_field(&mut out, name, value);
    }
    if !fields.contains("WARC-Block-Digest") {
        let mut digest = DigestBuilder::new();
        parts.iter().for_each(|p| digest.update(p));
        push_field(&mut out, "WARC-Block-Digest", &digest.finish());
    }
    let len: usize = parts.iter().map(|p| p.len()).sum();
    push_field(&mut out, "Content-Length", &len.to_string());
    out.extend_from_slice(b"\r\n");
    out
}

/// A record as one gzip member, its block given in `parts` (an HTTP head and a body) that
/// are compressed one after the other, never joined: what
/// [`WarcRecord::to_gzip_member`] makes of a record with the joined block. `fast` trades
/// size for speed (deflate level 1 instead of 6).
///
/// ```
/// use silhouette_warc::{WarcRecord, gzip_member, response_fields};
/// let (head, body) = (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", b"hi");
/// let fields = response_fields("2024-05-01T12:00:00Z", "http://a/", head, body);
/// let record = WarcRecord { fields: fields.clone(), block: [&head[..], body].concat() };
/// assert_eq!(gzip_member(&fields, &[head, body], true)?, record.to_gzip_member(true)?);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn gzip_member(fields: &Fields, parts: &[&[u8]], fast: bool) -> io::Result<Vec<u8>> {
    let head = record_head(fields, parts);
    let len = head.len() + parts.iter().map(|p| p.len()).sum::<usize>();
    let level = if fast {
        Compression::fast()
    } else {
        Compression::default()
    };
    let mut all: Vec<&[u8]> = Vec::with_capacity(parts.len() + 2);
    all.push(&head);
    all.extend_from_slice(parts);
    all.push(b"\r\n\r\n");
    let mut out = Vec::with_capacity(len / 3 + 64);
    crate::gzip::member_into(&mut out, &all, level)?;
    Ok(out)
}

impl WarcRecord {
    /// The record as one gzip member, ready for [`WarcWriter::write_member`]: build it where
    /// CPU is free (a crawler's fetch task) and hand only the bytes to the writer. `fast`
    /// trades size for speed (deflate level 1 instead of 6).
    pub fn to_gzip_member(&self, fast: bool) -> io::Result<Vec<u8>> {
        gzip_member(&self.fields, &[&self.block], fast)
    }
}

fn push_field(out: &mut Vec<u8>, name: &str, value: &str) {
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b": ");
    // A field value is one line: line breaks a caller let through would start a new field.
    for b in value.bytes() {
        out.push(if b == b'\r' || b == b'\n' { b' ' } else { b });
    }
    out.extend_from_slice(b"\r\n");
}

/// Where a record landed: what a CDXJ index line needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    /// Offset of the record's gzip member in the output.
    pub offset: u64,
    /// Compressed length of the member.
    pub length: u64,
}

/// Writes records to `W`, each as its own gzip member, and counts the bytes written.
#[derive(Debug)]
pub struct WarcWriter<W: Write> {
    out: W,
    offset: u64,
    level: Compression,
}

impl<W: Write> WarcWriter<W> {
    /// A writer at offset 0 of `out`.
    pub fn new(out: W) -> Self {
        Self::starting_at(out, 0)
    }

    /// A writer appending to output that already holds `offset` bytes.
    pub fn starting_at(out: W, offset: u64) -> Self {
        Self {
            out,
            offset,
            level: Compression::default(),
        }
    }

    /// Compresses `record` as one gzip member, writes it and says where it is.
    pub fn write(&mut self, record: &WarcRecord) -> io::Result<Written> {
        let member = record.to_gzip_member(self.level == Compression::fast())?;
        self.write_member(&member)
    }

    /// Writes a member made by [`WarcRecord::to_gzip_member`] and says where it is.
    pub fn write_member(&mut self, member: &[u8]) -> io::Result<Written> {
        self.out.write_all(member)?;
        let written = Written {
            offset: self.offset,
            length: member.len() as u64,
        };
        self.offset += written.length;
        Ok(written)
    }

    /// Bytes written so far (including the starting offset).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Flushes the output.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The output, flushed.
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_bytes_have_fixed_layout() {
        let mut fields = Fields::new();
        fields.push("WARC-Type", "resource");
        fields.push("X-Odd", "a\r\nb");
        let record = WarcRecord {
            fields,
            block: b"abc".to_vec(),
        };
        let expected = "WARC/1.1\r\nWARC-Type: resource\r\nX-Odd: a  b\r\n\
            WARC-Block-Digest: sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n";
        assert_eq!(String::from_utf8_lossy(&record.to_bytes()), expected);
    }

    #[test]
    fn offsets_add_up() -> io::Result<()> {
        let record = WarcRecord::default().with_field("WARC-Type", "resource");
        let mut writer = WarcWriter::starting_at(Vec::new(), 10);
        let a = writer.write(&record)?;
        let b = writer.write(&record)?;
        assert_eq!((a.offset, b.offset), (10, 10 + a.length));
        assert_eq!(writer.offset(), 10 + a.length + b.length);
        let out = writer.into_inner()?;
        assert_eq!(out.len() as u64, a.length + b.length);
        assert_eq!(&out[..2], &[0x1f, 0x8b]);
        Ok(())
    }

    #[test]
    fn members_made_elsewhere_read_back() -> io::Result<()> {
        let record = crate::response(
            "2024-05-01T12:00:00Z",
            "http://a/",
            b"HTTP/1.1 200 OK\r\n\r\n",
            &b"<p>x</p>".repeat(100),
        );
        let mut writer = WarcWriter::new(Vec::new());
        let fast = writer.write_member(&record.to_gzip_member(true)?)?;
        let default = writer.write(&record)?;
        let out = writer.into_inner()?;
        let mut reader = crate::WarcReader::new(out.as_slice());
        for at in [fast, default] {
            let mut rec = reader.next_record().expect("a record").expect("valid");
            assert_eq!(rec.header().offset, at.offset);
            assert_eq!(rec.read_block(1 << 20).expect("block"), record.block);
        }
        assert!(reader.next_record().is_none());
        Ok(())
    }
}
