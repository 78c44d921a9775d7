//! [`NearIndex128`]: the exact near-duplicate index over 128-bit fingerprints (content
//! fingerprints, ALGORITHM.md §7).
//!
//! Multi-index hashing (Norouzi, Punjani and Fleet, "Fast Exact Search in Hamming Space with
//! Multi-Index Hashing", 2014): the 128 bits are cut into `m` substrings and `k = m·q + a`
//! (`0 <= a < m`); the first `a + 1` substrings are probed at radius `q`, the others at
//! `q - 1`. Two fingerprints within `k` bits cannot differ in more bits than that on every
//! substring (it would take `(a + 1)(q + 1) + (m - a - 1)q = k + 1` bits), so some probe finds
//! every stored fingerprint within `k`, and each candidate's full distance is then checked —
//! no false negatives, no false positives.
//!
//! `m` is chosen per `k` by a cost model at a design point of 2^20 entries (see [`plan`]):
//! a probe costs one random read (its bucket), plus one per entry past the bucket's inline
//! slots, plus a tenth per entry whose tag is compared. The best substring is about
//! log2(entries) bits wide: `k = 3` gets 4 substrings of 32 bits at radius 0 (4 probes),
//! `k = 6` 7 of 18–19 bits at radius 0, `k = 8` 7 of 18–19 bits, 2 of them at radius 1 (43
//! probes, each one cache line of ~4 entries, where the session-4 layout of 8 substrings of 16
//! bits made 56 probes of ~15 entries each, most of them in overflow lists).
//!
//! From `k = 9` ([`HALVES_FROM`]) the index is instead two 64-bit [`NearIndex`]es, one per
//! half, searched at `⌊k/2⌋` (two fingerprints within `k` are within `⌊k/2⌋` on one half at
//! least), each candidate checked on the full 128 bits: measured faster there, on clustered
//! fingerprints most, and smaller (BENCHMARKS.md).
//!
//! A table hashes its substring into `2^b` buckets (about [`LOAD`] entries each, at most
//! `2^width`). A bucket is one 64-byte cache line: [`INLINE`] entries of a 32-bit tag (the 32 bits
//! of the fingerprint after the substring) and a position, its length and the head of an
//! overflow chain. A probe reads one bucket and compares tags, which rejects almost every
//! entry of another key or too far (a tag more than `k` bits away is); only the rest read
//! their full fingerprint. Growing a table (doubling its buckets) stores every entry again,
//! amortised O(1) per insert. A query first reads the lengths of all the buckets it probes in
//! a tight loop (independent cache misses, many in flight at once), then scans them.

use crate::{Fingerprint, Fingerprint128, IndexError, Match, NearIndex};

/// The largest `k` the 128-bit index supports.
pub const MAX_K128: u32 = 16;

/// From this `k` on, the index is two 64-bit [`NearIndex`]es over the halves at `⌊k/2⌋`
/// (measured: at `k = 10` as fast as the tables on uniform fingerprints and 1.75× on
/// clustered ones, in 60% of the memory; at `k = 6` the tables are 1.7× to 10× faster).
const HALVES_FROM: u32 = 9;

/// No entry (the end of an overflow chain).
const EMPTY: u32 = u32::MAX;

/// Entries the layout is designed for (2^20): [`plan`]'s cost model assumes this many.
const DESIGN_LOG2: u32 = 20;

/// Never more than `2^MAX_BITS` buckets per table.
const MAX_BITS: u32 = 28;

/// Entries stored in a bucket itself; more go to the table's overflow chains.
const INLINE: usize = 7;

/// Entries per bucket the tables grow to keep on average (at most).
const LOAD: usize = 4;

/// One bucket: up to [`INLINE`] entries, each a 32-bit tag (other bits of the fingerprint: a
/// first, necessary distance check) and a position, plus its overflow chain. 64 bytes, aligned:
/// one probe reads one cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Bucket {
    tags: [u32; INLINE],
    at: [u32; INLINE],
    /// Entries in the bucket, inline and overflow.
    len: u32,
    /// The newest overflow entry ([`EMPTY`] when none).
    more: u32,
}

const EMPTY_BUCKET: Bucket = Bucket {
    tags: [0; INLINE],
    at: [EMPTY; INLINE],
    len: 0,
    more: EMPTY,
};

/// An entry past a full bucket's inline slots: tag, position, the next (older) one.
#[derive(Clone, Copy, Debug)]
struct Spill {
    tag: u32,
    at: u32,
    next: u32,
}

