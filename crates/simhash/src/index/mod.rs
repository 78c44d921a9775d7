//! The exact near-duplicate index (ALGORITHM.md §5): multi-index hashing over substrings of the
//! fingerprint, an exact-match layer in front, a mutable delta merged into immutable segments,
//! ring indexes for oversized cells. The design and its arithmetic are documented on
//! [`NearIndex`].

use std::collections::HashMap;
use std::path::Path;

use crate::Fingerprint;

mod delta;
mod error;
mod layout;
mod persist;
mod search;
mod segment;
mod shared;
#[cfg(test)]
mod tests;

pub use error::IndexError;
pub use shared::SharedNearIndex;

use delta::Delta;
use layout::Layout;
pub use layout::MAX_K;
use search::{AllSink, AnySink, NearestSink, OrderKey};
use segment::Segment;

/// Knobs of the index's internal structure; tests shrink them to exercise every path.
#[derive(Clone, Debug)]
pub(crate) struct Tuning {
    /// The delta holds at most `1 << delta_bits` slots; also its widest directory.
    pub delta_bits: u32,
    /// The delta is flushed early once one of its chains is longer than this.
    pub chain_limit: u32,
    /// A flushed delta joins the only segment while that is at most `join` times the delta.
    pub join: usize,
    /// The two newest segments merge while the older is at most `fanout` times the newer.
    pub fanout: usize,
    /// Cells with more slots than this get a ring index...
    pub heavy_min: usize,
    /// ... and than this many times the segment's average cell.
    pub heavy_factor: usize,
    /// A segment of `n` slots has directories of `⌊log2 n⌋ - dir_slack` bits (4 to 8 per cell).
    pub dir_slack: u32,
    /// Upper bound on directory bits.
    pub dir_cap: u32,
}

impl Default for Tuning {
    fn default() -> Self {
        Self {
            delta_bits: 17,
            chain_limit: 64,
            join: 128,
            fanout: 8,
            heavy_min: 48,
            heavy_factor: 8,
            dir_slack: 2,
            dir_cap: 28,
        }
    }
}

/// An id added to a slot after the one that created it (an identical fingerprint seen again).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Later {
    pub id: u64,
    pub key: OrderKey,
}

/// Why [`NearIndex::insert_if_new`] refused a fingerprint: the nearest stored one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("within {distance} bits of id {id}")]
pub struct Match {
    /// The id stored with the nearest fingerprint (the earliest inserted among equals).
    pub id: u64,
    /// Its Hamming distance to the query, `0..=k`.
    pub distance: u32,
}

/// Counters describing the index's internal state (for benchmarks and monitoring).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct IndexStats {
    /// Live `(fingerprint, id)` entries, as [`NearIndex::len`].
    pub ids: usize,
    /// Distinct live fingerprints.
    pub distinct: usize,
    /// Slots allocated, including dead ones (fingerprints whose ids were all removed).
    pub slots: usize,
    /// Immutable segments.
    pub segments: usize,
    /// Slots in the mutable delta.
    pub delta: usize,
    /// Oversized cells carrying a ring index, over all segments and tables.
    pub heavy_cells: usize,
    /// As [`NearIndex::memory_bytes`].
    pub memory_bytes: usize,
}

