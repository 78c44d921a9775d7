//! Content decoding of response bodies, chunk by chunk as they arrive: `gzip` (one or more
//! members) and `deflate` (zlib-wrapped by the RFC, raw in some servers: both accepted, as
//! browsers do), with the size cap counted on the decoded bytes so that a decompression bomb
//! stops at the cap. The fetcher decodes here rather than in the HTTP client so that the
//! response headers (`Content-Encoding`, `Content-Length`) stay as the server sent them.

use std::io::{self, Write};

use flate2::write::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

/// The `Accept-Encoding` the fetcher sends: exactly the codings [`BodyDecoder`] undoes.
pub(crate) const ACCEPT_ENCODING_VALUE: &str = "gzip, deflate";

/// A content coding the fetcher undoes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Coding {
    /// No coding (absent, empty or `identity`).
    Identity,
    /// `gzip` / `x-gzip`.
    Gzip,
    /// `deflate`: zlib or raw deflate, told apart by the first two bytes.
    Deflate,
}

impl std::fmt::Display for Coding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Identity => "identity",
            Self::Gzip => "gzip",
            Self::Deflate => "deflate",
        })
    }
}

impl Coding {
    /// The coding named by the `Content-Encoding` values of a response; `Err` names a coding
    /// the fetcher cannot undo (`br`, `zstd`, or two stacked codings).
    pub(crate) fn from_values<'a>(
        values: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, String> {
        let mut found = Self::Identity;
        for name in values
            .into_iter()
            .flat_map(|v| v.split(','))
            .map(|c| c.trim().to_ascii_lowercase())
            .filter(|c| !c.is_empty() && c != "identity")
        {
            let coding = match name.as_str() {
                "gzip" | "x-gzip" => Self::Gzip,
                "deflate" => Self::Deflate,
                _ => return Err(format!("content coding {name:?} is not supported")),
            };
            if found != Self::Identity {
                return Err("stacked content codings are not supported".to_owned());
            }
            found = coding;
        }
        Ok(found)
    }
}

/// The error a full [`Sink`] returns, told apart from corrupt input by its type.
#[derive(Debug)]
struct CapReached;

impl std::fmt::Display for CapReached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("decoded body reached the size cap")
    }
}

impl std::error::Error for CapReached {}

fn is_cap(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<CapReached>())
}

/// Decoded bytes, at most `limit` of them; `full` once more were offered.
#[derive(Debug)]
struct Sink {
    buf: Vec<u8>,
    limit: usize,
    full: bool,
}

