//! The crawl's second signal: content fingerprints, the drop-when policy and the exact index of
//! kept pages' content (ALGORITHM.md §7). Which kept page a page is compared with in each mode
//! is defined on [`DropWhen`].

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use silhouette_simhash::{Fingerprint, Fingerprint128, NearIndex, NearIndex128};

use crate::DedupError;

/// A content fingerprint as the frontier sees it: 64 or 128 bits (fingerprints of different
/// widths are never near).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContentBits {
    /// 64 bits.
    B64(Fingerprint),
    /// 128 bits.
    B128(Fingerprint128),
}

impl ContentBits {
    /// The Hamming distance, or `None` when the widths differ.
    #[must_use]
    pub const fn distance(self, other: Self) -> Option<u32> {
        match (self, other) {
            (Self::B64(a), Self::B64(b)) => Some(a.distance(b)),
            (Self::B128(a), Self::B128(b)) => Some(a.distance(b)),
            _ => None,
        }
    }

    /// Big-endian bytes: 8 or 16 (how the state stores it).
    #[must_use]
    pub fn to_bytes(self) -> Vec<u8> {
        match self {
            Self::B64(f) => f.bits().to_be_bytes().to_vec(),
            Self::B128(f) => f.bits().to_be_bytes().to_vec(),
        }
    }

    /// Back from [`to_bytes`](Self::to_bytes); `None` unless 8 or 16 bytes.
    #[must_use]
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        match bytes.len() {
            8 => <[u8; 8]>::try_from(bytes)
                .ok()
                .map(|b| Self::B64(Fingerprint::new(u64::from_be_bytes(b)))),
            16 => <[u8; 16]>::try_from(bytes)
                .ok()
                .map(|b| Self::B128(Fingerprint128::new(u128::from_be_bytes(b)))),
            _ => None,
        }
    }

    const fn wide(self) -> u128 {
        match self {
            Self::B64(f) => f.bits() as u128,
            Self::B128(f) => f.bits(),
        }
    }
}

impl fmt::Display for ContentBits {
    /// 16 or 32 lower-case hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::B64(fp) => fp.fmt(f),
            Self::B128(fp) => fp.fmt(f),
        }
    }
}

/// What the content signal knows of a page: its content fingerprint and semantic signature
/// (both `None` for a page with too little text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageContent {
    /// The content simhash.
    pub fingerprint: Option<ContentBits>,
    /// The semantic signature (I-Match key): equal signatures are the same content.
    pub signature: Option<u128>,
}

/// Which signal drops a page (`[dedup] drop-when`). Every mode first drops a page
/// byte-identical to a kept page (`exact-duplicate`). Then, with the page's **structure
/// cluster** `S` (the cluster its structure joins, as in `structure` mode: nearest or most
/// similar representative within `threshold`, confirmed by summaries) and its **content
/// matches** `C` (every kept page, in the same dedup scope, whose content fingerprint lies
/// within `content-threshold` bits of the page's or whose signature equals the page's):
///
/// - `structure` (default): dropped as `near-duplicate` when `S` has used its cluster budget.
///   Content plays no part.
/// - `content`: dropped as `content-duplicate` when `C` is not empty. Structure clusters are
///   still formed and recorded, but never drop a page; the budget plays no part.
/// - `structure-or-content`: `near-duplicate` as in `structure`, else `content-duplicate` as
///   in `content`.
/// - `structure-and-content`: dropped as `content-duplicate` when some page of `C` is a kept
///   member of `S` — a kept page near in both. Pages sharing a template but not their text are
///   all kept; the budget plays no part.
///
/// The page a content duplicate names is the nearest such kept page (smallest content
/// distance, then the earliest). Only kept pages are compared with: a dropped page never
/// becomes a representative, and its content is never indexed. A page with no content
/// fingerprint (too little text) is never a content duplicate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum DropWhen {
    /// Structure alone (the design card's behaviour).
    #[default]
    Structure,
    /// Content alone.
    Content,
    /// Near in structure and in content to one kept page.
    StructureAndContent,
    /// Near in structure (budget used) or in content.
    StructureOrContent,
}

impl DropWhen {
    /// The name used in `config.toml`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Structure => "structure",
            Self::Content => "content",
            Self::StructureAndContent => "structure-and-content",
            Self::StructureOrContent => "structure-or-content",
        }
    }

    /// Whether a structure cluster that used its budget drops a page.
    pub(crate) const fn structure_drops(self) -> bool {
        matches!(self, Self::Structure | Self::StructureOrContent)
    }
}

impl fmt::Display for DropWhen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DropWhen {
    type Err = DedupError;
    fn from_str(s: &str) -> Result<Self, DedupError> {
        const ALL: [DropWhen; 4] = [
            DropWhen::Structure,
            DropWhen::Content,
            DropWhen::StructureAndContent,
            DropWhen::StructureOrContent,
        ];
        ALL.into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| DedupError::Name {
                key: "drop-when",
                value: s.to_owned(),
                allowed: &[
                    "structure",
                    "content",
                    "structure-and-content",
                    "structure-or-content",
                ],
            })
    }
}

