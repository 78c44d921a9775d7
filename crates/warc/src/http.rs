//! The HTTP message inside a `response` record: status, headers, body, and the body decoded
//! when the archive stored it still chunked or compressed (wget stores what came off the
//! wire).

use std::borrow::Cow;
use std::io::{self, Read};

use flate2::read::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

use crate::error::HttpError;
use crate::fields::Fields;

const MAX_HEADERS: usize = 256;

/// A parsed HTTP response head; the body is the rest of the record block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Reason phrase (may be empty).
    pub reason: String,
    /// Header fields, in order.
    pub headers: Fields,
    /// Where the body starts in the block.
    pub body_offset: usize,
}

/// Parses the HTTP response head at the start of `block` (a `response` record's block),
/// leniently: LF line ends, folded lines, spaces before `:` are accepted.
///
/// ```
/// let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hi";
/// let http = silhouette_warc::parse_http_response(block)?;
/// assert_eq!((http.status, http.content_type()), (200, Some("text/html")));
/// assert_eq!(http.body(block), b"<p>hi");
/// # Ok::<(), silhouette_warc::HttpError>(())
/// ```
pub fn parse_http_response(block: &[u8]) -> Result<HttpResponse, HttpError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let parsed = httparse::ParserConfig::default()
        .allow_spaces_after_header_name_in_responses(true)
        .allow_obsolete_multiline_headers_in_responses(true)
        .allow_multiple_spaces_in_response_status_delimiters(true)
        .parse_response(&mut response, block)
        .map_err(|e| HttpError::Head(e.to_string()))?;
    let httparse::Status::Complete(body_offset) = parsed else {
        return Err(HttpError::Incomplete);
    };
    let mut fields = Fields::new();
    for h in response.headers.iter() {
        fields.push(h.name, String::from_utf8_lossy(h.value).trim());
    }
    Ok(HttpResponse {
        status: response.code.unwrap_or(0),
        reason: response.reason.unwrap_or("").to_owned(),
        headers: fields,
        body_offset,
    })
}

impl HttpResponse {
    /// The body as stored in `block` (the block this head was parsed from).
    pub fn body<'a>(&self, block: &'a [u8]) -> &'a [u8] {
        block.get(self.body_offset..).unwrap_or_default()
    }

    /// `Content-Type` without parameters, lower-cased.
    pub fn content_type(&self) -> Option<&str> {
        self.headers
            .get("Content-Type")
            .map(|v| v.split(';').next().unwrap_or("").trim())
    }

    /// Whether the content type says HTML (`text/html`, `application/xhtml+xml`).
    pub fn is_html(&self) -> bool {
        self.content_type().is_some_and(|t| {
            t.eq_ignore_ascii_case("text/html") || t.eq_ignore_ascii_case("application/xhtml+xml")
        })
    }

    /// The body with the transfer coding (`chunked`) and the content coding (`gzip`,
    /// `deflate`) the stored headers announce undone, at most `cap` bytes. Bodies stored
    /// decoded (headers renamed `X-Crawler-…`) come back as they are.
    pub fn decoded_body<'a>(
        &self,
        block: &'a [u8],
        cap: usize,
    ) -> Result<Cow<'a, [u8]>, HttpError> {
        let mut body = Cow::Borrowed(self.body(block));
        let chunked = self
            .headers
            .get_all("Transfer-Encoding")
            .any(|v| v.to_ascii_lowercase().contains("chunked"));
        if chunked {
            body = Cow::Owned(dechunk(&body, cap)?);
        }
        let codings: Vec<String> = self
            .headers
            .get_all("Content-Encoding")
            .flat_map(|v| v.split(','))
            .map(|c| c.trim().to_ascii_lowercase())
            .filter(|c| !c.is_empty() && c != "identity")
            .collect();
        for coding in codings.iter().rev() {
            body = Cow::Owned(decode(coding, &body, cap)?);
        }
        if body.len() > cap {
            return Err(HttpError::TooLarge { cap });
        }
        Ok(body)
    }
}