impl Write for Sink {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let room = self.limit - self.buf.len();
        if room == 0 && !data.is_empty() {
            self.full = true;
            return Err(io::Error::other(CapReached));
        }
        let n = room.min(data.len());
        self.buf.extend_from_slice(&data[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[derive(Debug)]
enum State {
    Identity(Sink),
    /// `deflate` before its first two bytes arrived.
    Sniffing(Sink, Vec<u8>),
    Gzip(MultiGzDecoder<Sink>),
    Zlib(ZlibDecoder<Sink>),
    Raw(DeflateDecoder<Sink>),
}

/// Why a body could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Corrupt(pub(crate) String);

/// What [`BodyDecoder::push`] did with a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pushed {
    /// All of it decoded within the cap.
    Taken,
    /// The decoded body reached the cap and there was more: the body is over the limit.
    Full,
}

/// Undoes one content coding on a body fed chunk by chunk, keeping at most `limit` decoded
/// bytes.
#[derive(Debug)]
pub(crate) struct BodyDecoder {
    state: State,
    /// Compressed bytes fed so far.
    fed: u64,
}

impl BodyDecoder {
    /// A decoder for `coding`, its output capped at `limit` bytes (`capacity` reserved).
    pub(crate) fn new(coding: Coding, limit: usize, capacity: usize) -> Self {
        let sink = Sink {
            buf: Vec::with_capacity(capacity.min(limit)),
            limit,
            full: false,
        };
        let state = match coding {
            Coding::Identity => State::Identity(sink),
            Coding::Gzip => State::Gzip(MultiGzDecoder::new(sink)),
            Coding::Deflate => State::Sniffing(sink, Vec::new()),
        };
        Self { state, fed: 0 }
    }

    fn sink(&self) -> &Sink {
        match &self.state {
            State::Identity(s) | State::Sniffing(s, _) => s,
            State::Gzip(d) => d.get_ref(),
            State::Zlib(d) => d.get_ref(),
            State::Raw(d) => d.get_ref(),
        }
    }

    /// Bytes received so far (before decoding).
    pub(crate) fn wire_bytes(&self) -> u64 {
        self.fed
    }

    /// Decodes `chunk`. After [`Pushed::Full`] the decoder holds the first `limit` decoded
    /// bytes; feed it nothing more.
    pub(crate) fn push(&mut self, chunk: &[u8]) -> Result<Pushed, Corrupt> {
        self.fed += chunk.len() as u64;
        if let State::Sniffing(sink, head) = &mut self.state {
            head.extend_from_slice(chunk);
            if head.len() < 2 {
                return Ok(Pushed::Taken);
            }
            let sink = std::mem::replace(
                sink,
                Sink {
                    buf: Vec::new(),
                    limit: 0,
                    full: false,
                },
            );
            let head = std::mem::take(head);
            // zlib: compression method 8, header checksum a multiple of 31 (RFC 1950).
            self.state = if head[0] & 0x0f == 8 && u16::from_be_bytes([head[0], head[1]]) % 31 == 0
            {
                State::Zlib(ZlibDecoder::new(sink))
            } else {
                State::Raw(DeflateDecoder::new(sink))
            };
            return self.write(&head);
        }
        self.write(chunk)
    }

    fn write(&mut self, data: &[u8]) -> Result<Pushed, Corrupt> {
        let result = match &mut self.state {
            State::Identity(s) | State::Sniffing(s, _) => s.write_all(data),
            State::Gzip(d) => d.write_all(data),
            State::Zlib(d) => d.write_all(data),
            State::Raw(d) => d.write_all(data),
        };
        match result {
            Ok(()) => Ok(Pushed::Taken),
            Err(_) if self.sink().full => Ok(Pushed::Full),
            Err(e) => Err(Corrupt(e.to_string())),
        }
    }

    /// The first `limit` decoded bytes, without checking that the stream is complete (a
    /// body cut at the cap).
    pub(crate) fn into_prefix(self) -> Vec<u8> {
        match self.state {
            State::Identity(s) | State::Sniffing(s, _) => s.buf,
            State::Gzip(mut d) => std::mem::take(&mut d.get_mut().buf),
            State::Zlib(mut d) => std::mem::take(&mut d.get_mut().buf),
            State::Raw(mut d) => std::mem::take(&mut d.get_mut().buf),
        }
    }

    /// The decoded body, once the whole body was fed: `Err` if the compressed stream is
    /// cut short or its checksum is wrong. An empty body decodes to nothing whatever the
    /// coding (as browsers treat it). [`Pushed::Full`] again if the decoder's last output
    /// went over the cap (then [`into_prefix`](Self::into_prefix) holds the cap's worth).
    pub(crate) fn finish(&mut self) -> Result<Pushed, Corrupt> {
        if self.fed == 0 {
            return Ok(Pushed::Taken);
        }
        let finished = match &mut self.state {
            State::Identity(_) => Ok(()),
            State::Sniffing(..) => Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "deflate stream of one byte",
            )),
            State::Gzip(d) => d.try_finish(),
            State::Zlib(d) => d.try_finish(),
            State::Raw(d) => d.try_finish(),
        };
        match finished {
            Ok(()) => Ok(Pushed::Taken),
            Err(e) if is_cap(&e) => Ok(Pushed::Full),
            Err(e) => Err(Corrupt(e.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use flate2::Compression;
    use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};

    use super::*;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).expect("to a Vec");
        e.finish().expect("to a Vec")
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).expect("to a Vec");
        e.finish().expect("to a Vec")
    }