/// One substring's table.
#[derive(Clone, Debug)]
struct Table {
    shift: u32,
    width: u32,
    /// Bits that may differ in this substring for a probe to find an entry.
    radius: u32,
    /// `2^bits` buckets.
    bits: u32,
    buckets: Vec<Bucket>,
    spill: Vec<Spill>,
}

impl Table {
    /// The substring of `fp` this table keys on.
    fn key(&self, fp: u128) -> u128 {
        if self.width >= 128 {
            fp
        } else {
            (fp >> self.shift) & ((1u128 << self.width) - 1)
        }
    }

    /// The 32 bits after the substring (wrapping round): an entry whose tag differs from the
    /// query's in more than `k` bits is more than `k` away.
    fn tag(&self, fp: u128) -> u32 {
        fp.rotate_right((self.shift + self.width) % 128) as u32
    }

    fn bucket(&self, key: u128) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        let mixed = folded.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        if self.bits == 0 {
            0
        } else {
            (mixed >> (64 - self.bits)) as usize
        }
    }

    /// Stores position `at` (fingerprint `fp`) in its bucket.
    fn link(&mut self, fp: u128, at: u32) {
        let (tag, index) = (self.tag(fp), self.bucket(self.key(fp)));
        let more = u32::try_from(self.spill.len()).unwrap_or(EMPTY);
        let b = &mut self.buckets[index];
        let i = b.len as usize;
        if i < INLINE {
            b.tags[i] = tag;
            b.at[i] = at;
        } else {
            let next = b.more;
            b.more = more;
            self.spill.push(Spill { tag, at, next });
        }
        b.len += 1;
    }

    /// Doubles the buckets until they hold at most [`LOAD`] entries each on average (or the
    /// cap), storing `fps` again.
    fn grow(&mut self, fps: &[u128]) {
        let cap = self.width.min(MAX_BITS);
        while self.bits < cap && LOAD << self.bits < fps.len() {
            self.bits += 1;
        }
        self.buckets = vec![EMPTY_BUCKET; 1 << self.bits];
        self.spill.clear();
        for (at, &fp) in fps.iter().enumerate() {
            self.link(fp, at as u32);
        }
    }

    /// Calls `f` with the position of every entry of bucket `b` whose tag is within `k` bits
    /// of `tag`.
    fn candidates(&self, b: usize, tag: u32, k: u32, f: &mut impl FnMut(u32)) {
        let bucket = &self.buckets[b];
        let inline = (bucket.len as usize).min(INLINE);
        for i in 0..inline {
            if (bucket.tags[i] ^ tag).count_ones() <= k {
                f(bucket.at[i]);
            }
        }
        let mut s = bucket.more;
        while let Some(e) = self.spill.get(s as usize) {
            if (e.tag ^ tag).count_ones() <= k {
                f(e.at);
            }
            s = e.next;
        }
    }
}

/// Calls `f` with `key` and every value within `radius` bits of it in its low `width` bits
/// (each once), flipping bits from `from` up.
fn each_within(key: u128, width: u32, radius: u32, from: u32, f: &mut impl FnMut(u128)) {
    f(key);
    if radius > 0 {
        for bit in from..width {
            each_within(key ^ (1u128 << bit), width, radius - 1, bit + 1, f);
        }
    }
}

/// Values within `r` bits of a `w`-bit key: `Σ_{j<=r} C(w, j)`, as a float (a cost estimate).
fn ball(w: u32, r: u32) -> f64 {
    let mut c = 1.0;
    let mut total = 1.0;
    for j in 1..=r {
        c = c * f64::from(w + 1 - j) / f64::from(j);
        total += c;
    }
    total
}

/// The layout for `k`: `(width, radius)` per substring, widest first, widths summing to 128.
///
/// For every `m` in `1..=k + 1`, substrings of near-equal widths and Norouzi's radii
/// (`k = m·q + a`: `a + 1` substrings at `q`, the rest at `q - 1`); the `m` of least estimated
/// cost at 2^20 entries wins (the smallest `m` among equals): probes + 2 × candidates, where a
/// probe's bucket holds `2^20 / 2^min(width, 20)` entries.
#[must_use]
fn plan(k: u32) -> Vec<(u32, u32)> {
    let layout = |m: u32| -> Vec<(u32, u32)> {
        let (q, a) = (k / m, k % m);
        (0..m)
            .map(|i| {
                (
                    128 / m + u32::from(i < 128 % m),
                    if i <= a { q } else { q - 1 },
                )
            })
            .collect()
    };
    let cost = |parts: &[(u32, u32)]| -> f64 {
        parts
            .iter()
            .map(|&(w, r)| {
                let probes = ball(w, r);
                let same_key = f64::from(DESIGN_LOG2.saturating_sub(w)).exp2();
                let spilled = (same_key - INLINE as f64).max(0.0);
                probes * (1.0 + spilled + 0.1 * same_key.max(LOAD as f64))
            })
            .sum()
    };
    let mut best = layout(1);
    for m in 2..=k + 1 {
        let parts = layout(m);
        if cost(&parts) < cost(&best) {
            best = parts;
        }
    }
    best
}

