//! The index file: versioned, checksummed, and validated before use.
//!
//! Only the logical content is stored (the slot arrays, the extra ids and the order keys); the
//! tables are rebuilt on load, so a file can never smuggle in a table that gives a wrong answer.
//! All integers are little-endian.
//!
//! ```text
//! magic     8   b"SLHTIDX\0"
//! version   u32 1
//! k         u32
//! params    u64 length, then the bytes
//! slots     u64 n;  seq u64 (insertions so far);  live u64 (entries)
//! fps       n × u64
//! ids       n × u64
//! dead      ⌈n/64⌉ × u64 bitset (bits past n are 0)
//! later     u64 count, then per slot (ascending): slot u64, m u64, m × (id u64, c u64, g u64)
//! promoted  u64 count, then (ascending slot): slot u64, c u64, g u64
//! checksum  u64 over every byte above
//! ```
//!
//! The checksum folds 8-byte words with `h = rotl(mul(h ^ w, K), 31)`, a bijection of `h` for
//! each word, so any change confined to one word (every single-byte flip) always changes it;
//! other corruptions escape with probability about 2^-64.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::search::OrderKey;
use super::{IndexError, Later, NearIndex, Tuning};

const MAGIC: [u8; 8] = *b"SLHTIDX\0";
const VERSION: u32 = 1;
const K_MUL: u64 = 0x9e37_79b9_7f4a_7c15;
const CHUNK: usize = 8192;

/// Streaming checksum over arbitrary byte chunks.
#[derive(Debug, Clone)]
struct Checksum {
    h: u64,
    pending: [u8; 8],
    npending: usize,
    total: u64,
}

impl Checksum {
    fn new() -> Self {
        Self {
            h: 0x243f_6a88_85a3_08d3,
            pending: [0; 8],
            npending: 0,
            total: 0,
        }
    }

    fn mix(&mut self, w: u64) {
        self.h = (self.h ^ w).wrapping_mul(K_MUL).rotate_left(31);
    }

    fn update(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        while self.npending > 0 && !bytes.is_empty() {
            self.pending[self.npending] = bytes[0];
            self.npending = (self.npending + 1) % 8;
            bytes = &bytes[1..];
            if self.npending == 0 {
                self.mix(u64::from_le_bytes(self.pending));
            }
        }
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut a = [0u8; 8];
            a.copy_from_slice(w);
            self.mix(u64::from_le_bytes(a));
        }
        for &b in words.remainder() {
            self.pending[self.npending] = b;
            self.npending += 1;
        }
    }

    fn finish(&self) -> u64 {
        let mut c = self.clone();
        let mut last = [0u8; 8];
        last[..c.npending].copy_from_slice(&c.pending[..c.npending]);
        c.mix(u64::from_le_bytes(last));
        c.mix(c.total);
        c.h
    }
}

struct Writer<W: Write> {
    inner: W,
    sum: Checksum,
}

impl<W: Write> Writer<W> {
    fn bytes(&mut self, b: &[u8]) -> io::Result<()> {
        self.sum.update(b);
        self.inner.write_all(b)
    }

    fn u64(&mut self, v: u64) -> io::Result<()> {
        self.bytes(&v.to_le_bytes())
    }

    fn words(&mut self, vs: &[u64]) -> io::Result<()> {
        let mut buf = Vec::with_capacity(CHUNK * 8);
        for chunk in vs.chunks(CHUNK) {
            buf.clear();
            for v in chunk {
                buf.extend_from_slice(&v.to_le_bytes());
            }
            self.bytes(&buf)?;
        }
        Ok(())
    }
}

/// Writes `index` to `path` through `path.tmp`, synced, then renamed.
pub(super) fn save(index: &NearIndex, path: &Path) -> Result<(), IndexError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let io_err = |p: &Path| {
        let p = p.to_owned();
        move |source| IndexError::Io { path: p, source }
    };
    let file = File::create(&tmp).map_err(io_err(&tmp))?;
    let mut w = Writer {
        inner: BufWriter::with_capacity(1 << 20, file),
        sum: Checksum::new(),
    };
    write_body(index, &mut w).map_err(io_err(&tmp))?;
    let sum = w.sum.finish();
    w.inner
        .write_all(&sum.to_le_bytes())
        .map_err(io_err(&tmp))?;
    let file = w
        .inner
        .into_inner()
        .map_err(|e| io_err(&tmp)(e.into_error()))?;
    file.sync_all().map_err(io_err(&tmp))?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(io_err(path))
}

