//! Reading and parsing one record header, leniently.

use std::io;

use crate::error::{Error, snippet};
use crate::fields::Fields;
use crate::reader::Src;

/// Why a header could not be read.
pub(crate) enum HeaderFail {
    /// The stream failed.
    Io(io::Error),
    /// No `WARC/` version line here; the first bytes found.
    NotWarc(String),
    /// A sound header without `WARC-Type`; its `Content-Length`.
    NoWarcType(u64),
    /// Anything else.
    Bad(Error),
}

impl From<io::Error> for HeaderFail {
    fn from(e: io::Error) -> Self {
        HeaderFail::Io(e)
    }
}

/// Reads a header (version line, fields, empty line) from `src`, accepting LF line ends,
/// folded lines and any field, at most `limit` bytes; returns the version, the fields and
/// `Content-Length`.
pub(crate) fn read_header(
    src: &mut dyn Src,
    offset: u64,
    limit: usize,
) -> Result<(String, Fields, u64), HeaderFail> {
    let head = src.peek(5)?;
    if !head.starts_with(b"WARC/") {
        let found = src.peek(24)?;
        return Err(HeaderFail::NotWarc(snippet(found)));
    }
    let mut raw = Vec::new();
    let mut lines: Vec<(usize, usize)> = Vec::new();
    loop {
        let buf = src.fill_buf()?;
        if buf.is_empty() {
            return Err(HeaderFail::Bad(Error::IncompleteHeader { offset }));
        }
        let (take, line_end) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if raw.len() + take > limit {
            return Err(HeaderFail::Bad(Error::HeaderTooLong { offset, limit }));
        }
        raw.extend_from_slice(&buf[..take]);
        src.consume(take);
        if !line_end {
            continue;
        }
        let line_start = lines.last().map_or(0, |&(_, end)| end);
        let line = trim_eol(&raw[line_start..]);
        if line.is_empty() && !lines.is_empty() {
            break;
        }
        lines.push((line_start, raw.len()));
    }
    let mut lines = lines.iter().map(|&(a, b)| trim_eol(&raw[a..b]));
    let version_line = lines.next().unwrap_or_default();
    let version = String::from_utf8_lossy(&version_line[5..])
        .trim()
        .to_owned();
    let mut fields: Vec<(String, String)> = Vec::new();
    for line in lines {
        let text = String::from_utf8_lossy(line);
        if line.first().is_some_and(|b| matches!(b, b' ' | b'\t'))
            && let Some((_, value)) = fields.last_mut()
        {
            value.push(' ');
            value.push_str(text.trim());
            continue;
        }
        let Some((name, value)) = text.split_once(':') else {
            return Err(HeaderFail::Bad(Error::BadHeaderLine {
                offset,
                line: text.into_owned(),
            }));
        };
        fields.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let mut out = Fields::new();
    for (name, value) in fields {
        out.push(name, value);
    }
    let Some(length) = out.get("Content-Length") else {
        return Err(HeaderFail::Bad(Error::MissingField {
            offset,
            field: "Content-Length",
        }));
    };
    let Ok(length) = length.parse::<u64>() else {
        return Err(HeaderFail::Bad(Error::BadContentLength {
            offset,
            value: length.to_owned(),
        }));
    };
    if !out.contains("WARC-Type") {
        return Err(HeaderFail::NoWarcType(length));
    }
    Ok((version, out, length))
}

fn trim_eol(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}