/// An exact index answering "which stored 128-bit fingerprints lie within `k` bits of this
/// one?", for any `k` in `0..=16` (a distance of exactly `k` counts).
///
/// Matches come nearest first, the earliest inserted first among equal distances, as
/// [`NearIndex`]'s. Identical fingerprints may be stored under many ids.
/// Memory: 16 bytes of fingerprint and 8 of id per entry, plus per substring table 64 bytes
/// per bucket (about one bucket per 2 to 4 entries) and 12 per overflow entry;
/// [`memory_bytes`](Self::memory_bytes) tells (BENCHMARKS.md has the figures at 1M entries).
///
/// ```
/// use silhouette_simhash::{Fingerprint128, Match, NearIndex128};
///
/// let mut index = NearIndex128::new(10)?;
/// let a = Fingerprint128::new(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210);
/// assert_eq!(index.insert_if_new(a, 1), Ok(()));
/// let b = Fingerprint128::new(a.bits() ^ 0b11_1111_1111); // 10 bits away
/// assert_eq!(index.insert_if_new(b, 2), Err(Match { id: 1, distance: 10 }));
/// let c = Fingerprint128::new(a.bits() ^ 0b111_1111_1111); // 11 bits away
/// assert_eq!(index.nearest(c), None);
/// # Ok::<(), silhouette_simhash::IndexError>(())
/// ```
#[derive(Clone, Debug)]
pub struct NearIndex128 {
    k: u32,
    tables: Vec<Table>,
    /// From [`HALVES_FROM`]: the low and high halves, each at `⌊k/2⌋`, ids = positions.
    halves: Option<Box<[NearIndex; 2]>>,
    fps: Vec<u128>,
    ids: Vec<u64>,
}

impl NearIndex128 {
    /// An empty index for distances up to `k`.
    ///
    /// # Errors
    /// [`IndexError::UnsupportedK`] for `k` above [`MAX_K128`].
    pub fn new(k: u32) -> Result<Self, IndexError> {
        if k > MAX_K128 {
            return Err(IndexError::UnsupportedK { k, max: MAX_K128 });
        }
        if k >= HALVES_FROM {
            let half = || NearIndex::with_params(k / 2, "index128-half");
            return Ok(Self {
                k,
                tables: Vec::new(),
                halves: Some(Box::new([half()?, half()?])),
                fps: Vec::new(),
                ids: Vec::new(),
            });
        }
        let mut shift = 0;
        let tables = plan(k)
            .into_iter()
            .map(|(width, radius)| {
                let t = Table {
                    shift,
                    width,
                    radius,
                    bits: 0,
                    buckets: vec![EMPTY_BUCKET],
                    spill: Vec::new(),
                };
                shift += width;
                t
            })
            .collect();
        Ok(Self {
            k,
            tables,
            halves: None,
            fps: Vec::new(),
            ids: Vec::new(),
        })
    }

    /// The largest distance that counts as near.
    #[must_use]
    pub const fn k(&self) -> u32 {
        self.k
    }

    /// The layout: `(width, radius)` of each substring searched, in bit order from bit 0
    /// (from `k = 9`, the two 64-bit halves at `⌊k/2⌋`).
    #[must_use]
    pub fn layout(&self) -> Vec<(u32, u32)> {
        if self.halves.is_some() {
            return vec![(64, self.k / 2); 2];
        }
        self.tables.iter().map(|t| (t.width, t.radius)).collect()
    }

