//! The dedup settings ([`DedupConfig`]) and what a setting that cannot be used says
//! ([`DedupError`]); the decisions themselves are `dedup.rs`'s.

use std::fmt;
use std::str::FromStr;

use silhouette_simhash::MAX_K128;

use crate::DropWhen;

/// Which pages a page is compared with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum DedupScope {
    /// Every page kept so far, on any host.
    Global,
    /// The pages kept so far on the same host (the default: two sites' pages never merge).
    #[default]
    Host,
}

impl DedupScope {
    /// The scope a page on `host` is judged in: its host, or `""` in global scope.
    #[must_use]
    pub const fn of(self, host: &str) -> &str {
        match self {
            Self::Global => "",
            Self::Host => host,
        }
    }
}

/// What happens to a duplicate page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OnDuplicate {
    /// Not emitted, links not followed.
    #[default]
    Drop,
    /// Not emitted, links followed (every page is fetched, as other crawlers do).
    FollowLinks,
    /// Emitted with its decision, links followed.
    Keep,
}

macro_rules! named {
    ($ty:ident, $key:literal, $($variant:ident = $name:literal),+) => {
        impl $ty {
            /// The name used in `config.toml`.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self { $(Self::$variant => $name),+ }
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
        impl FromStr for $ty {
            type Err = DedupError;
            fn from_str(s: &str) -> Result<Self, DedupError> {
                match s {
                    $($name => Ok(Self::$variant),)+
                    _ => Err(DedupError::Name { key: $key, value: s.to_owned(), allowed: &[$($name),+] }),
                }
            }
        }
    };
}
named!(DedupScope, "dedup-scope", Global = "global", Host = "host");
named!(
    OnDuplicate,
    "on-duplicate",
    Drop = "drop",
    FollowLinks = "follow-links",
    Keep = "keep"
);

/// The dedup settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DedupConfig {
    /// Largest Hamming distance still called a near-duplicate (0..=8).
    pub threshold: u32,
    /// Which pages a page is compared with.
    pub scope: DedupScope,
    /// Pages kept per structure cluster (at least 1).
    pub cluster_budget: u32,
    /// Pages with fewer elements are never judged by structure (too little signal).
    pub min_elements: u64,
    /// What happens to duplicates.
    pub on_duplicate: OnDuplicate,
    /// With structure summaries: the Jaccard similarity (0..=1) a near match must also reach
    /// to count. `None` (or a page without a summary): the fingerprint decides alone.
    pub min_similarity: Option<f64>,
    /// Which signal drops a page ([`DropWhen`] defines each mode).
    pub drop_when: DropWhen,
    /// Largest Hamming distance between content fingerprints still called near (0..=16).
    pub content_threshold: u32,
    /// With summaries: a path that was in exactly one of the two summaries of this many
    /// confirmed matches in the scope is left out of the similarity; one the page has and
    /// its candidate lacks, only when it did so within the candidate's cluster or has varied
    /// within two clusters (`varying.rs`); 0 never.
    pub varying_after: u32,
    /// With summaries: when no representative within the threshold is confirmed, the
    /// nearest ones up to this many times the threshold are compared too (`far.rs`), 1 to
    /// 8; 1 never.
    pub far_reach: u32,
    /// What a representative beyond the threshold needs above `min_similarity` (0 to 1).
    pub far_margin: f64,
}

impl DedupConfig {
    /// The farthest a representative is compared at: `far_reach` × `threshold` bits
    /// (`threshold` itself when the comparison beyond it is off).
    #[must_use]
    pub const fn reach(&self) -> u32 {
        self.threshold.saturating_mul(self.far_reach)
    }

    /// The similarity a representative beyond the threshold needs when `min` is the
    /// min-similarity: `min` + `far_margin`, at most 1.
    #[must_use]
    pub fn far_similarity(&self, min: f64) -> f64 {
        (min + self.far_margin).min(1.0)
    }
}

impl Default for DedupConfig {
    fn default() -> Self {
        Self {
            threshold: 5,
            scope: DedupScope::Host,
            cluster_budget: 1,
            min_elements: 10,
            on_duplicate: OnDuplicate::Drop,
            min_similarity: None,
            drop_when: DropWhen::Structure,
            content_threshold: 3,
            varying_after: 0,
            far_reach: 1,
            far_margin: 0.1,
        }
    }
}

/// A dedup setting that cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DedupError {
    /// An unknown name for an enumerated setting.
    #[error("{key} = {value:?}: must be one of {}", quoted(allowed))]
    Name {
        /// The setting.
        key: &'static str,
        /// The rejected value.
        value: String,
        /// The names allowed.
        allowed: &'static [&'static str],
    },
    /// The threshold is outside what the index supports.
    #[error("threshold = {value}: must be a whole number from 0 to 8")]
    Threshold {
        /// The rejected value.
        value: u32,
    },
    /// A cluster budget of 0 would drop every page.
    #[error("cluster-budget = 0: must be at least 1")]
    ClusterBudget,
    /// The content threshold is outside what the content index supports.
    #[error("content threshold = {value}: must be a whole number from 0 to {MAX_K128}")]
    ContentThreshold {
        /// The rejected value.
        value: u32,
    },
    /// A similarity outside [0, 1].
    #[error("min-similarity = {value}: must be a number from 0 to 1")]
    Similarity {
        /// The rejected value.
        value: f64,
    },
    /// A far reach outside 1..=8.
    #[error("far-reach = {value}: must be a whole number from 1 to 8 (1: off)")]
    FarReach {
        /// The rejected value.
        value: u32,
    },
    /// A far margin outside [0, 1].
    #[error("far-margin = {value}: must be a number from 0 to 1")]
    FarMargin {
        /// The rejected value.
        value: f64,
    },
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}