/// An exact index answering "is any stored fingerprint within `k` bits of this one?".
///
/// Exact means no false negatives and no false positives: a stored fingerprint at distance
/// exactly `k` matches, one at `k + 1` does not. `k` is fixed at construction, `0..=8`.
/// Identical fingerprints may be stored under many ids; each id is one entry.
///
/// ```
/// use silhouette_simhash::{Fingerprint, Match, NearIndex};
///
/// let mut index = NearIndex::with_params(5, "classic/fnv1/decay=0.45")?;
/// let page = Fingerprint::new(0x8c3a_5f7e_9ecb_3f35);
/// assert_eq!(index.insert_if_new(page, 1), Ok(()));
/// // Five bits away: a near-duplicate of page 1.
/// let similar = Fingerprint::new(page.bits() ^ 0b1_1111);
/// assert_eq!(index.insert_if_new(similar, 2), Err(Match { id: 1, distance: 5 }));
/// assert!(!index.any_within(Fingerprint::new(page.bits() ^ 0b11_1111)));
/// assert_eq!(index.len(), 1);
/// # Ok::<(), silhouette_simhash::IndexError>(())
/// ```
///
/// # Choosing `k`
///
/// `k` is the largest Hamming distance still called a duplicate. For 64-bit structure
/// fingerprints the design notes use `k = 5` (about 8% of the bits). Smaller `k` is cheaper and
/// stricter: `k <= 2` only probes exact substrings (3 cells per query) and suits "same template,
/// trivially different page"; `k = 3..=5` probe each substring at radius 1 (45 to 67 cells) and is
/// the useful range for templated sites; `k = 6..=8` need radius 2 on some substrings (277 to 718
/// cells, so 4 to 11 times the work of `k = 5`) and start to merge pages that merely share a
/// site frame. Measure on your own pages before raising `k`.
///
/// # Design
///
/// **Multi-index hashing.** The 64 bits are split into substrings, each keying one table, and
/// each table is probed at a radius `r_i` around the query's substring. If every substring
/// differed in more than `r_i` bits the fingerprints would differ in at least `Σ (r_i + 1)` bits,
/// so with `Σ (r_i + 1) >= k + 1` every pair within `k` shares some substring up to `r_i` bits:
/// the probes miss nothing. For `k = 5`: three substrings of 21, 21 and 22 bits at radius 1,
/// i.e. `(1 + 21) + (1 + 21) + (1 + 22) = 67` probed keys. Other `k`: 64 bits at radius 0
/// (`k = 0`); 32/32 at 0/0 (`k = 1`) and 1/1 (`k = 3`); 21/21/22 at 0/0/0 (`k = 2`), 1/1/0
/// (`k = 4`), 2/1/1, 2/2/1, 2/2/2 (`k = 6, 7, 8`). Fewer, wider substrings need radius 2 or 3
/// (hundreds to thousands of probes); more, narrower ones make every probed cell N/2^16 long:
/// three substrings is the optimum for `N` between about 2^20 and 2^27 (`m ≈ 64 / log2 N`).
///
/// **Tables.** Each table is a directory of `u32` offsets by cell plus its entries grouped by
/// cell; a cell is the top `d` bits of the substring, `d = ⌊log2 N⌋ - 2` capped at the
/// substring width, so a cell holds 4 to 8 entries and the directory costs at most 1 byte per
/// entry. Bit flips below the directory's resolution land in the same cell, so at `N = 10M`
/// (`d = 21`) a `k = 5` query reads 66 cells and about `66 × 10M / 2^21 ≈ 315` entries. No entry
/// costs a memory access of its own: the primary table (substring 0) stores each fingerprint in
/// full with its slot number, so its candidates are verified in place; the two others store 32
/// bits of the fingerprint (substring 0 and 11 bits of the third substring) instead of a slot,
/// which with the cell's bits bound the distance from below. The rare entry within `k` on those
/// 53 bits is resolved by scanning its primary cell (found from the stored substring 0), once per
/// query, and not at all when the primary probes cover that cell anyway. Probes are batched:
/// for each table, the directory ranges of all its probed cells in one tight loop of loads, then
/// the first and last entries of every cell, then the scans, so the cache misses of a query
/// overlap; a scan first checks, without a branch per entry, whether any entry of the cell may
/// be within the bound (almost never), and only then looks at each. The misses are what a
/// query costs: on the VM measured, independent random loads over a large array complete one
/// every ~17 ns, dependent ones one every ~290 ns (a TLB miss and a cache miss each, at 4 KB
/// pages), and a `k = 5` query at 10M touches about 80 pages (counted from the layout:
/// directory entries share a page for flips of their low 10 bits, cells for their low 7).
///
/// **Bytes per fingerprint.** Id 8 + primary entry 12 (fingerprint + slot) + two stored-bit
/// entries 8 + directories (`3 × 4 × 2^d / N`, 2.4 at 10M; a coarse copy of every 64th entry,
/// 0.04) + dead bit 0.125 + the delta (at most about 6 MB, 0.6 at 10M) ≈ 31.2 bytes (31.3 to
/// 31.4 measured at 10M); the id array grows by 1/16 so spare capacity stays small. While a
/// segment is rebuilt about `40 × n` more bytes are held for the `n` entries being merged (at
/// worst all of them); while `n` newer entries are merged cell by cell into an older segment,
/// about `50 × n`. Duplicate fingerprints share one slot; each extra id costs about 24 bytes in
/// a side map.
///
/// **Exact-match layer.** Insertion looks the fingerprint up exactly first (the query's cell of
/// every primary table, located together, or one ring of an oversized cell, binary-searched; the
/// entry where a small coarse directory, every 64th cell, predicts the cell starts is loaded
/// with the directory entry, so the two cache misses overlap; then the delta), so
/// identical fingerprints share one slot and one entry per table, whatever the number of pages
/// carrying them; extra ids go to a side list. Queries scan the query's own primary cell first,
/// and a distance-0 hit ends [`nearest`](Self::nearest) at once.
///
/// **Online inserts.** New slots go into a delta indexed by chained hash directories (O(1) per
/// insert, at most 131,072 slots); its directories start at 2^8 cells and double as it fills, so
/// an empty index holds under 8 KB. Each table of the delta also keeps a bitmap of its occupied
/// cells at 16 times its directory's resolution (16 times more cells than entries, so at most
/// 1 in 16 is set): a query probes the bitmaps and walks only the chains of occupied cells, and
/// an absent fingerprint's exact lookup usually stops at one bit. A flushed delta joins the
/// only segment while that segment is at most `128` times the delta (for full flushes, up to
/// about 16.8M entries); otherwise it becomes a younger segment, which later deltas join and
/// which joins the big one once it reaches 1/8 of it. So up to about 16.8M uniform
/// fingerprints a live index is one segment and the delta (what makes its queries nearly as
/// fast as a compacted one's: a second segment, even one of 65,536 entries, costs a query about
/// a quarter of what the big one does, since each probed cell is a cache miss wherever it lies);
/// past that, or with skewed input (whose deltas are flushed early, small, when a chain grows
/// long), two segments and the delta. A merge goes
/// cell by cell, in place: the older segment's arrays grow and its cells, already grouped, move
/// up in one backward pass (one `memmove` between consecutive new entries), each followed by
/// its new entries; only the newer entries are sorted by cell (radix sort, two linear passes);
/// the directory is shifted in one pass; a ring-indexed cell that received entries keeps
/// its pivot and merges the new members (sorted) into its rings; a cell that grew past the
/// threshold gets its rings built; the other rings move with their cells. So each flush moves
/// the whole segment once (about 20 bytes per entry, sequential): an insert pays about
/// `n / 131,072` entry moves for a segment of `n` (at most 128, 2.5 KB of `memmove`; about 38
/// on average over a build to 10M). Only when the merged segment needs finer directories (its
/// size passed a power of two, up to 2^23 for `k = 5`; the other tables' stored bits do not
/// hold the next cell bit) or when it holds dead slots is it rebuilt by counting sort. Merges run
/// inside the insert that triggers them: rare pauses proportional to the segments merged.
///
/// **Skew.** Real fingerprints cluster: many pages differ from a template by a few bits, so a
/// few cells grow huge. A cell of more than 48 entries gets a ring index: its members sorted by
/// distance to the cell's majority fingerprint (over the bits the table stores), then by value.
/// By the triangle inequality a query at distance `dq` from that pivot only needs rings
/// `dq - k ..= dq + k`; they are scanned outward from `dq`, and as [`nearest`](Self::nearest)
/// finds closer matches its bound shrinks and stops the scan early. A query far from a cluster
/// skips it; an exact lookup binary-searches one ring. The delta is flushed early when one of its
/// chains passes 64 entries, so no chain grows long. Queries *inside* a dense cluster still see
/// many members within `k`: [`any_within`](Self::any_within) stops at the first, `nearest` must
/// look further and is the slow case on skewed data (see BENCHMARKS.md).
///
/// **Ties.** [`nearest`](Self::nearest) returns, among the stored entries at the smallest
/// distance, the one inserted first (removals included), so decisions are reproducible; a saved
/// and reloaded index answers identically.
///
/// **Removal.** [`remove`](Self::remove) scans the id array (`O(N)`, tens of milliseconds at
/// 10M): it is meant for rare corrections, not the hot path. A fingerprint whose ids are all
/// removed leaves a dead slot of 8 bytes (its id) plus a dead bit; its table entries go at the
/// next merge of its segment.
///
/// **Threads.** Queries take `&self` and never allocate or lock, so any number of threads can
/// query one index (it is `Send + Sync`); mutations take `&mut self` and are serialised. For a
/// crawler, [`SharedNearIndex`] wraps it in a `RwLock`: concurrent queries, one writer at a
/// time, `insert_if_new` atomic.
///
/// **Measured** (BENCHMARKS.md, one core of a shared 2-core VM, `k = 5`, uniform
/// fingerprints): at 10M, on a live index (inserts then queries: one segment and the delta),
/// 31.4 bytes per fingerprint, 1.09M to 1.28M inserts/s, 256,000 to 323,000 `any_within`
/// hits/s and 184,000 to 221,000 misses/s with the other core busy (was 53,000 to 86,000 with
/// a second segment of up to 1/8 of the big one); on a quiet machine 1.74M to 1.79M inserts/s,
/// 385,000 to 403,000 hits/s and 272,000 to 286,000 misses/s; 262,000 to 315,000 misses/s
/// after [`load`](Self::load); at 1M, 2.1M
/// inserts/s and 257,000 to 532,000 queries/s; at 100M (two segments and the delta), 28.9 bytes
/// per fingerprint, 947,000 inserts/s and 46,000 to 81,000 queries/s. The figures vary by ±30%
/// with the load of the machine.
///
/// **Cost as `N` grows.** Entries read per query are about `cells × N / 2^d`: a few hundred and
/// roughly constant while `d` can still grow (up to `N ≈ 2^23`, 8M, for 21-bit substrings); past
/// that the cells fill up and the entries read grow linearly (`≈ 3.1e-5 × N` at `k = 5`: ~315
/// at 10M, ~3,100 at 100M), so queries slow down several times from 10M to 100M while memory
/// stays about 30 bytes per fingerprint. Up to about 16.8M fingerprints a live index probes one
/// segment and the delta, past that two segments and the delta; each segment costs about two
/// cache misses per probed cell. Inserts cost O(1) (two overlapping cache misses for the exact
/// lookup) plus merges moving about `n / 131,072` entries per insert into a segment of `n` (at
/// most 128), in sequential passes; past 16.8M, the delta joins the younger segment instead
/// (about `|younger| / 131,072` moves per insert, the younger averaging `N / 16`) and each entry
/// moves about 9 more times as younger segments join the big one. For
/// billions of fingerprints, shard by site (near duplicates almost always share a site) and
/// keep one index per shard.
#[derive(Debug, Clone)]
pub struct NearIndex {
    k: u32,
    layout: Layout,
    tuning: Tuning,
    params: Vec<u8>,
    /// Earliest live id of each slot; a slot is one distinct fingerprint, numbered by
    /// creation. The fingerprints themselves live in the segments' primary tables and the delta.
    ids: Vec<u64>,
    /// Bitset of slots without live ids.
    dead: Vec<u64>,
    dead_count: usize,
    segments: Vec<Segment>,
    delta: Delta,
    /// Further ids of a slot, in insertion order.
    later: HashMap<usize, Vec<Later>>,
    /// Order keys of slots whose earliest live id is not the one that created them.
    promoted: HashMap<usize, OrderKey>,
    /// Insertions so far.
    seq: u64,
    /// Live entries.
    live: usize,
}