    /// Entries stored.
    #[must_use]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether nothing is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Heap bytes in use (buckets, overflow entries, fingerprints, ids; capacities counted).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let tables: usize = self
            .tables
            .iter()
            .map(|t| {
                t.buckets.capacity() * size_of::<Bucket>() + t.spill.capacity() * size_of::<Spill>()
            })
            .sum();
        let halves = self
            .halves
            .as_ref()
            .map_or(0, |h| h[0].memory_bytes() + h[1].memory_bytes());
        tables
            + halves
            + self.fps.capacity() * size_of::<u128>()
            + self.ids.capacity() * size_of::<u64>()
    }

    /// Stores `fp` under `id`. (Positions are `u32`: past 4,294,967,294 entries further
    /// inserts are not stored.)
    pub fn insert(&mut self, fp: Fingerprint128, id: u64) {
        let Ok(at) = u32::try_from(self.ids.len()) else {
            return;
        };
        if at == EMPTY {
            return;
        }
        let bits = fp.bits();
        self.ids.push(id);
        self.fps.push(bits);
        let n = self.fps.len();
        if let Some(h) = &mut self.halves {
            h[0].insert(Fingerprint::new(bits as u64), u64::from(at));
            h[1].insert(Fingerprint::new((bits >> 64) as u64), u64::from(at));
        }
        for t in &mut self.tables {
            if n > LOAD << t.bits && t.bits < t.width.min(MAX_BITS) {
                t.grow(&self.fps);
            } else {
                t.link(bits, at);
            }
        }
    }

    /// Calls `f(distance, position)` for every stored fingerprint within `k` of `q` (some
    /// more than once: once per probe that finds them).
    fn scan(&self, q: u128, mut f: impl FnMut(u32, u32)) {
        if let Some(h) = &self.halves {
            // Within k in all, within ⌊k/2⌋ on one half at least.
            let lo = h[0].within(Fingerprint::new(q as u64));
            let hi = h[1].within(Fingerprint::new((q >> 64) as u64));
            for m in lo.iter().chain(&hi) {
                let at = m.id as u32;
                let d = (self.fps[at as usize] ^ q).count_ones();
                if d <= self.k {
                    f(d, at);
                }
            }
            return;
        }
        let mut probes: Vec<(usize, usize)> = Vec::new();
        for (i, t) in self.tables.iter().enumerate() {
            each_within(t.key(q), t.width, t.radius, 0, &mut |key| {
                probes.push((i, t.bucket(key)));
            });
        }
        // First read every probed bucket's length in a tight loop, so that the processor has
        // many of these independent cache misses in flight at once; the scan below then finds
        // the buckets in cache.
        let stored: u32 = probes
            .iter()
            .map(|&(i, b)| self.tables[i].buckets[b].len)
            .sum();
        if stored == 0 {
            return;
        }
        let tags: Vec<u32> = self.tables.iter().map(|t| t.tag(q)).collect();
        for &(i, b) in &probes {
            self.tables[i].candidates(b, tags[i], self.k, &mut |at| {
                let d = (self.fps[at as usize] ^ q).count_ones();
                if d <= self.k {
                    f(d, at);
                }
            });
        }
    }

    /// Every stored fingerprint within `k` bits of `fp`: nearest first, the earliest inserted
    /// first among equal distances.
    #[must_use]
    pub fn within(&self, fp: Fingerprint128) -> Vec<Match> {
        let mut found: Vec<(u32, u32)> = Vec::new();
        self.scan(fp.bits(), |d, at| found.push((d, at)));
        found.sort_unstable();
        found.dedup();
        found
            .into_iter()
            .map(|(distance, at)| Match {
                id: self.ids[at as usize],
                distance,
            })
            .collect()
    }

    /// The nearest stored fingerprint within `k` (the earliest inserted among equals).
    #[must_use]
    pub fn nearest(&self, fp: Fingerprint128) -> Option<Match> {
        let mut best: Option<(u32, u32)> = None;
        self.scan(fp.bits(), |d, at| {
            if best.is_none_or(|b| (d, at) < b) {
                best = Some((d, at));
            }
        });
        best.map(|(distance, at)| Match {
            id: self.ids[at as usize],
            distance,
        })
    }

    /// Whether any stored fingerprint lies within `k` of `fp`.
    #[must_use]
    pub fn any_within(&self, fp: Fingerprint128) -> bool {
        self.nearest(fp).is_some()
    }

    /// Stores `fp` under `id` unless a stored fingerprint lies within `k`; then that one
    /// (the nearest, the earliest among equals) is returned and nothing is stored.
    ///
    /// # Errors
    /// The nearest match, when there is one.
    pub fn insert_if_new(&mut self, fp: Fingerprint128, id: u64) -> Result<(), Match> {
        if let Some(m) = self.nearest(fp) {
            return Err(m);
        }
        self.insert(fp, id);
        Ok(())
    }
}

/// A 64-bit fingerprint as the low half of a 128-bit one (same distances).
impl From<Fingerprint> for Fingerprint128 {
    fn from(fp: Fingerprint) -> Self {
        Self::new(u128::from(fp.bits()))
    }
}

#[cfg(test)]
#[path = "index128_tests.rs"]
mod tests;