fn decode(coding: &str, body: &[u8], cap: usize) -> Result<Vec<u8>, HttpError> {
    let fail = |source: io::Error| HttpError::Decode {
        coding: coding.to_owned(),
        source,
    };
    let read = |r: &mut dyn Read| -> Result<Vec<u8>, HttpError> {
        let mut out = Vec::new();
        r.take(cap as u64 + 1).read_to_end(&mut out).map_err(fail)?;
        if out.len() > cap {
            return Err(HttpError::TooLarge { cap });
        }
        Ok(out)
    };
    match coding {
        "gzip" | "x-gzip" => read(&mut MultiGzDecoder::new(body)),
        // `deflate` is zlib by the RFC, raw deflate in some servers.
        "deflate" => {
            read(&mut ZlibDecoder::new(body)).or_else(|_| read(&mut DeflateDecoder::new(body)))
        }
        other => Err(fail(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("content coding {other:?} not supported"),
        ))),
    }
}

/// Undoes `Transfer-Encoding: chunked`; trailers are dropped.
fn dechunk(body: &[u8], cap: usize) -> Result<Vec<u8>, HttpError> {
    let mut out = Vec::new();
    let mut rest = body;
    loop {
        let Some(eol) = memchr::memchr(b'\n', rest) else {
            return Err(HttpError::Chunked("chunk size line not terminated"));
        };
        let line = String::from_utf8_lossy(&rest[..eol]);
        let size_text = line.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16)
            .map_err(|_| HttpError::Chunked("chunk size is not hexadecimal"))?;
        rest = &rest[eol + 1..];
        if size == 0 {
            return Ok(out);
        }
        let Some(chunk) = rest.get(..size) else {
            return Err(HttpError::Chunked("chunk cut short"));
        };
        if out.len() + size > cap {
            return Err(HttpError::TooLarge { cap });
        }
        out.extend_from_slice(chunk);
        rest = &rest[size..];
        rest = rest.strip_prefix(b"\r").unwrap_or(rest);
        rest = rest.strip_prefix(b"\n").unwrap_or(rest);
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::GzEncoder;

    use super::*;

    fn check(block: &[u8], expected: Result<&[u8], &str>) {
        let got = parse_http_response(block)
            .and_then(|h| h.decoded_body(block, 1000).map(|b| b.into_owned()));
        match (got, expected) {
            (Ok(body), Ok(want)) => assert_eq!(body, want),
            (Err(e), Err(want)) => assert!(e.to_string().contains(want), "{e}"),
            (got, want) => panic!("{got:?} instead of {want:?}"),
        }
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(data).expect("writes to a Vec");
        gz.finish().expect("writes to a Vec")
    }

    #[test]
    fn bodies() {
        check(b"HTTP/1.1 200 OK\r\n\r\nplain", Ok(b"plain"));
        check(b"HTTP/1.0 404 Not Found\nServer: x\n\nlf", Ok(b"lf"));
        check(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n",
            Ok(b"abcde"),
        );
        check(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nabc",
            Err("cut short"),
        );
        check(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            Err("hexadecimal"),
        );
        let mut gz = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        gz.extend_from_slice(&gzip(b"unzipped"));
        check(&gz, Ok(b"unzipped"));
        let mut big = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        big.extend_from_slice(&gzip(&[b'a'; 5000]));
        check(&big, Err("cap"));
        check(
            b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\nxx",
            Err("not supported"),
        );
        check(
            b"HTTP/1.1 200 OK\r\nX-Crawler-Content-Encoding: gzip\r\n\r\nstored",
            Ok(b"stored"),
        );
        check(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n",
            Err("not terminated"),
        );
        check(b"GARBAGE\r\n\r\n", Err("malformed"));
    }

    #[test]
    fn html_content_types() {
        for (ct, html) in [
            ("text/html; charset=utf-8", true),
            ("TEXT/HTML", true),
            ("image/png", false),
        ] {
            let block = format!("HTTP/1.1 200 OK\r\nContent-Type: {ct}\r\n\r\n");
            let head = parse_http_response(block.as_bytes()).expect("a valid head");
            assert_eq!(head.is_html(), html, "{ct}");
        }
    }
}