fn write_body<W: Write>(index: &NearIndex, w: &mut Writer<W>) -> io::Result<()> {
    w.bytes(&MAGIC)?;
    w.bytes(&VERSION.to_le_bytes())?;
    w.bytes(&index.k.to_le_bytes())?;
    w.u64(index.params.len() as u64)?;
    w.bytes(&index.params)?;
    // Slots no table holds any more are dead; their fingerprint is written as 0.
    let n = index.ids.len();
    let mut fps = vec![0u64; n];
    for (fp, s) in index.all_entries() {
        fps[s] = fp;
    }
    w.u64(n as u64)?;
    w.u64(index.seq)?;
    w.u64(index.live as u64)?;
    w.words(&fps)?;
    drop(fps);
    w.words(&index.ids)?;
    w.words(&index.dead[..n.div_ceil(64)])?;
    let mut later: Vec<_> = index.later.iter().collect();
    later.sort_unstable_by_key(|(s, _)| **s);
    w.u64(later.len() as u64)?;
    for (&slot, ids) in later {
        w.u64(slot as u64)?;
        w.u64(ids.len() as u64)?;
        for l in ids {
            w.u64(l.id)?;
            w.u64(l.key.0)?;
            w.u64(l.key.1)?;
        }
    }
    let mut promoted: Vec<_> = index.promoted.iter().collect();
    promoted.sort_unstable_by_key(|(s, _)| **s);
    w.u64(promoted.len() as u64)?;
    for (&slot, key) in promoted {
        w.u64(slot as u64)?;
        w.u64(key.0)?;
        w.u64(key.1)?;
    }
    Ok(())
}

/// Reader that checksums what it reads and knows how much remains, so that no length read from
/// the file can make it allocate more than the file holds.
struct Reader<R: Read> {
    inner: R,
    sum: Checksum,
    remaining: u64,
    path: PathBuf,
}

