//! The streaming reader: one record at a time, its block as a bounded reader.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

use crate::error::{Error, snippet};
use crate::fields::{Fields, RecordType, strip_angle_brackets};
use crate::header::{HeaderFail, read_header};
use crate::rewind::Rewind;

const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];
/// What a record starts with, after the line break that ends the one before.
const NEXT_RECORD: &[u8] = b"\nWARC/1.";

/// Bounds on what the reader holds in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest record header accepted (default 64 KiB).
    pub max_header: usize,
    /// Bytes kept from the start of the current record (or gzip member) to search again
    /// from there when it turns out broken (default 16 MiB). Past it, recovery searches on
    /// from where reading stopped.
    pub rewind_window: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_header: 64 * 1024,
            rewind_window: 16 * 1024 * 1024,
        }
    }
}

/// A record's header, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The version line without `WARC/` (`1.0`, `1.1`).
    pub version: String,
    /// The fields, in order.
    pub fields: Fields,
    /// Where the record starts in the input: for gzip input, where its gzip member starts
    /// (what a CDXJ index records; in a file gzipped as one member, 0 for every record).
    pub offset: u64,
    /// Where the record starts inside its decompressed gzip member (0 for a member per
    /// record; equal to `offset` for uncompressed input).
    pub offset_in_member: u64,
    /// The block length (`Content-Length`).
    pub content_length: u64,
}

impl Header {
    /// `WARC-Type` (always present in a header the reader returns).
    pub fn record_type(&self) -> RecordType {
        RecordType::parse(self.fields.get("WARC-Type").unwrap_or(""))
    }

    /// `WARC-Target-URI`, without the `<…>` some writers put around it.
    pub fn target_uri(&self) -> Option<&str> {
        self.fields.get("WARC-Target-URI").map(strip_angle_brackets)
    }

    /// `WARC-Date`.
    pub fn date(&self) -> Option<&str> {
        self.fields.get("WARC-Date")
    }

    /// `WARC-Record-ID`.
    pub fn record_id(&self) -> Option<&str> {
        self.fields.get("WARC-Record-ID")
    }

    /// `WARC-Payload-Digest`.
    pub fn payload_digest(&self) -> Option<&str> {
        self.fields.get("WARC-Payload-Digest")
    }

    /// `Content-Type` of the block.
    pub fn content_type(&self) -> Option<&str> {
        self.fields.get("Content-Type")
    }
}

/// The reader's view of a byte source: buffered, positioned, searchable.
pub(crate) trait Src: BufRead {
    fn offset(&self) -> u64;
    fn find(&mut self, pat: &[u8]) -> io::Result<bool>;
    fn peek(&mut self, n: usize) -> io::Result<&[u8]>;
    fn set_mark(&mut self);
    fn move_mark(&mut self, offset: u64);
    fn rewind_past_mark(&mut self) -> bool;
}

impl<T: Read> Src for Rewind<T> {
    fn offset(&self) -> u64 {
        Rewind::offset(self)
    }
    fn find(&mut self, pat: &[u8]) -> io::Result<bool> {
        Rewind::find(self, pat)
    }
    fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        Rewind::peek(self, n)
    }
    fn set_mark(&mut self) {
        Rewind::set_mark(self);
    }
    fn move_mark(&mut self, offset: u64) {
        Rewind::move_mark(self, offset);
    }
    fn rewind_past_mark(&mut self) -> bool {
        Rewind::rewind_past_mark(self)
    }
}

type Member<R> = Rewind<GzDecoder<Rewind<R>>>;

#[derive(Debug)]
enum Layer<R: Read> {
    /// Uncompressed input.
    Plain(Rewind<R>),
    /// Gzip input, between members.
    Between(Rewind<R>),
    /// Gzip input, inside the member that starts at `start`.
    Member { dec: Box<Member<R>>, start: u64 },
    /// Only while switching.
    Gone,
}

impl<R: Read> Layer<R> {
    fn src(&mut self) -> Option<&mut dyn Src> {
        match self {
            Layer::Plain(r) => Some(r),
            Layer::Member { dec, .. } => Some(&mut **dec),
            Layer::Between(_) | Layer::Gone => None,
        }
    }

    fn raw(&self) -> Option<&Rewind<R>> {
        match self {
            Layer::Plain(r) | Layer::Between(r) => Some(r),
            Layer::Member { dec, .. } => Some(dec.get_ref().get_ref()),
            Layer::Gone => None,
        }
    }

