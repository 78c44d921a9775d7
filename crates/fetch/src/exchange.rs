//! One HTTP request/response exchange under the configured limits, and the
//! mapping of transport errors onto [`FetchError`].

use std::error::Error as StdError;
use std::io;

use bytes::Bytes;
use reqwest::header::{ACCEPT, ACCEPT_ENCODING, CONTENT_ENCODING, HeaderMap};
use tokio::time::{Instant, timeout};
use url::Url;

use crate::address::{BlockedByPolicy, LookupFailed};
use crate::decode::{ACCEPT_ENCODING_VALUE, BodyDecoder, Coding, Pushed};
use crate::{FetchConfig, FetchError, TimeoutKind};

const ACCEPT_VALUE: &str = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";

/// A response whose head has arrived; the body is still on the wire.
#[derive(Debug)]
pub(crate) struct Head {
    pub(crate) response: reqwest::Response,
    /// End of this exchange's total-time budget.
    pub(crate) deadline: Instant,
}

/// What to do when a body is longer than allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OverLimit {
    /// End with [`FetchError::TooLarge`].
    Fail,
    /// Keep the first bytes and stop reading (robots.txt).
    Truncate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Head,
    Body,
}

/// The HTTP/1.1 head of the GET that [`send`] makes for `url` (request line, `Host`, the
/// headers the client adds, the empty line), for archiving the request.
pub(crate) fn request_head(url: &Url, config: &FetchConfig) -> Vec<u8> {
    let mut target = url.path().to_owned();
    if let Some(q) = url.query() {
        target.push('?');
        target.push_str(q);
    }
    let mut host = url.host_str().unwrap_or_default().to_owned();
    if let Some(port) = url.port() {
        host.push_str(&format!(":{port}"));
    }
    let mut head = format!(
        "GET {target} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: {}\r\nAccept: {ACCEPT_VALUE}\r\n",
        config.user_agent
    );
    for (name, value) in config.extra_headers() {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("Accept-Encoding: {ACCEPT_ENCODING_VALUE}\r\n\r\n"));
    head.into_bytes()
}

/// Sends a GET and waits for the response head.
pub(crate) async fn send(
    client: &reqwest::Client,
    url: &Url,
    config: &FetchConfig,
) -> Result<Head, FetchError> {
    let deadline = Instant::now() + config.total_timeout;
    let (wait, kind, after) = if config.first_byte_timeout < config.total_timeout {
        (
            config.first_byte_timeout,
            TimeoutKind::FirstByte,
            config.first_byte_timeout,
        )
    } else {
        (
            config.total_timeout,
            TimeoutKind::Total,
            config.total_timeout,
        )
    };
    let request = client
        .get(url.clone())
        .header(ACCEPT, ACCEPT_VALUE)
        .header(ACCEPT_ENCODING, ACCEPT_ENCODING_VALUE)
        .send();
    let response = match timeout(wait, request).await {
        Err(_) => {
            return Err(FetchError::Timeout {
                url: url.clone(),
                kind,
                after,
            });
        }
        Ok(Err(err)) => return Err(classify(&err, url, config, Phase::Head)),
        Ok(Ok(response)) => response,
    };
    let header_bytes = header_size(response.headers());
    if header_bytes > config.max_header_bytes {
        tracing::debug!(%url, header_bytes, "response headers too large");
        return Err(FetchError::HeadersTooLarge {
            url: url.clone(),
            limit: config.max_header_bytes,
        });
    }
    Ok(Head { response, deadline })
}

/// Bytes the header fields take on the wire (`name: value\r\n`).
fn header_size(headers: &HeaderMap) -> usize {
    headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum()
}