impl<R: Read> Reader<R> {
    fn err(&self, e: io::Error) -> IndexError {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            self.truncated()
        } else {
            IndexError::Io {
                path: self.path.clone(),
                source: e,
            }
        }
    }

    fn truncated(&self) -> IndexError {
        IndexError::Truncated {
            path: self.path.clone(),
        }
    }

    fn corrupt(&self, reason: impl Into<String>) -> IndexError {
        IndexError::Corrupt {
            path: self.path.clone(),
            reason: reason.into(),
        }
    }

    /// Fails unless `count` items of `size` bytes can still be in the file.
    fn expect(&self, count: u64, size: u64) -> Result<usize, IndexError> {
        match count.checked_mul(size) {
            Some(bytes) if bytes <= self.remaining => {
                usize::try_from(count).map_err(|_| self.truncated())
            }
            _ => Err(self.truncated()),
        }
    }

    fn fill(&mut self, buf: &mut [u8]) -> Result<(), IndexError> {
        self.inner.read_exact(buf).map_err(|e| self.err(e))?;
        self.remaining = self.remaining.saturating_sub(buf.len() as u64);
        self.sum.update(buf);
        Ok(())
    }

    fn u64(&mut self) -> Result<u64, IndexError> {
        let mut b = [0u8; 8];
        self.fill(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    fn u32(&mut self) -> Result<u32, IndexError> {
        let mut b = [0u8; 4];
        self.fill(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn words(&mut self, n: usize) -> Result<Vec<u64>, IndexError> {
        let mut out = Vec::with_capacity(n);
        let mut buf = vec![0u8; CHUNK * 8];
        while out.len() < n {
            let take = (n - out.len()).min(CHUNK);
            let bytes = &mut buf[..take * 8];
            self.fill(bytes)?;
            out.extend(bytes.chunks_exact(8).map(|w| {
                let mut a = [0u8; 8];
                a.copy_from_slice(w);
                u64::from_le_bytes(a)
            }));
        }
        Ok(out)
    }
}

/// Reads and validates an index file, then rebuilds its tables.
pub(super) fn load(path: &Path) -> Result<NearIndex, IndexError> {
    let io_err = |source| IndexError::Io {
        path: path.to_owned(),
        source,
    };
    let file = File::open(path).map_err(io_err)?;
    let len = file.metadata().map_err(io_err)?.len();
    let mut r = Reader {
        inner: BufReader::with_capacity(1 << 20, file),
        sum: Checksum::new(),
        remaining: len,
        path: path.to_owned(),
    };
    let mut magic = [0u8; 8];
    match r.fill(&mut magic) {
        Ok(()) if magic == MAGIC => {}
        Ok(()) => return Err(IndexError::NotAnIndex { path: path.into() }),
        Err(IndexError::Truncated { .. }) if !MAGIC.starts_with(&magic[..len.min(8) as usize]) => {
            return Err(IndexError::NotAnIndex { path: path.into() });
        }
        Err(e) => return Err(e),
    }
    let version = r.u32()?;
    if version != VERSION {
        return Err(IndexError::UnsupportedVersion {
            path: path.into(),
            found: version,
            supported: VERSION,
        });
    }
    let raw = read_body(&mut r)?;
    let expected = r.sum.finish();
    let mut stored = [0u8; 8];
    r.inner.read_exact(&mut stored).map_err(|e| r.err(e))?;
    if u64::from_le_bytes(stored) != expected {
        return Err(IndexError::Checksum { path: path.into() });
    }
    let mut extra = [0u8; 1];
    match r.inner.read(&mut extra) {
        Ok(0) => {}
        Ok(_) => return Err(r.corrupt("bytes after the checksum")),
        Err(e) => return Err(r.err(e)),
    }
    let (mut index, fps) = validate(raw).map_err(|reason| r.corrupt(reason))?;
    index.rebuild(&fps);
    Ok(index)
}

/// The file's content, checksummed but not yet validated.
struct Raw {
    k: u32,
    params: Vec<u8>,
    seq: u64,
    live: u64,
    fps: Vec<u64>,
    ids: Vec<u64>,
    dead: Vec<u64>,
    later: Vec<(u64, Vec<Later>)>,
    promoted: Vec<(u64, OrderKey)>,
}

fn read_body<R: Read>(r: &mut Reader<R>) -> Result<Raw, IndexError> {
    let k = r.u32()?;
    let plen = r.u64()?;
    let plen = r.expect(plen, 1)?;
    let mut params = vec![0u8; plen];
    r.fill(&mut params)?;
    let n = r.u64()?;
    let seq = r.u64()?;
    let live = r.u64()?;
    let n = r.expect(n, 16)?;
    let fps = r.words(n)?;
    let ids = r.words(n)?;
    let dead = r.words(n.div_ceil(64))?;
    let count = r.u64()?;
    let count = r.expect(count, 24)?;
    let mut later = Vec::with_capacity(count);
    for _ in 0..count {
        let slot = r.u64()?;
        let m = r.u64()?;
        let m = r.expect(m, 24)?;
        let mut ids = Vec::with_capacity(m);
        for _ in 0..m {
            let (id, c, g) = (r.u64()?, r.u64()?, r.u64()?);
            ids.push(Later { id, key: (c, g) });
        }
        later.push((slot, ids));
    }
    let count = r.u64()?;
    let count = r.expect(count, 24)?;
    let mut promoted = Vec::with_capacity(count);
    for _ in 0..count {
        let (slot, c, g) = (r.u64()?, r.u64()?, r.u64()?);
        promoted.push((slot, (c, g)));
    }
    Ok(Raw {
        k,
        params,
        seq,
        live,
        fps,
        ids,
        dead,
        later,
        promoted,
    })
}

/// Checks that `raw` describes a possible index and turns it into one (tables not yet built).
fn validate(raw: Raw) -> Result<(NearIndex, Vec<u64>), String> {
    let Raw {
        k,
        params,
        seq,
        live,
        fps,
        ids,
        dead,
        later,
        promoted,
    } = raw;
    let mut index = NearIndex::with_tuning(k, params, Tuning::default())
        .map_err(|_| format!("k = {k} is not supported"))?;
    let n = fps.len();
    if let Some(&last) = dead.last()
        && n % 64 != 0
        && last >> (n % 64) != 0
    {
        return Err("dead bits set past the last slot".into());
    }
    let dead_count = dead.iter().map(|w| w.count_ones() as usize).sum::<usize>();
    index.ids = ids;
    index.dead = dead;
    index.dead_count = dead_count;
    let valid_key = |(c, g): OrderKey| c <= n as u64 && g >= 1 && g <= seq;
    let mut entries = n - dead_count;
    let mut previous = None;
    for (slot, ids) in later {
        let s = usize::try_from(slot).map_err(|_| "slot out of range".to_owned())?;
        if s >= n || index.slots().is_dead(s) || previous.is_some_and(|p| p >= s) {
            return Err(format!(
                "extra ids on slot {slot}: not a live slot in order"
            ));
        }
        if ids.is_empty() || !ids.iter().all(|l| valid_key(l.key)) {
            return Err(format!("extra ids on slot {slot}: empty or bad order key"));
        }
        previous = Some(s);
        entries += ids.len();
        index.later.insert(s, ids);
    }
    let mut previous = None;
    for (slot, key) in promoted {
        let s = usize::try_from(slot).map_err(|_| "slot out of range".to_owned())?;
        if s >= n || index.slots().is_dead(s) || previous.is_some_and(|p| p >= s) {
            return Err(format!(
                "order key of slot {slot}: not a live slot in order"
            ));
        }
        if !valid_key(key) {
            return Err(format!("order key of slot {slot} is impossible"));
        }
        previous = Some(s);
        index.promoted.insert(s, key);
    }
    if live != entries as u64 || seq < live {
        return Err(format!(
            "counts disagree: {live} entries recorded, {entries} found, {seq} insertions"
        ));
    }
    index.live = entries;
    index.seq = seq;
    Ok((index, fps))
}