    fn take_raw(&mut self) -> Option<Rewind<R>> {
        match std::mem::replace(self, Layer::Gone) {
            Layer::Plain(r) | Layer::Between(r) => Some(r),
            Layer::Member { dec, .. } => Some(dec.into_inner().into_inner()),
            Layer::Gone => None,
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum State {
    Start,
    Ready,
    InBlock {
        offset: u64,
        expected: u64,
        read: u64,
    },
    /// Search the current stream for the next record, from one byte past the mark.
    ResyncRecord,
    /// Search the compressed input for the next gzip member, from one byte past the member
    /// that failed.
    ResyncGzip,
    Done,
}

/// Reads WARC records one after the other from any `Read`: WARC/1.0 and 1.1, uncompressed,
/// a gzip member per record or the whole file as one member.
///
/// [`next_record`](Self::next_record) returns `None` at the end; a broken record gives one
/// `Some(Err(_))` naming its offset, and the next call goes on with the next record it can
/// find. The block of a record is read through the [`Record`] (it implements [`Read`]);
/// whatever is left unread is skipped, never held in memory.
#[derive(Debug)]
pub struct WarcReader<R: Read> {
    layer: Layer<R>,
    limits: Limits,
    state: State,
    /// Offset of the last record returned in the current stream (for [`Error::Trailing`]).
    previous: Option<u64>,
    /// Errors that only say "still garbage" are not repeated while searching.
    quiet: bool,
}

/// One record: its header, and its block as a [`Read`] bounded by `Content-Length`.
#[derive(Debug)]
pub struct Record<'a, R: Read> {
    header: Header,
    reader: &'a mut WarcReader<R>,
}

impl<R: Read> Record<'_, R> {
    /// Whether reading can start at this record's [`Header::offset`] with
    /// [`WarcReader::starting_at`]: the record starts a gzip member, or the input is
    /// uncompressed.
    pub fn is_entry_point(&self) -> bool {
        self.header.offset_in_member == 0 || matches!(self.reader.layer, Layer::Plain(_))
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The whole block, or [`Error::BlockTooLarge`] (nothing read) if it is over `cap` bytes.
    pub fn read_block(&mut self, cap: u64) -> Result<Vec<u8>, Error> {
        let length = self.header.content_length;
        if length > cap {
            return Err(Error::BlockTooLarge {
                offset: self.header.offset,
                length,
                cap,
            });
        }
        let mut out = Vec::with_capacity(length.min(1 << 20) as usize);
        let mut chunk = [0u8; 16 * 1024];
        loop {
            match self.reader.read_block(&mut chunk)? {
                0 => return Ok(out),
                n => out.extend_from_slice(&chunk[..n]),
            }
        }
    }
}

impl<R: Read> Read for Record<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.reader.read_block(out).map_err(|e| {
            let kind = match e {
                Error::Truncated { .. } => io::ErrorKind::UnexpectedEof,
                _ => io::ErrorKind::InvalidData,
            };
            io::Error::new(kind, e)
        })
    }
}

impl<R: Read> WarcReader<R> {
    /// A reader with the default [`Limits`].
    pub fn new(input: R) -> Self {
        Self::with_limits(input, Limits::default())
    }

    /// A reader with the given limits.
    pub fn with_limits(input: R, limits: Limits) -> Self {
        Self {
            layer: Layer::Plain(Rewind::new(input, limits.rewind_window)),
            limits,
            state: State::Start,
            previous: None,
            quiet: false,
        }
    }

