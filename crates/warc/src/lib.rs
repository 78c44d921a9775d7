//! WARC files for silhouette: a streaming reader for anyone's archives and a writer for its
//! own. No file IO here: both work over [`std::io::Read`] / [`std::io::Write`], the binary
//! opens the files.
//!
//! - [`WarcReader`] reads WARC/1.0 and 1.1, uncompressed, gzipped per record or as one
//!   member, one [`Record`] at a time: a [`Header`] (fields in order, [`RecordType`]) and the
//!   block as a bounded [`Read`](std::io::Read), never a whole file in memory. It is lenient
//!   where real files are sloppy (`<uri>` targets as wget writes them, LF line ends, stray
//!   CRLFs between records, unknown fields and types); a broken record is one [`Error`] naming
//!   its offset, and reading goes on with the next record it can find.
//! - [`parse_http_response`] splits a `response` block into status, headers and body;
//!   [`HttpResponse::decoded_body`] undoes `chunked` and `gzip`/`deflate` when the archive
//!   stored the body as it came off the wire.
//! - [`WarcWriter`] writes WARC/1.1, one gzip member per record, fields in a fixed order,
//!   `WARC-Block-Digest` computed, and returns each record's offset and compressed length
//!   ([`Written`]) for [`cdxj_line`]. The builders [`warcinfo`], [`request`], [`response`]
//!   and [`revisit`] (identical-payload-digest profile) fill in the fields;
//!   [`http_response_head`] stores `Content-Encoding`, `Transfer-Encoding` and
//!   `Content-Length` as `X-Crawler-…` so the payload digest describes the stored bytes.
//!
//! ```
//! use silhouette_warc::{http_response_head, parse_http_response, response, RecordType, WarcReader, WarcWriter};
//!
//! let body = b"<html><p>hi</p></html>";
//! let head = http_response_head(200, "OK", &[("Content-Type", "text/html")], body.len() as u64);
//! let record = response("2024-05-01T12:00:00Z", "http://example.com/", &head, body);
//! let mut writer = WarcWriter::new(Vec::new());
//! let written = writer.write(&record)?;
//! let file = writer.into_inner()?;
//!
//! let mut reader = WarcReader::new(file.as_slice());
//! let mut rec = reader.next_record().expect("one record")?;
//! assert_eq!(rec.header().record_type(), RecordType::Response);
//! assert_eq!(rec.header().offset, written.offset);
//! assert_eq!(rec.header().target_uri(), Some("http://example.com/"));
//! let block = rec.read_block(1 << 20)?;
//! let http = parse_http_response(&block)?;
//! assert_eq!((http.status, http.body(&block)), (200, &body[..]));
//! assert!(reader.next_record().is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod build;
mod cdxj;
mod digest;
mod error;
mod fields;
mod gzip;
mod header;
mod http;
mod reader;
mod rewind;
mod writer;

pub use build::{
    IDENTICAL_PAYLOAD_DIGEST, RENAMED_HEADERS, http_response_head, record_id, request, response,
    response_fields, revisit, warc_date, warcinfo,
};
pub use cdxj::{cdxj_line, cdxj_timestamp, surt};
pub use digest::{DigestBuilder, sha1_digest};
pub use error::{Error, HttpError};
pub use fields::{Fields, RecordType, strip_angle_brackets};
pub use http::{HttpResponse, parse_http_response};
pub use reader::{Header, Limits, Record, WarcReader};
pub use writer::{WarcRecord, WarcWriter, Written, gzip_member};
