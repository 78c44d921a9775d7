//! One gzip member from a few slices, with a deflate state kept per thread.
//!
//! `flate2`'s `GzEncoder` allocates and clears a fresh deflate state (window, hash chains:
//! about 300 KB) for every member; a crawl writes two members per page, and that set-up
//! cost as much CPU as compressing the page (docs/benchmark-history.md, "`crawl --warc`", session 6). Here each
//! thread keeps one state per level and resets it: the bytes are those `GzEncoder` writes
//! (a test checks), only cheaper to make.

use std::cell::RefCell;
use std::io;

use flate2::{Compress, Compression, Crc, FlushCompress, Status};

thread_local! {
    /// The deflate states of this thread, one per level used.
    static STATES: RefCell<Vec<(u32, Compress)>> = const { RefCell::new(Vec::new()) };
}

/// The 10-byte member header `flate2`'s `GzBuilder` writes: no name, no mtime, `XFL` from
/// the level, OS 255 (unknown).
fn header(level: Compression) -> [u8; 10] {
    let xfl = if level.level() >= Compression::best().level() {
        2
    } else if level.level() <= Compression::fast().level() {
        4
    } else {
        0
    };
    [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 255]
}

/// The gzip member holding `parts` one after the other, appended to `out`.
pub(crate) fn member_into(
    out: &mut Vec<u8>,
    parts: &[&[u8]],
    level: Compression,
) -> io::Result<()> {
    STATES.with(|states| {
        let mut states = states.borrow_mut();
        let at = match states.iter().position(|(l, _)| *l == level.level()) {
            Some(at) => {
                states[at].1.reset();
                at
            }
            None => {
                states.push((level.level(), Compress::new(level, false)));
                states.len() - 1
            }
        };
        let state = &mut states[at].1;
        out.extend_from_slice(&header(level));
        let mut crc = Crc::new();
        for part in parts {
            crc.update(part);
            deflate(state, out, part, FlushCompress::None)?;
        }
        deflate(state, out, &[], FlushCompress::Finish)?;
        out.extend_from_slice(&crc.sum().to_le_bytes());
        out.extend_from_slice(&crc.amount().to_le_bytes());
        Ok(())
    })
}

/// Feeds all of `input` to `state`, growing `out` as needed; with `Finish`, until the
/// stream ends.
fn deflate(
    state: &mut Compress,
    out: &mut Vec<u8>,
    mut input: &[u8],
    flush: FlushCompress,
) -> io::Result<()> {
    loop {
        if out.capacity() - out.len() < 64 {
            out.reserve(input.len() / 2 + 4096);
        }
        let before = state.total_in();
        let status = state
            .compress_vec(input, out, flush)
            .map_err(io::Error::other)?;
        let used = usize::try_from(state.total_in() - before).unwrap_or(input.len());
        input = &input[used.min(input.len())..];
        let done = match flush {
            FlushCompress::Finish => status == Status::StreamEnd,
            _ => input.is_empty(),
        };
        if done {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};

    use super::*;

    /// The member is byte for byte what `GzEncoder` writes, and reads back.
    fn check(parts: &[&[u8]], level: Compression) {
        let mut expected = flate2::write::GzEncoder::new(Vec::new(), level);
        for part in parts {
            expected.write_all(part).expect("in memory");
        }
        let expected = expected.finish().expect("in memory");
        // Twice: the second member comes from the reset state.
        for _ in 0..2 {
            let mut got = Vec::new();
            member_into(&mut got, parts, level).expect("in memory");
            assert_eq!(got, expected);
            let mut back = Vec::new();
            flate2::read::GzDecoder::new(got.as_slice())
                .read_to_end(&mut back)
                .expect("valid gzip");
            assert_eq!(back, parts.concat());
        }
    }

    #[test]
    fn same_bytes_as_gz_encoder() {
        let page = b"<html><body><p>a paragraph of text</p></body></html>\n".repeat(3000);
        let noise: Vec<u8> = (0u32..200_000)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        for level in [
            Compression::fast(),
            Compression::default(),
            Compression::best(),
        ] {
            check(&[], level);
            check(&[b"", b""], level);
            check(&[b"HTTP/1.1 200 OK\r\n\r\n", &page, b"\r\n\r\n"], level);
            check(&[&noise, &page[..1000]], level);
        }
    }
}