    /// A reader over input that starts `offset` bytes into a file, at the start of a record
    /// (of its gzip member, for gzip input): how a long run resumes without reading the
    /// file again. Offsets, in records and errors, count from the start of the file.
    ///
    /// [`Record::is_entry_point`] says which records are such a start: each one of an
    /// uncompressed file or of a file with a gzip member per record; of a file gzipped as one
    /// member, only the first (the file must be read again from its start).
    ///
    /// ```
    /// use silhouette_warc::{WarcReader, WarcRecord, WarcWriter};
    /// let mut writer = WarcWriter::new(Vec::new());
    /// let record = |n: &str| WarcRecord::default().with_field("WARC-Type", n);
    /// writer.write(&record("resource"))?;
    /// let second = writer.write(&record("metadata"))?;
    /// let file = writer.into_inner()?;
    /// let at = second.offset as usize;
    /// let mut reader = WarcReader::starting_at(&file[at..], second.offset);
    /// let rec = reader.next_record().expect("a record")?;
    /// assert_eq!((rec.header().offset, rec.header().fields.get("WARC-Type")), (second.offset, Some("metadata")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn starting_at(input: R, offset: u64) -> Self {
        let limits = Limits::default();
        Self {
            layer: Layer::Plain(Rewind::new(input, limits.rewind_window).starting_at(offset)),
            limits,
            state: State::Start,
            previous: None,
            quiet: false,
        }
    }

    /// The next record, an error for a broken one (reading goes on after it), or `None` at
    /// the end of the input.
    pub fn next_record(&mut self) -> Option<Result<Record<'_, R>, Error>> {
        loop {
            match self.state {
                State::Done => return None,
                State::Start => {
                    if let Err(e) = self.detect() {
                        self.state = State::Done;
                        return Some(Err(e));
                    }
                }
                State::InBlock { .. } => {
                    let mut scratch = [0u8; 16 * 1024];
                    loop {
                        match self.read_block(&mut scratch) {
                            Ok(0) => break,
                            Ok(_) => {}
                            Err(e) => return Some(Err(e)),
                        }
                    }
                    self.state = State::Ready;
                }
                State::ResyncRecord => {
                    if let Err(e) = self.resync_record() {
                        return Some(Err(e));
                    }
                }
                State::ResyncGzip => {
                    if let Err(e) = self.resync_gzip() {
                        return Some(Err(e));
                    }
                }
                State::Ready => match self.start_record() {
                    Ok(Some(header)) => {
                        self.quiet = false;
                        self.previous = Some(header.offset_in_member);
                        self.state = State::InBlock {
                            offset: header.offset,
                            expected: header.content_length,
                            read: 0,
                        };
                        return Some(Ok(Record {
                            header,
                            reader: self,
                        }));
                    }
                    Ok(None) => self.state = State::Done,
                    Err(e) => {
                        let repeated = matches!(e, Error::Gzip { .. } | Error::NotWarc { .. });
                        if !(self.quiet && repeated) {
                            return Some(Err(e));
                        }
                    }
                },
            }
        }
    }

    /// Looks at the first bytes: empty, gzip or not.
    fn detect(&mut self) -> Result<(), Error> {
        let Some(mut raw) = self.layer.take_raw() else {
            return Err(Error::Empty);
        };
        let head = match raw.peek(2) {
            Ok(head) => head,
            Err(source) => return Err(Error::Io { offset: 0, source }),
        };
        let result = match head {
            [] => Err(Error::Empty),
            [0x1f, 0x8b] => {
                self.layer = Layer::Between(raw);
                self.state = State::Ready;
                return Ok(());
            }
            _ => Ok(()),
        };
        self.layer = Layer::Plain(raw);
        self.state = State::Ready;
        result
    }

    /// An IO error from the current stream: the input failed (stop) or a gzip member is
    /// corrupt (search for the next one).
    fn io_fail(&mut self, offset: u64, source: io::Error) -> Error {
        let input_failed = self.layer.raw().is_none_or(Rewind::failed);
        if input_failed || matches!(self.layer, Layer::Plain(_)) {
            self.state = State::Done;
            Error::Io { offset, source }
        } else {
            self.state = State::ResyncGzip;
            let offset = match &self.layer {
                Layer::Member { start, .. } => *start,
                _ => offset,
            };
            Error::Gzip { offset, source }
        }
    }

    /// Reads from the current block; `Ok(0)` once it is all read.
    fn read_block(&mut self, out: &mut [u8]) -> Result<usize, Error> {
        let State::InBlock {
            offset,
            expected,
            read,
        } = self.state
        else {
            return Ok(0);
        };
        let want = (expected - read).min(out.len() as u64) as usize;
        if want == 0 {
            return Ok(0);
        }
        let Some(src) = self.layer.src() else {
            return Ok(0);
        };
        match src.read(&mut out[..want]) {
            Ok(0) => {
                self.state = State::ResyncRecord;
                Err(Error::Truncated {
                    offset,
                    expected,
                    got: read,
                })
            }
            Ok(n) => {
                self.state = State::InBlock {
                    offset,
                    expected,
                    read: read + n as u64,
                };
                Ok(n)
            }
            Err(e) => Err(self.io_fail(offset, e)),
        }
    }

    /// Positions at the next record and reads its header; `None` at the end of the input.
    fn start_record(&mut self) -> Result<Option<Header>, Error> {
        loop {
            match &mut self.layer {
                Layer::Gone => return Ok(None),
                Layer::Between(raw) => {
                    let offset = raw.offset();
                    let head = match raw.peek(3) {
                        Ok(head) => head,
                        Err(e) => return Err(self.io_fail(offset, e)),
                    };
                    if head.is_empty() {
                        return Ok(None);
                    }
                    if head != GZIP_MAGIC {
                        let found = snippet(head);
                        raw.set_mark();
                        self.state = State::ResyncGzip;
                        return Err(Error::NotWarc { offset, found });
                    }
                    raw.set_mark();
                    let Some(raw) = self.layer.take_raw() else {
                        return Ok(None);
                    };
                    self.previous = None;
                    let dec = Box::new(Rewind::new(GzDecoder::new(raw), self.limits.rewind_window));
                    self.layer = Layer::Member { dec, start: offset };
                }
                Layer::Member { dec, start } => {
                    let start = *start;
                    match skip_newlines(&mut **dec) {
                        Ok(true) => return self.header(start),
                        Ok(false) => {
                            let Some(raw) = self.layer.take_raw() else {
                                return Ok(None);
                            };
                            self.layer = Layer::Between(raw);
                        }
                        Err(e) => return Err(self.io_fail(start, e)),
                    }
                }
                Layer::Plain(raw) => {
                    let offset = raw.offset();
                    let found = skip_newlines(raw);
                    let here = raw.offset();
                    return match found {
                        Ok(true) => self.header(here),
                        Ok(false) => Ok(None),
                        Err(e) => Err(self.io_fail(offset, e)),
                    };
                }
            }
        }
    }

    /// Reads the header of the record at the current position of the stream.
    fn header(&mut self, offset: u64) -> Result<Option<Header>, Error> {
        let previous = self.previous;
        let Some(src) = self.layer.src() else {
            return Ok(None);
        };
        let here = src.offset();
        if previous.is_none() {
            src.set_mark();
        }
        match read_header(src, offset, self.limits.max_header) {
            Ok((version, fields, content_length)) => {
                src.move_mark(here);
                Ok(Some(Header {
                    version,
                    fields,
                    offset,
                    offset_in_member: here,
                    content_length,
                }))
            }
            Err(HeaderFail::Io(e)) => Err(self.io_fail(offset, e)),
            Err(HeaderFail::NoWarcType(content_length)) => {
                // The header is sound but for its type: skip the block as usual.
                src.move_mark(here);
                self.state = State::InBlock {
                    offset,
                    expected: content_length,
                    read: 0,
                };
                Err(Error::MissingField {
                    offset,
                    field: "WARC-Type",
                })
            }
            Err(HeaderFail::NotWarc(found)) => {
                // Not a record where one should be: the previous record's Content-Length
                // may be too long or too short; search again from one byte past its start
                // (the mark), where a record it swallowed would be found.
                self.state = State::ResyncRecord;
                Err(match previous {
                    Some(previous) => Error::Trailing {
                        offset: here,
                        previous,
                        found,
                    },
                    None => Error::NotWarc {
                        offset: here,
                        found,
                    },
                })
            }
            Err(HeaderFail::Bad(e)) => {
                src.move_mark(here);
                self.state = State::ResyncRecord;
                Err(e)
            }
        }
    }

    fn resync_record(&mut self) -> Result<(), Error> {
        self.state = State::Ready;
        let Some(src) = self.layer.src() else {
            return Ok(());
        };
        let offset = src.offset();
        src.rewind_past_mark();
        match src.find(NEXT_RECORD) {
            Ok(true) => {
                src.consume(1);
                src.set_mark();
                self.previous = None;
                Ok(())
            }
            Ok(false) => Ok(()),
            Err(e) => Err(self.io_fail(offset, e)),
        }
    }

    fn resync_gzip(&mut self) -> Result<(), Error> {
        self.quiet = true;
        self.state = State::Ready;
        let Some(mut raw) = self.layer.take_raw() else {
            return Ok(());
        };
        let offset = raw.offset();
        raw.rewind_past_mark();
        let found = raw.find(&GZIP_MAGIC);
        self.layer = Layer::Between(raw);
        found.map(drop).map_err(|source| {
            self.state = State::Done;
            Error::Io { offset, source }
        })
    }
}

/// Skips the CR and LF bytes between records; false at the end of the stream.
fn skip_newlines(src: &mut dyn Src) -> io::Result<bool> {
    loop {
        let buf = src.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        let n = buf
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        let more = n < buf.len();
        src.consume(n);
        if more {
            return Ok(true);
        }
    }
}

#[cfg(test)]
#[path = "reader_tests.rs"]
mod tests;