impl NearIndex {
    /// An empty index matching fingerprints within `k` bits, with no parameter string.
    ///
    /// # Errors
    /// [`IndexError::UnsupportedK`] when `k > 8`.
    pub fn new(k: u32) -> Result<Self, IndexError> {
        Self::with_params(k, Vec::new())
    }

    /// An empty index for `k` that records `params`, an opaque description of how its
    /// fingerprints were made (e.g. `"classic/fnv1/decay=0.45"`), saved with it and checked by
    /// [`load_expecting`](Self::load_expecting).
    ///
    /// # Errors
    /// [`IndexError::UnsupportedK`] when `k > 8`.
    pub fn with_params(k: u32, params: impl Into<Vec<u8>>) -> Result<Self, IndexError> {
        Self::with_tuning(k, params.into(), Tuning::default())
    }

    pub(crate) fn with_tuning(k: u32, params: Vec<u8>, tuning: Tuning) -> Result<Self, IndexError> {
        let layout = Layout::for_k(k).ok_or(IndexError::UnsupportedK { k, max: MAX_K })?;
        let delta = Delta::new(&layout, tuning.delta_bits, 0);
        Ok(Self {
            k,
            layout,
            tuning,
            params,
            ids: Vec::new(),
            dead: Vec::new(),
            dead_count: 0,
            segments: Vec::new(),
            delta,
            later: HashMap::new(),
            promoted: HashMap::new(),
            seq: 0,
            live: 0,
        })
    }