/// Streams the body, undoing its content coding (`gzip`, `deflate`) as it arrives, and
/// enforces `max` bytes on the decoded body (and on the bytes received), the idle timeout
/// between chunks and the exchange's total deadline.
pub(crate) async fn read_body(
    head: Head,
    url: &Url,
    max: u64,
    over: OverLimit,
    config: &FetchConfig,
) -> Result<Bytes, FetchError> {
    let Head {
        mut response,
        deadline,
    } = head;
    let too_large = || FetchError::TooLarge {
        url: url.clone(),
        limit: max,
    };
    let decode_error = |message: String| FetchError::Decode {
        url: url.clone(),
        message,
    };
    let announced = response.content_length();
    if over == OverLimit::Fail && announced.is_some_and(|len| len > max) {
        return Err(too_large());
    }
    let coding = Coding::from_values(
        response
            .headers()
            .get_all(CONTENT_ENCODING)
            .iter()
            .map(|v| v.to_str().unwrap_or("unreadable")),
    )
    .map_err(decode_error)?;
    let max_len = usize::try_from(max).unwrap_or(usize::MAX);
    let initial = announced.unwrap_or(0).min(max).min(1 << 20);
    let mut decoder = BodyDecoder::new(coding, max_len, usize::try_from(initial).unwrap_or(0));
    loop {
        let now = Instant::now();
        let remaining = deadline.saturating_duration_since(now);
        let (wait, kind, after) = if config.idle_timeout < remaining {
            (config.idle_timeout, TimeoutKind::Idle, config.idle_timeout)
        } else {
            (remaining, TimeoutKind::Total, config.total_timeout)
        };
        let chunk = match timeout(wait, response.chunk()).await {
            Err(_) => {
                return Err(FetchError::Timeout {
                    url: url.clone(),
                    kind,
                    after,
                });
            }
            Ok(Err(err)) => return Err(classify(&err, url, config, Phase::Body)),
            Ok(Ok(None)) => break,
            Ok(Ok(Some(chunk))) => chunk,
        };
        let pushed = decoder
            .push(&chunk)
            .map_err(|c| decode_error(format!("{coding} body: {}", c.0)))?;
        // Compressed bytes beyond the cap decode to more than the cap for any real body.
        if pushed == Pushed::Full || decoder.wire_bytes() > max {
            match over {
                OverLimit::Fail => {
                    tracing::debug!(%url, max, "body too large");
                    return Err(too_large());
                }
                OverLimit::Truncate => return Ok(Bytes::from(decoder.into_prefix())),
            }
        }
    }
    let finished = decoder
        .finish()
        .map_err(|c| decode_error(format!("{coding} body: {}", c.0)))?;
    if finished == Pushed::Full && over == OverLimit::Fail {
        return Err(too_large());
    }
    Ok(Bytes::from(decoder.into_prefix()))
}

/// The error and its sources, joined with ": ".
fn chain_message(err: &(dyn StdError + 'static)) -> String {
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(e) = source {
        let text = e.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = e.source();
    }
    message
}

/// `true` if this I/O error, or one it wraps, is `InvalidData`: how
/// tokio-rustls reports TLS failures (the wrapper's `source()` skips the
/// wrapped I/O error, so look inside explicitly).
fn is_invalid_data(err: &io::Error) -> bool {
    let mut current = err;
    for _ in 0..8 {
        if current.kind() == io::ErrorKind::InvalidData {
            return true;
        }
        match current
            .get_ref()
            .and_then(|e| e.downcast_ref::<io::Error>())
        {
            Some(inner) => current = inner,
            None => return false,
        }
    }
    false
}

/// Maps a reqwest error onto the typed outcome.
fn classify(err: &reqwest::Error, url: &Url, config: &FetchConfig, phase: Phase) -> FetchError {
    let url = url.clone();
    let mut source: Option<&(dyn StdError + 'static)> = Some(err);
    let mut invalid_data = false;
    // A reset, or an end of the stream, before any of the response.
    let mut closed = false;
    while let Some(e) = source {
        if let Some(blocked) = e.downcast_ref::<BlockedByPolicy>() {
            return FetchError::BlockedAddress {
                url,
                addr: Some(blocked.addr),
            };
        }
        if let Some(lookup) = e.downcast_ref::<LookupFailed>() {
            return FetchError::Dns {
                url,
                message: lookup.to_string(),
            };
        }
        if let Some(hyper_err) = e.downcast_ref::<hyper::Error>()
            && hyper_err.is_parse_too_large()
        {
            return FetchError::HeadersTooLarge {
                url,
                limit: config.max_header_bytes,
            };
        }
        if let Some(io) = e.downcast_ref::<io::Error>() {
            invalid_data |= is_invalid_data(io);
            closed |= matches!(
                io.kind(),
                io::ErrorKind::ConnectionReset
                    | io::ErrorKind::ConnectionAborted
                    | io::ErrorKind::BrokenPipe
                    | io::ErrorKind::UnexpectedEof
            );
        }
        closed |= e
            .downcast_ref::<hyper::Error>()
            .is_some_and(hyper::Error::is_incomplete_message);
        source = e.source();
    }
    let message = chain_message(err);
    if err.is_connect() {
        if err.is_timeout() {
            FetchError::Timeout {
                url,
                kind: TimeoutKind::Connect,
                after: config.connect_timeout,
            }
        } else if invalid_data || message.contains("certificate") || message.contains("tls") {
            FetchError::Tls { url, message }
        } else {
            FetchError::Connect { url, message }
        }
    } else if err.is_timeout() {
        let (kind, after) = match phase {
            Phase::Head => (TimeoutKind::FirstByte, config.first_byte_timeout),
            Phase::Body => (TimeoutKind::Idle, config.idle_timeout),
        };
        FetchError::Timeout { url, kind, after }
    } else if phase == Phase::Body || err.is_body() || err.is_decode() {
        FetchError::BodyInterrupted { url, message }
    } else if closed {
        FetchError::ConnectionClosed { url, message }
    } else {
        FetchError::Protocol { url, message }
    }
}
