//! [`Profile`]: a page's structure without the decay, and its compact binary form.

use silhouette_simhash::{Fingerprint, Simhash, fnv1_64};

use crate::paths::PathSet;

/// One feature of a [`Profile`]: its key and how many times it occurs at each depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileEntry {
    /// The feature key (for `classic`, a lower-case tag name).
    pub key: Box<str>,
    /// `(depth, count)` pairs, by increasing depth; counts are never 0.
    pub counts: Vec<(u32, u32)>,
}

/// A page's structure without the decay, enough to recompute the fingerprint at any decay
/// without the page (how `silhouette replay` tunes the decay offline): for the tag models,
/// every feature's number of occurrences at each depth; for `class-paths`, the page's
/// [`PathSet`], which also confirms near matches ([`similarity`](Self::similarity)).
/// A few hundred bytes to a few KB per page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    entries: Vec<ProfileEntry>,
    paths: Option<PathSet>,
}

impl Profile {
    /// Builds a profile from entries in any order: entries with the same key are merged,
    /// counts sorted by depth, counts at one depth added, zero counts dropped.
    #[must_use]
    pub fn from_entries(mut entries: Vec<ProfileEntry>) -> Self {
        entries.sort_by(|a, b| a.key.cmp(&b.key));
        let mut merged: Vec<ProfileEntry> = Vec::with_capacity(entries.len());
        for entry in entries {
            match merged.last_mut() {
                Some(last) if last.key == entry.key => last.counts.extend(entry.counts),
                _ => merged.push(entry),
            }
        }
        for entry in &mut merged {
            entry.counts.sort_unstable();
            let mut counts: Vec<(u32, u32)> = Vec::with_capacity(entry.counts.len());
            for &(depth, count) in &entry.counts {
                match counts.last_mut() {
                    Some(last) if last.0 == depth => last.1 = last.1.saturating_add(count),
                    _ => counts.push((depth, count)),
                }
            }
            counts.retain(|&(_, c)| c > 0);
            entry.counts = counts;
        }
        merged.retain(|e| !e.counts.is_empty());
        Self {
            entries: merged,
            paths: None,
        }
    }

    /// The profile of a `class-paths` page.
    #[must_use]
    pub const fn from_paths(paths: PathSet) -> Self {
        Self {
            entries: Vec::new(),
            paths: Some(paths),
        }
    }

    /// The page's paths, for a `class-paths` profile.
    #[must_use]
    pub const fn paths(&self) -> Option<&PathSet> {
        self.paths.as_ref()
    }

    /// How alike two `class-paths` pages are: the Jaccard similarity of their path sets, in
    /// [0, 1]. `None` unless both profiles are `class-paths` ones with the same seed.
    #[must_use]
    pub fn similarity(&self, other: &Self) -> Option<f64> {
        match (&self.paths, &other.paths) {
            (Some(a), Some(b)) if a.seed() == b.seed() => Some(a.jaccard(b)),
            _ => None,
        }
    }

    /// The features, in byte order of their keys.
    #[must_use]
    pub fn entries(&self) -> &[ProfileEntry] {
        &self.entries
    }

    /// The fingerprint at another `decay`, from the counts alone.
    ///
    /// Each feature weighs `Σ count·decay^depth`, summed by depth rather than in document
    /// order, so a bit whose total is within rounding error of 0 may differ from a fresh
    /// parse; on real pages totals sit far from 0 (see ALGORITHM.md §2 and the eval-dev
    /// margins) and the result is the same.
    #[must_use]
    pub fn fingerprint(&self, decay: f64) -> Fingerprint {
        if let Some(paths) = &self.paths {
            return paths.fingerprint(decay);
        }
        let mut powers = vec![1.0f64];
        let mut acc = Simhash::new();
        for entry in &self.entries {
            let mut weight = 0.0;
            for &(depth, count) in &entry.counts {
                while powers.len() <= depth as usize {
                    let last = powers[powers.len() - 1];
                    powers.push(last * decay);
                }
                weight += f64::from(count) * powers[depth as usize];
            }
            acc.add(fnv1_64(entry.key.as_bytes()), weight);
        }
        acc.finish()
    }
}

/// Version byte of [`Profile::to_bytes`] for the tag models.
const FORMAT_VERSION: u8 = 1;

/// Version byte of [`Profile::to_bytes`] for `class-paths`.
const PATHS_VERSION: u8 = 2;

/// Version byte of [`Profile::to_bytes`] for `class-paths` with an article's blocks marked:
/// [`PATHS_VERSION`]'s form, then how many paths are an article's blocks and the index of
/// each as the gap from the previous one.
const ARTICLE_VERSION: u8 = 3;

