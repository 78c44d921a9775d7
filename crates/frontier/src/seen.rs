//! The seen-URL set: 16 bytes of fingerprint per canonical URL.
//!
//! A crawl must remember every URL it has queued, and most of them are
//! never fetched; storing the strings (~80 bytes each plus allocation
//! overhead) would dominate the frontier's memory. [`SeenSet`] stores the
//! 128-bit [`UrlKey`] of each URL instead, in an open-addressing table
//! (std's `HashSet`, SwissTable) whose hasher just takes the key's low 64
//! bits, which are already uniform: 17 bytes a slot, a load between 7/16
//! and 7/8, so 19–39 bytes per URL. `BENCHMARKS.md` has the measured figure.
//!
//! Two different URLs with the same key would make the second one look
//! seen (it would be skipped, never fetched twice). With 128-bit keys the
//! chance of any collision among `n` URLs is about n²/2¹²⁹: 1.5·10⁻²⁷ at
//! a million URLs, 1.5·10⁻²¹ at a billion. (A 64-bit key would halve the
//! memory but give 2.7·10⁻⁸ at a million and 2.7·10⁻² at a billion.)

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use siphasher::sip128::SipHasher13;
use url::Url;

/// Fixed SipHash key, so that keys are the same on every run and machine
/// (a persisted set stays valid).
const SIP_KEY: (u64, u64) = (0x7369_6c68_6f75_6574, 0x7465_2d73_6565_6e31);

/// The 128-bit fingerprint of a URL string: SipHash-1-3 (128-bit output)
/// of its bytes under a fixed key. Stable across runs, machines and
/// versions of this crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct UrlKey(u128);

impl UrlKey {
    /// The key of a URL (give it the canonical one).
    pub fn of(url: &Url) -> Self {
        Self::of_str(url.as_str())
    }

    /// The key of a URL given as text (no parsing, no canonicalisation).
    pub fn of_str(url: &str) -> Self {
        let (k0, k1) = SIP_KEY;
        Self(
            SipHasher13::new_with_keys(k0, k1)
                .hash(url.as_bytes())
                .as_u128(),
        )
    }

    /// A key from its stored value (see [`UrlKey::to_u128`]).
    pub fn from_u128(value: u128) -> Self {
        Self(value)
    }

    /// The key's value, for storing it.
    pub fn to_u128(self) -> u128 {
        self.0
    }
}

impl Hash for UrlKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The low half is as uniform as the whole; the table needs 64 bits.
        state.write_u64(self.0 as u64);
    }
}

/// Hasher for [`UrlKey`]s: passes their (already uniform) 64 bits through.
#[derive(Debug, Default, Clone, Copy)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }

    fn write(&mut self, bytes: &[u8]) {
        // Not used by `UrlKey`; FNV-1a so that any other input still hashes.
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The set of URLs seen so far, as [`UrlKey`]s.
///
/// Insert canonical URLs (see [`canonicalize`](crate::canonicalize)):
/// the set compares exact strings, so two spellings of one page are two
/// entries.
#[derive(Debug, Clone, Default)]
pub struct SeenSet {
    keys: HashSet<UrlKey, BuildHasherDefault<PassThrough>>,
}

impl SeenSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty set with room for `capacity` URLs without growing.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            keys: HashSet::with_capacity_and_hasher(capacity, BuildHasherDefault::default()),
        }
    }

    /// Adds `url`; true if it was not in the set yet.
    pub fn insert(&mut self, url: &Url) -> bool {
        self.insert_key(UrlKey::of(url))
    }

    /// Whether `url` is in the set.
    pub fn contains(&self, url: &Url) -> bool {
        self.contains_key(UrlKey::of(url))
    }

    /// Adds a key; true if it was not in the set yet.
    pub fn insert_key(&mut self, key: UrlKey) -> bool {
        self.keys.insert(key)
    }

    /// Whether the key is in the set.
    pub fn contains_key(&self, key: UrlKey) -> bool {
        self.keys.contains(&key)
    }

    /// Number of URLs in the set.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The keys, in no particular order (for persisting the set).
    pub fn keys(&self) -> impl Iterator<Item = UrlKey> + '_ {
        self.keys.iter().copied()
    }

    /// The heap the set holds, computed from its capacity and std's
    /// SwissTable layout (16-byte slots, one control byte per slot, 16
    /// extra control bytes); checked against a counting allocator by the
    /// `seen_memory` example.
    pub fn heap_bytes(&self) -> usize {
        let capacity = self.keys.capacity();
        if capacity == 0 {
            return 0;
        }
        // Capacity is 7/8 of the slots (slots - 1 for tables under 8 slots).
        let slots = if capacity < 8 {
            capacity + 1
        } else {
            capacity / 7 * 8
        };
        slots * (size_of::<UrlKey>() + 1) + 16
    }
}

impl Extend<UrlKey> for SeenSet {
    fn extend<I: IntoIterator<Item = UrlKey>>(&mut self, keys: I) {
        self.keys.extend(keys);
    }
}

impl FromIterator<UrlKey> for SeenSet {
    fn from_iter<I: IntoIterator<Item = UrlKey>>(keys: I) -> Self {
        let mut set = Self::new();
        set.extend(keys);
        set
    }
}

#[cfg(test)]
#[path = "seen_tests.rs"]
mod tests;