    /// The maximum distance that counts as near.
    #[must_use]
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The parameter string recorded at construction (or read from the file).
    #[must_use]
    pub fn params(&self) -> &[u8] {
        &self.params
    }

    /// Number of live `(fingerprint, id)` entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether no entry is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Bytes of heap memory held (capacities, not lengths).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let later: usize = self.later.values().map(|v| v.capacity()).sum();
        (self.ids.capacity() + self.dead.capacity()) * 8
            + self
                .segments
                .iter()
                .map(Segment::memory_bytes)
                .sum::<usize>()
            + self.segments.capacity() * size_of::<Segment>()
            + self.delta.memory_bytes()
            + self.later.capacity() * (size_of::<(usize, Vec<Later>)>() + 1)
            + later * size_of::<Later>()
            + self.promoted.capacity() * (size_of::<(usize, OrderKey)>() + 1)
            + self.params.capacity()
    }

    /// Counters describing the internal structure.
    #[must_use]
    pub fn stats(&self) -> IndexStats {
        IndexStats {
            ids: self.live,
            distinct: self.ids.len() - self.dead_count,
            slots: self.ids.len(),
            segments: self.segments.len(),
            delta: self.delta.len(),
            heavy_cells: self.segments.iter().map(Segment::heavy_cells).sum(),
            memory_bytes: self.memory_bytes(),
        }
    }

    /// Whether any stored fingerprint lies within `k` bits of `fp`; stops at the first found.
    #[must_use]
    pub fn any_within(&self, fp: Fingerprint) -> bool {
        let mut sink = AnySink {
            k: self.k,
            found: None,
        };
        self.search(fp.bits(), &mut sink);
        sink.found.is_some()
    }

    /// The stored entry nearest to `fp` within `k` bits, as `(id, distance)`; among equal
    /// distances, the entry inserted first.
    #[must_use]
    ///
    /// Two passes: an [`any_within`](Self::any_within) search (which alone answers a miss), then,
    /// from the first match's distance `d`, a search for anything within `d`. Inside a dense
    /// cluster of near-identical fingerprints the second pass, bounded by `d` rather than `k`,
    /// reads far fewer rings.
    pub fn nearest(&self, fp: Fingerprint) -> Option<(u64, u32)> {
        let mut first = AnySink {
            k: self.k,
            found: None,
        };
        self.search(fp.bits(), &mut first);
        let (slot, d) = first.found?;
        if d == 0 {
            // Fingerprints are unique per slot: nothing else is at distance 0.
            return Some((self.ids[slot], 0));
        }
        let mut sink = NearestSink {
            k: d,
            best: Some((d, search::order_key(&self.promoted, slot), slot)),
            promoted: &self.promoted,
        };
        self.search(fp.bits(), &mut sink);
        sink.best.map(|(d, _, s)| (self.ids[s], d))
    }

    /// Every stored id within `k` bits of `fp`, nearest first, in insertion order among equal
    /// distances: what a caller that confirms near matches by other means (the crawl's
    /// structure summaries) goes through.
    #[must_use]
    pub fn within(&self, fp: Fingerprint) -> Vec<Match> {
        let mut sink = AllSink {
            k: self.k,
            found: Vec::new(),
        };
        self.search(fp.bits(), &mut sink);
        sink.found.sort_unstable();
        sink.found.dedup();
        let mut out: Vec<(u32, OrderKey, u64)> = Vec::with_capacity(sink.found.len());
        for &(distance, slot) in &sink.found {
            out.push((
                distance,
                search::order_key(&self.promoted, slot),
                self.ids[slot],
            ));
            if let Some(later) = self.later.get(&slot) {
                out.extend(later.iter().map(|l| (distance, l.key, l.id)));
            }
        }
        out.sort_unstable();
        out.into_iter()
            .map(|(distance, _, id)| Match { id, distance })
            .collect()
    }

    /// The earliest inserted live id stored with exactly `fp`.
    #[must_use]
    pub fn exact(&self, fp: Fingerprint) -> Option<u64> {
        self.find_slot(fp.bits())
            .filter(|&s| !self.slots().is_dead(s))
            .map(|s| self.ids[s])
    }

    /// Stores `fp` under `id`, whether or not a near fingerprint is already stored.
    pub fn insert(&mut self, fp: Fingerprint, id: u64) {
        let fp = fp.bits();
        let key = (self.ids.len() as u64, self.seq + 1);
        self.seq += 1;
        self.live += 1;
        match self.find_slot(fp) {
            Some(s) if !self.slots().is_dead(s) => {
                self.later.entry(s).or_default().push(Later { id, key });
            }
            Some(s) => {
                self.set_dead(s, false);
                self.ids[s] = id;
                self.promoted.insert(s, key);
            }
            None => self.push_slot(fp, id),
        }
    }

    /// What the frontier calls for every page: if a stored fingerprint lies within `k` bits of
    /// `fp`, returns the nearest as [`Match`] (as [`nearest`](Self::nearest) would) and stores
    /// nothing; otherwise stores `fp` under `id`.
    ///
    /// # Errors
    /// [`Match`] when `fp` is a near-duplicate; the index is then unchanged.
    pub fn insert_if_new(&mut self, fp: Fingerprint, id: u64) -> Result<(), Match> {
        if let Some((id, distance)) = self.nearest(fp) {
            return Err(Match { id, distance });
        }
        if self.dead_count == 0 {
            // Nothing within k, so no slot holds `fp` (a dead one could): skip the lookup.
            self.seq += 1;
            self.live += 1;
            self.push_slot(fp.bits(), id);
        } else {
            self.insert(fp, id);
        }
        Ok(())
    }

    /// Removes every entry stored under `id` and returns how many there were. Scans all ids:
    /// `O(N)`.
    pub fn remove(&mut self, id: u64) -> usize {
        let mut removed = 0;
        self.later.retain(|_, ids| {
            let before = ids.len();
            ids.retain(|l| l.id != id);
            removed += before - ids.len();
            !ids.is_empty()
        });
        for s in 0..self.ids.len() {
            if self.ids[s] != id || self.slots().is_dead(s) {
                continue;
            }
            removed += 1;
            match self.later.get_mut(&s) {
                Some(rest) if !rest.is_empty() => {
                    let next = rest.remove(0);
                    if rest.is_empty() {
                        self.later.remove(&s);
                    }
                    self.ids[s] = next.id;
                    self.promoted.insert(s, next.key);
                }
                _ => {
                    self.later.remove(&s);
                    self.promoted.remove(&s);
                    self.set_dead(s, true);
                }
            }
        }
        self.live -= removed;
        removed
    }

    /// Merges the delta and every segment into one segment, in `O(N)` (about 2 s at 10M
    /// fingerprints, holding about 40 extra bytes per fingerprint meanwhile).
    ///
    /// A live index probes its delta and one segment (two past about 16.8M fingerprints);
    /// right after `compact` (or [`load`](Self::load)) it probes one segment and an empty delta.
    /// Up to 16.8M that saves little (the delta's probes are cheap; see BENCHMARKS.md); past it,
    /// the younger segment's probes. Call it when the crawl is idle or between batches; inserts
    /// then start a new delta.
    pub fn compact(&mut self) {
        let mut fps = vec![0u64; self.ids.len()];
        for (fp, s) in self.all_entries() {
            fps[s] = fp;
        }
        self.rebuild(&fps);
    }

    /// Writes the index to `path` (via a temporary file renamed into place).
    ///
    /// # Errors
    /// [`IndexError::Io`] naming the path.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), IndexError> {
        persist::save(self, path.as_ref())
    }

    /// Reads an index saved by [`save`](Self::save). A truncated or corrupt file is an error.
    ///
    /// # Errors
    /// [`IndexError::Io`], [`NotAnIndex`](IndexError::NotAnIndex),
    /// [`UnsupportedVersion`](IndexError::UnsupportedVersion),
    /// [`Truncated`](IndexError::Truncated), [`Checksum`](IndexError::Checksum),
    /// [`Corrupt`](IndexError::Corrupt).
    pub fn load(path: impl AsRef<Path>) -> Result<Self, IndexError> {
        persist::load(path.as_ref())
    }

    /// As [`load`](Self::load), and also refuses a file built for another `k` or with other
    /// fingerprint parameters.
    ///
    /// # Errors
    /// As [`load`](Self::load), plus [`KMismatch`](IndexError::KMismatch) and
    /// [`ParamsMismatch`](IndexError::ParamsMismatch).
    pub fn load_expecting(
        path: impl AsRef<Path>,
        k: u32,
        params: impl AsRef<[u8]>,
    ) -> Result<Self, IndexError> {
        let path = path.as_ref();
        let index = persist::load(path)?;
        if index.k != k {
            return Err(IndexError::KMismatch {
                path: path.to_owned(),
                expected: k,
                found: index.k,
            });
        }
        if index.params != params.as_ref() {
            return Err(IndexError::ParamsMismatch {
                path: path.to_owned(),
                expected: String::from_utf8_lossy(params.as_ref()).into_owned(),
                found: String::from_utf8_lossy(&index.params).into_owned(),
            });
        }
        Ok(index)
    }

    fn set_dead(&mut self, s: usize, dead: bool) {
        let (word, bit) = (s >> 6, 1u64 << (s & 63));
        if let Some(w) = self.dead.get_mut(word)
            && (*w & bit != 0) != dead
        {
            *w ^= bit;
            if dead {
                self.dead_count += 1;
            } else {
                self.dead_count -= 1;
            }
        }
    }

    /// Appends a new slot and indexes it in the delta.
    fn push_slot(&mut self, fp: u64, id: u64) {
        let n = self.ids.len();
        if n == self.ids.capacity() {
            self.ids.reserve_exact((n / 16).max(1024));
        }
        self.ids.push(id);
        if self.dead.len() * 64 <= n {
            if self.dead.len() == self.dead.capacity() {
                self.dead.reserve_exact((self.dead.len() / 16).max(64));
            }
            self.dead.push(0);
        }
        self.delta.push(fp);
        if self.delta.len() >= 1 << self.tuning.delta_bits
            || self.delta.longest() > self.tuning.chain_limit
        {
            self.flush();
        }
    }

    /// The live `(fingerprint, slot)` pairs of `entries`.
    fn live(&self, entries: impl Iterator<Item = (u64, usize)>) -> Vec<(u64, usize)> {
        let slots = self.slots();
        entries.filter(|&(_, s)| !slots.is_dead(s)).collect()
    }

    /// Empties the delta into the segments, keeping at most two of them (a big one and a
    /// younger one at most `1 / fanout` of its size) whenever slot spans allow: the delta joins
    /// the only segment while that is at most `join` times the delta, else it joins the
    /// younger segment (or becomes it), and the younger joins the big one once it reaches
    /// `1 / fanout` of it. Merges go cell by cell ([`Segment::absorb`]) unless directories must
    /// grow.
    fn flush(&mut self) {
        let (lo, hi) = (self.delta.lo(), self.ids.len());
        let fresh = self.live(self.delta.entries());
        self.delta.clear(hi);
        if !fresh.is_empty() {
            let join = self.tuning.join;
            // Whether the delta joins the newest segment rather than becoming one.
            let join = match self.segments.as_slice() {
                [] => false,
                [.., b] if hi - b.lo() > u32::MAX as usize => false,
                [_, _, ..] => true,
                [b] => b.len() <= join * fresh.len(),
            };
            let newest = if join { self.segments.pop() } else { None };
            match newest {
                Some(older) => {
                    let merged = self.merge_into(older, &fresh, hi);
                    self.segments.push(merged);
                }
                None => {
                    let seg = Segment::build(&fresh, lo, hi, &self.layout, &self.tuning);
                    self.segments.push(seg);
                }
            }
        }
        while let [.., a, b] = self.segments.as_slice() {
            if b.len() == 0 {
                self.segments.pop();
                continue;
            }
            let span = b.hi() - a.lo();
            if a.len() > self.tuning.fanout * b.len() || span > u32::MAX as usize {
                break;
            }
            let (younger, hi) = (self.live(b.entries()), b.hi());
            self.segments.pop();
            if let Some(older) = self.segments.pop() {
                let merged = self.merge_into(older, &younger, hi);
                self.segments.push(merged);
            }
        }
    }

    /// `older` with the live `(fingerprint, slot)` pairs `newer` of the slots up to `hi` added:
    /// cell by cell when `older` has no dead slot and keeps its directories, else rebuilt.
    fn merge_into(&self, mut older: Segment, newer: &[(u64, usize)], hi: usize) -> Segment {
        let has_dead = self.any_dead(older.lo(), older.hi());
        if older.absorb(newer, hi, has_dead, &self.layout, &self.tuning) {
            return older;
        }
        let lo = older.lo();
        let mut entries = self.live(older.entries());
        drop(older);
        entries.extend_from_slice(newer);
        Segment::build(&entries, lo, hi, &self.layout, &self.tuning)
    }

    /// Whether any slot of `lo..hi` is dead.
    fn any_dead(&self, lo: usize, hi: usize) -> bool {
        if self.dead_count == 0 || lo >= hi {
            return false;
        }
        let slots = self.slots();
        (lo..hi).any(|s| slots.is_dead(s))
    }

    /// Every indexed `(fingerprint, slot)` pair, live or dead.
    pub(crate) fn all_entries(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        self.segments
            .iter()
            .flat_map(Segment::entries)
            .chain(self.delta.entries())
    }

    /// Rebuilds all segments from `fps` (one per slot; after loading), in spans a `u32` holds.
    fn rebuild(&mut self, fps: &[u64]) {
        self.segments.clear();
        let n = fps.len();
        let mut lo = 0;
        while lo < n {
            let hi = n.min(lo + (1 << 31));
            let entries = self.live(fps[lo..hi].iter().copied().zip(lo..hi));
            let seg = Segment::build(&entries, lo, hi, &self.layout, &self.tuning);
            self.segments.push(seg);
            lo = hi;
        }
        self.delta = Delta::new(&self.layout, self.tuning.delta_bits, n);
    }
}
