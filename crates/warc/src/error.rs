//! What can go wrong reading a WARC file or an archived HTTP message.

use std::io;

/// A WARC record that could not be read. `offset` is the position in the input where the
/// record (or its gzip member) starts, or where the problem was found; the caller adds the
/// file name.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input holds no bytes at all.
    #[error("empty input: no WARC records")]
    Empty,
    /// Reading the underlying input failed; reading stops here.
    #[error("offset {offset}: read error: {source}")]
    Io {
        /// Where reading failed.
        offset: u64,
        /// The underlying error.
        source: io::Error,
    },
    /// A gzip member is corrupt or cut short.
    #[error("offset {offset}: corrupt or truncated gzip member: {source}")]
    Gzip {
        /// Where the member starts.
        offset: u64,
        /// What the decompressor said.
        source: io::Error,
    },
    /// The bytes at `offset` are not a WARC record (no `WARC/` version line).
    #[error("offset {offset}: not a WARC record (starts with {found:?})")]
    NotWarc {
        /// Where a record was expected.
        offset: u64,
        /// The first bytes found there, lossily decoded.
        found: String,
    },
    /// The bytes after a record's block are not the next record: its `Content-Length` is
    /// probably wrong.
    #[error(
        "offset {offset}: unexpected bytes {found:?} after the record at offset {previous} \
         (wrong Content-Length?)"
    )]
    Trailing {
        /// Where the unexpected bytes start.
        offset: u64,
        /// Where the record before them starts.
        previous: u64,
        /// The first unexpected bytes, lossily decoded.
        found: String,
    },
    /// A record header is longer than the configured limit.
    #[error("offset {offset}: record header longer than {limit} bytes")]
    HeaderTooLong {
        /// Where the record starts.
        offset: u64,
        /// The limit ([`Limits::max_header`](crate::Limits::max_header)).
        limit: usize,
    },
    /// The input ends inside a record header.
    #[error("offset {offset}: record header cut short")]
    IncompleteHeader {
        /// Where the record starts.
        offset: u64,
    },
    /// A header line has no `:`.
    #[error("offset {offset}: malformed header line {line:?}")]
    BadHeaderLine {
        /// Where the record starts.
        offset: u64,
        /// The line, lossily decoded.
        line: String,
    },
    /// A mandatory field is missing.
    #[error("offset {offset}: record has no {field} field")]
    MissingField {
        /// Where the record starts.
        offset: u64,
        /// The field's name.
        field: &'static str,
    },
    /// `Content-Length` is not a decimal number.
    #[error("offset {offset}: Content-Length {value:?} is not a number")]
    BadContentLength {
        /// Where the record starts.
        offset: u64,
        /// The value found.
        value: String,
    },
    /// The input ends inside a record's block.
    #[error(
        "offset {offset}: record truncated: Content-Length {expected} but only {got} bytes follow"
    )]
    Truncated {
        /// Where the record starts.
        offset: u64,
        /// The block length the header claims.
        expected: u64,
        /// The bytes actually present.
        got: u64,
    },
    /// A block is larger than the cap the caller gave to read it into memory.
    #[error("offset {offset}: block of {length} bytes is larger than the {cap}-byte cap")]
    BlockTooLarge {
        /// Where the record starts.
        offset: u64,
        /// The block length the header claims.
        length: u64,
        /// The caller's cap.
        cap: u64,
    },
}

impl Error {
    /// The offset the error names (0 for [`Error::Empty`]).
    pub fn offset(&self) -> u64 {
        match self {
            Error::Empty => 0,
            Error::Io { offset, .. }
            | Error::Gzip { offset, .. }
            | Error::NotWarc { offset, .. }
            | Error::Trailing { offset, .. }
            | Error::HeaderTooLong { offset, .. }
            | Error::IncompleteHeader { offset }
            | Error::BadHeaderLine { offset, .. }
            | Error::MissingField { offset, .. }
            | Error::BadContentLength { offset, .. }
            | Error::Truncated { offset, .. }
            | Error::BlockTooLarge { offset, .. } => *offset,
        }
    }
}

/// An archived HTTP message that could not be parsed or decoded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The message head is not valid HTTP.
    #[error("malformed HTTP head: {0}")]
    Head(String),
    /// The head does not end within the payload.
    #[error("HTTP head not terminated by an empty line")]
    Incomplete,
    /// The chunked transfer coding is malformed or cut short.
    #[error("malformed chunked body: {0}")]
    Chunked(&'static str),
    /// The gzip/deflate content coding could not be decoded.
    #[error("cannot decode {coding} body: {source}")]
    Decode {
        /// The content coding.
        coding: String,
        /// What the decompressor said.
        source: io::Error,
    },
    /// The decoded body is larger than the cap.
    #[error("decoded body larger than the {cap}-byte cap")]
    TooLarge {
        /// The caller's cap.
        cap: usize,
    },
}

/// Lossy, short rendering of a few bytes for error messages.
pub(crate) fn snippet(bytes: &[u8]) -> String {
    let end = bytes.len().min(24);
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}