    fn raw(data: &[u8]) -> Vec<u8> {
        let mut e = DeflateEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).expect("to a Vec");
        e.finish().expect("to a Vec")
    }

    /// The outcome of feeding `wire` in chunks of `step` bytes to a decoder capped at
    /// `limit`: the body, `"full"` when over the cap, or the corruption message.
    fn decode(coding: Coding, wire: &[u8], step: usize, limit: usize) -> Result<Vec<u8>, String> {
        let mut d = BodyDecoder::new(coding, limit, 16);
        for chunk in wire.chunks(step.max(1)) {
            match d.push(chunk).map_err(|c| c.0)? {
                Pushed::Taken => {}
                Pushed::Full => {
                    assert_eq!(d.into_prefix().len(), limit, "the prefix fills the cap");
                    return Err("full".to_owned());
                }
            }
        }
        assert_eq!(d.wire_bytes(), wire.len() as u64);
        match d.finish().map_err(|c| c.0)? {
            Pushed::Taken => Ok(d.into_prefix()),
            Pushed::Full => Err("full".to_owned()),
        }
    }

    fn check(coding: Coding, wire: &[u8], limit: usize, expected: Result<&[u8], &str>) {
        for step in [1, 7, 4096, wire.len()] {
            let got = decode(coding, wire, step, limit);
            match (&got, expected) {
                (Ok(body), Ok(want)) => assert_eq!(body, want, "step {step}"),
                (Err(e), Err(want)) => assert!(e.contains(want), "step {step}: {e}"),
                _ => panic!("step {step}: {got:?} instead of {expected:?}"),
            }
        }
    }

    #[test]
    fn decodes_within_the_cap() {
        let page = b"<!doctype html><p>hello</p>".repeat(40);
        let mut two_members = gzip(&page[..500]);
        two_members.extend(gzip(&page[500..]));
        for (coding, wire) in [
            (Coding::Identity, page.clone()),
            (Coding::Gzip, gzip(&page)),
            (Coding::Gzip, two_members),
            (Coding::Deflate, zlib(&page)),
            (Coding::Deflate, raw(&page)),
        ] {
            check(coding, &wire, page.len(), Ok(&page));
            check(coding, &wire, page.len() - 1, Err("full"));
        }
    }

    #[test]
    fn empty_bodies_decode_to_nothing() {
        for coding in [Coding::Identity, Coding::Gzip, Coding::Deflate] {
            check(coding, b"", 10, Ok(b""));
        }
        check(Coding::Gzip, &gzip(b""), 10, Ok(b""));
        check(Coding::Deflate, &zlib(b""), 0, Ok(b""));
    }

    #[test]
    fn bomb_stops_at_the_cap() {
        let zeros = vec![0u8; 8 << 20];
        let bomb = gzip(&zeros);
        assert!(bomb.len() < 64 << 10, "{} compressed bytes", bomb.len());
        check(Coding::Gzip, &bomb, 1 << 20, Err("full"));
        check(Coding::Deflate, &zlib(&zeros), 1 << 20, Err("full"));
    }

    #[test]
    fn corrupt_and_truncated_streams_are_errors() {
        let page = b"<p>some text to compress</p>".repeat(20);
        let gz = gzip(&page);
        check(Coding::Gzip, &gz[..gz.len() - 4], 1 << 20, Err(""));
        check(Coding::Gzip, &gz[..gz.len() / 2], 1 << 20, Err(""));
        check(Coding::Gzip, b"not gzip at all", 1 << 20, Err(""));
        let mut bad_crc = gz.clone();
        let n = bad_crc.len();
        bad_crc[n - 6] ^= 0xff;
        check(Coding::Gzip, &bad_crc, 1 << 20, Err("corrupt"));
        let z = zlib(&page);
        check(
            Coding::Deflate,
            &z[..z.len() / 2],
            1 << 20,
            Err("incomplete"),
        );
        check(Coding::Deflate, &[0x78], 1 << 20, Err("one byte"));
        check(Coding::Deflate, &[0xff; 40], 1 << 20, Err(""));
    }

    #[test]
    fn codings_from_headers() {
        for (values, expected) in [
            (&[][..], Ok(Coding::Identity)),
            (&["identity"][..], Ok(Coding::Identity)),
            (&["GZIP"][..], Ok(Coding::Gzip)),
            (&["x-gzip"][..], Ok(Coding::Gzip)),
            (&[" deflate "][..], Ok(Coding::Deflate)),
            (&["br"][..], Err("\"br\"")),
            (&["gzip, deflate"][..], Err("stacked")),
            (&["gzip", "gzip"][..], Err("stacked")),
        ] {
            match (Coding::from_values(values.iter().copied()), expected) {
                (Ok(got), Ok(want)) => assert_eq!(got, want, "{values:?}"),
                (Err(got), Err(want)) => assert!(got.contains(want), "{got}"),
                (got, want) => panic!("{values:?}: {got:?} instead of {want:?}"),
            }
        }
    }
}
