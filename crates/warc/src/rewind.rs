//! A buffered reader that knows its offset, can search ahead and can go back to a mark.
//!
//! The reader marks where a record (or its gzip member) starts; when the record turns out
//! to be broken, it goes back to one byte past the mark and searches for the next record
//! from there, so a record swallowed by a wrong `Content-Length` is still found. Bytes are
//! kept from the mark on only up to a window; past it the mark is dropped (and recovery
//! searches from where reading stopped), so memory stays bounded.

use std::io::{self, BufRead, Read};

const CHUNK: usize = 64 * 1024;

/// See the module documentation.
#[derive(Debug)]
pub(crate) struct Rewind<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    /// Offset of `buf[0]` in the stream.
    base: u64,
    mark: Option<usize>,
    window: usize,
    /// The inner reader failed (not with `Interrupted`): the stream cannot go on.
    failed: bool,
}

impl<R: Read> Rewind<R> {
    pub(crate) fn new(inner: R, window: usize) -> Self {
        Self {
            inner,
            buf: Vec::new(),
            pos: 0,
            base: 0,
            mark: None,
            window,
            failed: false,
        }
    }

    /// Counts offsets from `offset` (the input starts that far into a file); before reading.
    pub(crate) fn starting_at(mut self, offset: u64) -> Self {
        self.base = offset;
        self
    }

    /// Offset of the next byte to read.
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    pub(crate) fn failed(&self) -> bool {
        self.failed
    }

    /// Keeps the bytes from here on (up to the window) for [`rewind_past_mark`](Self::rewind_past_mark).
    pub(crate) fn set_mark(&mut self) {
        self.mark = Some(self.pos);
    }

    /// Moves the mark to `offset`, if the bytes from there on are still buffered.
    pub(crate) fn move_mark(&mut self, offset: u64) {
        self.mark = offset
            .checked_sub(self.base)
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i <= self.buf.len());
    }

    /// Goes back to one byte past the mark; false (and nothing moves) without a mark.
    pub(crate) fn rewind_past_mark(&mut self) -> bool {
        match self.mark.take() {
            Some(m) if m < self.buf.len() => {
                self.pos = m + 1;
                true
            }
            _ => false,
        }
    }

    /// Reads more bytes after the buffered ones; 0 at the end of the stream.
    fn read_more(&mut self) -> io::Result<usize> {
        let keep = self.mark.map_or(self.pos, |m| m.min(self.pos));
        if keep > 0 && keep * 2 >= self.buf.len() {
            self.buf.drain(..keep);
            self.base += keep as u64;
            self.pos -= keep;
            self.mark = self.mark.map(|m| m - keep);
        }
        if let Some(m) = self.mark
            && self.buf.len() - m > self.window
        {
            self.mark = None;
        }
        let len = self.buf.len();
        self.buf.resize(len + CHUNK, 0);
        loop {
            match self.inner.read(&mut self.buf[len..]) {
                Ok(n) => {
                    self.buf.truncate(len + n);
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buf.truncate(len);
                    self.failed = true;
                    return Err(e);
                }
            }
        }
    }

    /// Moves to the next occurrence of `pat` (positioned at its first byte); false, at the end
    /// of the stream, when there is none.
    pub(crate) fn find(&mut self, pat: &[u8]) -> io::Result<bool> {
        loop {
            if let Some(i) = memchr::memmem::find(&self.buf[self.pos..], pat) {
                self.pos += i;
                return Ok(true);
            }
            let tail = pat.len().saturating_sub(1);
            self.pos = self.pos.max(self.buf.len().saturating_sub(tail));
            if self.read_more()? == 0 {
                self.pos = self.buf.len();
                return Ok(false);
            }
        }
    }

    /// At least `n` bytes ahead if the stream has them (fewer only at its end).
    pub(crate) fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        while self.buf.len() - self.pos < n {
            if self.read_more()? == 0 {
                break;
            }
        }
        let end = self.buf.len().min(self.pos + n);
        Ok(&self.buf[self.pos..end])
    }

    /// The inner reader.
    pub(crate) fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The inner reader, dropping what is buffered.
    pub(crate) fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> Read for Rewind<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Rewind<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.buf.len() {
            self.read_more()?;
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.buf.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out one byte per read, to cross every buffer boundary.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), out.first_mut()) {
                (Some((b, rest)), Some(o)) => {
                    *o = *b;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    fn check_find(input: &[u8], pat: &[u8], expected: Option<u64>) {
        let mut r = Rewind::new(Trickle(input), 1024);
        let found = r.find(pat).expect("in-memory reads succeed");
        assert_eq!(found.then(|| r.offset()), expected, "{input:?} / {pat:?}");
    }

    #[test]
    fn finds_across_reads() {
        check_find(b"xxWARC/1.", b"WARC/1.", Some(2));
        check_find(b"xx\nWARC/1.1", b"\nWARC/1.", Some(2));
        check_find(b"xxWARC/", b"WARC/1.", None);
        check_find(b"", b"WARC", None);
    }

    #[test]
    fn rewinds_past_the_mark() -> io::Result<()> {
        let mut r = Rewind::new(Trickle(b"abcdef"), 1024);
        r.consume(0);
        let mut one = [0u8; 1];
        r.read_exact(&mut one)?;
        r.set_mark();
        let mut rest = Vec::new();
        r.read_to_end(&mut rest)?;
        assert_eq!(rest, b"bcdef");
        assert!(r.rewind_past_mark());
        assert_eq!(r.offset(), 2);
        assert!(!r.rewind_past_mark());
        assert_eq!(r.peek(2)?, b"cd");
        Ok(())
    }
}