/// Fingerprints of one width kept in a plain list before they get an index (most hosts
/// keep few pages).
const SMALL: usize = 64;

/// The kept content fingerprints of one scope and one width.
#[derive(Debug)]
enum Fps {
    /// Up to [`SMALL`] `(fingerprint, id)`, scanned in full (and for ever, for a 64-bit
    /// threshold above what [`NearIndex`] supports).
    Small(Vec<(u128, u64)>),
    Large64(Box<NearIndex>),
    Large128(Box<NearIndex128>),
}

impl Fps {
    fn within(&self, fp: ContentBits, k: u32, out: &mut Vec<(u32, u64)>) {
        match (self, fp) {
            (Self::Small(list), _) => out.extend(
                list.iter()
                    .map(|&(f, id)| ((f ^ fp.wide()).count_ones(), id))
                    .filter(|&(d, _)| d <= k),
            ),
            (Self::Large64(index), ContentBits::B64(f)) => {
                out.extend(index.within(f).into_iter().map(|m| (m.distance, m.id)));
            }
            (Self::Large128(index), ContentBits::B128(f)) => {
                out.extend(index.within(f).into_iter().map(|m| (m.distance, m.id)));
            }
            _ => {}
        }
    }

    fn insert(&mut self, fp: ContentBits, id: u64, k: u32) {
        match (&mut *self, fp) {
            (Self::Large64(index), ContentBits::B64(f)) => index.insert(f, id),
            (Self::Large128(index), ContentBits::B128(f)) => index.insert(f, id),
            (Self::Small(list), _) => {
                list.push((fp.wide(), id));
                if list.len() > SMALL
                    && let Some(grown) = Self::grow(list, fp, k)
                {
                    *self = grown;
                }
            }
            _ => {}
        }
    }

    fn grow(list: &[(u128, u64)], fp: ContentBits, k: u32) -> Option<Self> {
        match fp {
            ContentBits::B64(_) => {
                let mut index = NearIndex::with_params(k, "content").ok()?;
                for &(f, id) in list {
                    index.insert(Fingerprint::new(f as u64), id);
                }
                Some(Self::Large64(Box::new(index)))
            }
            ContentBits::B128(_) => {
                let mut index = NearIndex128::new(k).ok()?;
                for &(f, id) in list {
                    index.insert(Fingerprint128::new(f), id);
                }
                Some(Self::Large128(Box::new(index)))
            }
        }
    }
}

/// The kept pages' content of one dedup scope.
#[derive(Debug, Default)]
struct ScopeContent {
    b64: Option<Fps>,
    b128: Option<Fps>,
    signatures: HashMap<u128, Vec<u64>>,
}

/// The content of kept pages, per dedup scope (a host, or `""` for the global scope).
#[derive(Debug, Default)]
pub(crate) struct ContentIndex {
    scopes: HashMap<String, ScopeContent>,
    /// Kept pages' fingerprints, for the distance of a signature match.
    fps: HashMap<u64, ContentBits>,
}

impl ContentIndex {
    /// The kept pages of `scope` near `content` (within `k` bits, or the same signature):
    /// `(content distance, id)`, nearest first, then earliest; each page once.
    pub(crate) fn matches(&self, scope: &str, content: &PageContent, k: u32) -> Vec<(u32, u64)> {
        let (Some(s), Some(fp)) = (self.scopes.get(scope), content.fingerprint) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let fps = match fp {
            ContentBits::B64(_) => &s.b64,
            ContentBits::B128(_) => &s.b128,
        };
        if let Some(fps) = fps {
            fps.within(fp, k, &mut out);
        }
        if let Some(ids) = content.signature.and_then(|sig| s.signatures.get(&sig)) {
            out.extend(ids.iter().filter_map(|id| {
                let d = self.fps.get(id)?.distance(fp)?;
                Some((d, *id))
            }));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Remembers kept page `id`'s content in `scope`.
    pub(crate) fn insert(&mut self, scope: &str, id: u64, content: &PageContent, k: u32) {
        let Some(fp) = content.fingerprint else {
            return;
        };
        let s = self.scopes.entry(scope.to_owned()).or_default();
        let fps = match fp {
            ContentBits::B64(_) => &mut s.b64,
            ContentBits::B128(_) => &mut s.b128,
        };
        fps.get_or_insert_with(|| Fps::Small(Vec::new()))
            .insert(fp, id, k);
        if let Some(sig) = content.signature {
            s.signatures.entry(sig).or_default().push(id);
        }
        self.fps.insert(id, fp);
    }
}

#[cfg(test)]
#[path = "content_tests.rs"]
mod tests;