/// A byte string that is not a [`Profile`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProfileError {
    /// The first byte names a format this version does not read.
    #[error(
        "profile format version {found} is not supported (this build reads versions {FORMAT_VERSION}, {PATHS_VERSION} and {ARTICLE_VERSION})"
    )]
    Version {
        /// The version byte found.
        found: u8,
    },
    /// The bytes end early, or hold a value out of range, at this offset.
    #[error("corrupt profile at byte {offset}")]
    Corrupt {
        /// Where decoding failed.
        offset: usize,
    },
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn corrupt(&self) -> ProfileError {
        ProfileError::Corrupt { offset: self.at }
    }

    fn varint(&mut self) -> Result<u64, ProfileError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.bytes.get(self.at).ok_or_else(|| self.corrupt())?;
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.corrupt())
    }

    fn u32(&mut self) -> Result<u32, ProfileError> {
        let v = self.varint()?;
        u32::try_from(v).map_err(|_| self.corrupt())
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], ProfileError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| self.corrupt())?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
}

impl Profile {
    /// A compact binary form (varints; typically a few hundred bytes), for crawl state.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        if let Some(paths) = &self.paths {
            // Version, seed, count, then each id as the gap from the previous one, and its depth;
            // then, where some paths are an article's blocks, their indices.
            let article = paths.article_blocks();
            let mut out = Vec::with_capacity(8 + paths.len() * 5 + article.len() * 2);
            out.push(if article.is_empty() {
                PATHS_VERSION
            } else {
                ARTICLE_VERSION
            });
            put_varint(&mut out, u64::from(paths.seed()));
            put_varint(&mut out, paths.len() as u64);
            let mut prev = 0u32;
            for (id, depth) in paths.stored() {
                put_varint(&mut out, u64::from(id - prev));
                out.push(depth);
                prev = id;
            }
            if !article.is_empty() {
                put_varint(&mut out, article.len() as u64);
                let mut prev = 0usize;
                for (at, (id, _)) in paths.stored().enumerate() {
                    if article.binary_search(&id).is_ok() {
                        put_varint(&mut out, (at - prev) as u64);
                        prev = at;
                    }
                }
            }
            return out;
        }
        let mut out = Vec::with_capacity(16 + self.entries.len() * 12);
        out.push(FORMAT_VERSION);
        put_varint(&mut out, self.entries.len() as u64);
        for e in &self.entries {
            put_varint(&mut out, e.key.len() as u64);
            out.extend_from_slice(e.key.as_bytes());
            put_varint(&mut out, e.counts.len() as u64);
            let mut prev = 0;
            for &(depth, count) in &e.counts {
                put_varint(&mut out, u64::from(depth - prev));
                put_varint(&mut out, u64::from(count));
                prev = depth;
            }
        }
        out
    }

    /// Reads [`to_bytes`](Self::to_bytes)' form back.
    ///
    /// # Errors
    /// An unknown version, or bytes that are truncated or inconsistent (keys out of order,
    /// depths not increasing, zero counts, invalid UTF-8, trailing bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ProfileError> {
        let mut r = Reader { bytes, at: 0 };
        let version = *bytes.first().ok_or(ProfileError::Corrupt { offset: 0 })?;
        r.at = 1;
        if version == PATHS_VERSION || version == ARTICLE_VERSION {
            return Self::paths_from(r, version == ARTICLE_VERSION);
        }
        if version != FORMAT_VERSION {
            return Err(ProfileError::Version { found: version });
        }
        let n = r.varint()?;
        // Each entry takes at least 3 bytes: a length cannot promise more entries than bytes.
        if n > bytes.len() as u64 {
            return Err(r.corrupt());
        }
        let mut entries: Vec<ProfileEntry> = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let len = usize::try_from(r.varint()?).map_err(|_| r.corrupt())?;
            let at = r.at;
            let key = std::str::from_utf8(r.take(len)?)
                .map_err(|_| ProfileError::Corrupt { offset: at })?;
            if entries.last().is_some_and(|last| *last.key >= *key) {
                return Err(r.corrupt());
            }
            let pairs = r.varint()?;
            if pairs > bytes.len() as u64 {
                return Err(r.corrupt());
            }
            let mut counts = Vec::with_capacity(pairs as usize);
            let mut depth = 0u32;
            for i in 0..pairs {
                let delta = r.u32()?;
                if i > 0 && delta == 0 {
                    return Err(r.corrupt());
                }
                depth = depth.checked_add(delta).ok_or_else(|| r.corrupt())?;
                let count = r.u32()?;
                if count == 0 {
                    return Err(r.corrupt());
                }
                counts.push((depth, count));
            }
            entries.push(ProfileEntry {
                key: key.into(),
                counts,
            });
        }
        if r.at != bytes.len() {
            return Err(r.corrupt());
        }
        Ok(Self {
            entries,
            paths: None,
        })
    }

    fn paths_from(mut r: Reader<'_>, marked: bool) -> Result<Self, ProfileError> {
        let seed = r.u32()?;
        let n = r.varint()?;
        // Each path takes at least 2 bytes.
        if n > r.bytes.len() as u64 {
            return Err(r.corrupt());
        }
        let mut paths = Vec::with_capacity(n as usize);
        let mut id = 0u32;
        for i in 0..n {
            let gap = r.u32()?;
            if i > 0 && gap == 0 {
                return Err(r.corrupt());
            }
            id = id.checked_add(gap).ok_or_else(|| r.corrupt())?;
            let depth = r.take(1)?[0];
            paths.push((id, depth));
        }
        let mut article = Vec::new();
        if marked {
            let k = r.varint()?;
            if k == 0 || k > paths.len() as u64 {
                return Err(r.corrupt());
            }
            let mut at = 0usize;
            for i in 0..k {
                let gap = usize::try_from(r.varint()?).map_err(|_| r.corrupt())?;
                if i > 0 && gap == 0 {
                    return Err(r.corrupt());
                }
                at = at.checked_add(gap).ok_or_else(|| r.corrupt())?;
                article.push(paths.get(at).ok_or_else(|| r.corrupt())?.0);
            }
        }
        if r.at != r.bytes.len() {
            return Err(r.corrupt());
        }
        Ok(Self::from_paths(
            PathSet::from_paths(seed, paths).with_article_blocks(article),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FeatureSet, HasherConfig, StructureHasher};

    fn profile(html: &str) -> Profile {
        StructureHasher::classic()
            .hash(html.as_bytes())
            .expect("parses")
            .profile
    }

    #[test]
    fn counts_per_depth() {
        let p = profile("<div><div><p>a</p></div><p>b</p></div>");
        let shown: Vec<(&str, &[(u32, u32)])> = p
            .entries()
            .iter()
            .map(|e| (&*e.key, &e.counts[..]))
            .collect();
        assert_eq!(
            shown,
            [
                ("body", &[(2, 1)][..]),
                ("div", &[(3, 1), (4, 1)][..]),
                ("head", &[(2, 1)][..]),
                ("html", &[(1, 1)][..]),
                ("p", &[(4, 1), (5, 1)][..]),
            ]
        );
    }

    #[test]
    fn round_trip_and_size() {
        let page = format!(
            "<!doctype html><title>t</title>{}",
            "<div class=x><p>a<b>b</b></p></div>".repeat(50)
        );
        let p = profile(&page);
        let bytes = p.to_bytes();
        assert!(bytes.len() < 64, "{} bytes", bytes.len());
        assert_eq!(Profile::from_bytes(&bytes), Ok(p.clone()));
        assert_eq!(
            Profile::from_bytes(&Profile::default().to_bytes()),
            Ok(Profile::default())
        );
        for decay in [0.2, 0.45, 0.8, 1.0] {
            let hasher = StructureHasher::new(HasherConfig {
                decay,
                ..HasherConfig::for_model(FeatureSet::Classic)
            })
            .expect("valid");
            assert_eq!(
                p.fingerprint(decay),
                hasher.hash(page.as_bytes()).expect("parses").fingerprint
            );
        }
    }

    #[test]
    fn entries_are_normalised() {
        let e = |key: &str, counts: &[(u32, u32)]| ProfileEntry {
            key: key.into(),
            counts: counts.to_vec(),
        };
        let p = Profile::from_entries(vec![
            e("p", &[(5, 1), (2, 0), (3, 2)]),
            e("a", &[(1, 1)]),
            e("p", &[(3, 1)]),
            e("z", &[(4, 0)]),
        ]);
        assert_eq!(p.entries(), [e("a", &[(1, 1)]), e("p", &[(3, 3), (5, 1)])]);
        assert_eq!(Profile::from_bytes(&p.to_bytes()), Ok(p));
    }

    #[test]
    fn corrupt_bytes_are_errors_never_panics() {
        let bytes = profile("<table><tr><td>x<td>y</table><svg><clipPath/></svg>").to_bytes();
        // Every truncation is an error.
        for len in 0..bytes.len() {
            assert!(
                Profile::from_bytes(&bytes[..len]).is_err(),
                "truncated at {len}"
            );
        }
        // Every single-byte change is an error or another valid profile, never a panic.
        for i in 0..bytes.len() {
            for v in [0u8, 1, 0x7f, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] = v;
                let _ = Profile::from_bytes(&b);
            }
        }
        assert_eq!(
            Profile::from_bytes(&[9]),
            Err(ProfileError::Version { found: 9 })
        );
        let mut trailing = bytes.clone();
        trailing.push(0);
        assert!(Profile::from_bytes(&trailing).is_err());
    }
}
