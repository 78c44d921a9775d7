//! The session-4 `NearIndex128` (commit 7c7d0d1), kept verbatim as the bench's baseline:
//! 8 substrings of 16 bits from k = 8, hashed buckets of 4 inline entries plus overflow lists.
//! Only `new`, `insert`, `nearest` and `memory_bytes` are used.
#![allow(
    dead_code,
    clippy::all,
    clippy::pedantic,
    reason = "a verbatim baseline for the bench"
)]

use silhouette_simhash::{Fingerprint128, IndexError, Match};

/// The largest `k` the 128-bit index supports.
pub const MAX_K128: u32 = 16;

/// One substring's table.
#[derive(Clone, Debug)]
struct Table {
    shift: u32,
    width: u32,
    /// 1: the query's substring and its one-bit neighbours are probed.
    radius: u32,
    /// Whether entries hold the high half (the substring lies in the low half) or the low.
    high: bool,
    /// Buckets in use: `2^bits`.
    bits: u32,
    /// [`SLOTS`] entries per bucket, inline (one cache line); unused slots hold [`EMPTY`].
    slots: Vec<(u64, u32)>,
    /// Entries past a full bucket's slots, per bucket (empty until a bucket overflows).
    overflow: Vec<Vec<(u64, u32)>>,
}

/// Entries stored inline per bucket: 4 × 16 bytes, one cache line.
const SLOTS: usize = 4;
/// The position of an unused slot.
const EMPTY: u32 = u32::MAX;

impl Table {
    /// The substring of `fp` this table keys on.
    fn key(&self, fp: u128) -> u128 {
        if self.width >= 128 {
            fp
        } else {
            (fp >> self.shift) & ((1u128 << self.width) - 1)
        }
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

    fn half(&self, fp: u128) -> u64 {
        if self.high {
            (fp >> 64) as u64
        } else {
            fp as u64
        }
    }

    /// Calls `f` with the entries of bucket `b` (inline slots, then any overflow).
    fn entries(&self, b: usize, f: &mut impl FnMut(&[(u64, u32)])) {
        let inline = &self.slots[b * SLOTS..(b + 1) * SLOTS];
        let used = inline.iter().position(|e| e.1 == EMPTY).unwrap_or(SLOTS);
        f(&inline[..used]);
        if used == SLOTS && !self.overflow.is_empty() {
            f(&self.overflow[b]);
        }
    }

    /// Calls `f` with the entries of each bucket to probe for `fp`.
    fn probes(&self, fp: u128, mut f: impl FnMut(&[(u64, u32)])) {
        let key = self.key(fp);
        self.entries(self.bucket(key), &mut f);
        if self.radius == 1 {
            for bit in 0..self.width {
                self.entries(self.bucket(key ^ (1u128 << bit)), &mut f);
            }
        }
    }

    /// Stores an entry in bucket `b`.
    fn push(&mut self, b: usize, entry: (u64, u32)) {
        let inline = &mut self.slots[b * SLOTS..(b + 1) * SLOTS];
        if let Some(free) = inline.iter_mut().find(|e| e.1 == EMPTY) {
            *free = entry;
            return;
        }
        if self.overflow.is_empty() {
            self.overflow = vec![Vec::new(); 1 << self.bits];
        }
        self.overflow[b].push(entry);
    }
}

/// An exact index answering "which stored 128-bit fingerprints lie within `k` bits of this
/// one?", for any `k` in `0..=16` (a distance of exactly `k` counts).
///
/// Matches come nearest first, the earliest inserted first among equal distances, as
/// [`NearIndex`](crate::NearIndex)'s. Identical fingerprints may be stored under many ids.
///
#[derive(Clone, Debug)]
pub struct OldIndex128 {
    k: u32,
    tables: Vec<Table>,
    fps: Vec<u128>,
    ids: Vec<u64>,
}

impl OldIndex128 {
    /// An empty index for distances up to `k`.
    ///
    /// # Errors
    /// [`IndexError::UnsupportedK`] for `k` above [`MAX_K128`].
    pub fn new(k: u32) -> Result<Self, IndexError> {
        if k > MAX_K128 {
            return Err(IndexError::UnsupportedK { k, max: MAX_K128 });
        }
        let m = (k + 1).min(8).max((k + 2) / 2);
        let wide = k + 1 - m; // tables probed at radius 1
        let mut shift = 0;
        let tables = (0..m)
            .map(|i| {
                let width = 128 / m + u32::from(i < 128 % m);
                let t = Table {
                    shift,
                    width,
                    radius: u32::from(i < wide),
                    high: shift + width <= 64,
                    bits: 0,
                    slots: vec![(0, EMPTY); SLOTS],
                    overflow: Vec::new(),
                };
                shift += width;
                t
            })
            .collect();
        Ok(Self {
            k,
            tables,
            fps: Vec::new(),
            ids: Vec::new(),
        })
    }

    /// The largest distance that counts as near.
    #[must_use]
    pub const fn k(&self) -> u32 {
        self.k
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

    /// Heap bytes in use, roughly (bucket entries and headers, fingerprints, ids).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let tables: usize = self
            .tables
            .iter()
            .map(|t| {
                t.slots.capacity() * size_of::<(u64, u32)>()
                    + t.overflow.capacity() * size_of::<Vec<(u64, u32)>>()
                    + t.overflow
                        .iter()
                        .map(|b| b.capacity() * size_of::<(u64, u32)>())
                        .sum::<usize>()
            })
            .sum();
        tables + self.fps.capacity() * 16 + self.ids.capacity() * 8
    }

    /// Stores `fp` under `id`. (Positions are `u32`: an index holds at most 4 billion entries.)
    pub fn insert(&mut self, fp: Fingerprint128, id: u64) {
        let at = u32::try_from(self.ids.len()).unwrap_or(u32::MAX);
        let bits = fp.bits();
        self.ids.push(id);
        self.fps.push(bits);
        let n = self.ids.len();
        for t in &mut self.tables {
            // About 2 entries per bucket on random fingerprints (few overflow their slots);
            // never more buckets than keys.
            if n > 2 << t.bits && t.bits < t.width.min(26) {
                grow(t, &self.fps);
            }
            let (b, half) = (t.bucket(t.key(bits)), t.half(bits));
            t.push(b, (half, at));
        }
    }

    /// Calls `f(distance, position)` for every stored fingerprint within `k` of `q` (some
    /// more than once: once per probe that finds them).
    fn scan(&self, q: u128, mut f: impl FnMut(u32, u32)) {
        for t in &self.tables {
            let half = t.half(q);
            t.probes(q, |bucket| {
                for &(other, at) in bucket {
                    if (other ^ half).count_ones() <= self.k {
                        let d = (self.fps[at as usize] ^ q).count_ones();
                        if d <= self.k {
                            f(d, at);
                        }
                    }
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

/// Doubles a table's buckets (one more bit), redistributing its entries in order.
fn grow(t: &mut Table, fps: &[u128]) {
    t.bits += 1;
    let slots = std::mem::replace(&mut t.slots, vec![(0, EMPTY); SLOTS << t.bits]);
    let overflow = std::mem::take(&mut t.overflow);
    let old = slots
        .chunks(SLOTS)
        .enumerate()
        .flat_map(|(b, inline)| {
            let more = overflow.get(b).map_or(&[][..], Vec::as_slice);
            inline.iter().chain(more)
        })
        .filter(|e| e.1 != EMPTY);
    for &(other, at) in old {
        let b = t.bucket(t.key(fps[at as usize]));
        t.push(b, (other, at));
    }
}
