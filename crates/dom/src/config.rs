//! The plain configuration of a [`StructureHasher`](crate::StructureHasher), and its checks.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// `classic`'s decay: each level of nesting weighs 0.45 times its parent.
pub const DEFAULT_DECAY: f64 = 0.45;

/// Which built-in feature model to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FeatureSet {
    /// One feature per tag name: the design notes' algorithm, bit-exact with ALGORITHM.md §2.
    Classic,
    /// Tag names plus parent>child pairs (experimental; see [`TagPairs`](crate::TagPairs)).
    TagPairs,
    /// The set of distinct root-to-element paths with class tokens ([`PathSet`](crate::PathSet)):
    /// the default (ALGORITHM.md §3).
    #[default]
    ClassPaths,
}

impl FeatureSet {
    /// Every built-in model, in the order the CLI lists them.
    pub const ALL: [Self; 3] = [Self::Classic, Self::TagPairs, Self::ClassPaths];

    /// The model's name, as in `config.toml` and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Classic => "classic",
            Self::TagPairs => "tag-pairs",
            Self::ClassPaths => "class-paths",
        }
    }

    /// The decay this model was measured best at (ALGORITHM.md §2, §3).
    #[must_use]
    pub const fn default_decay(self) -> f64 {
        match self {
            Self::Classic | Self::TagPairs => DEFAULT_DECAY,
            Self::ClassPaths => CLASS_PATHS_DECAY,
        }
    }

    /// The near-duplicate threshold (bits) this model was measured best at.
    #[must_use]
    pub const fn default_threshold(self) -> u32 {
        match self {
            Self::Classic | Self::TagPairs => 5,
            Self::ClassPaths => CLASS_PATHS_THRESHOLD,
        }
    }
}

/// `class-paths`' default decay (ALGORITHM.md §3).
pub const CLASS_PATHS_DECAY: f64 = 0.76;

/// `class-paths`' default threshold in bits (ALGORITHM.md §3).
pub const CLASS_PATHS_THRESHOLD: u32 = 8;

impl fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for FeatureSet {
    type Err = ConfigError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| ConfigError::Features {
                value: s.to_owned(),
            })
    }
}

/// How much CPU time a parse may take: `base + per_byte × input length`.
///
/// Measured as the parsing thread's CPU time, not wall time, so that a busy machine does not
/// truncate pages that an idle one parses whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// The fixed part.
    pub base: Duration,
    /// The part per input byte.
    pub per_byte: Duration,
}

impl TimeBudget {
    /// The budget for an input of `bytes` bytes (saturating).
    #[must_use]
    pub fn for_len(&self, bytes: usize) -> Duration {
        let n = u32::try_from(bytes).unwrap_or(u32::MAX);
        self.base.saturating_add(self.per_byte.saturating_mul(n))
    }
}

impl Default for TimeBudget {
    /// 10 s + 1 µs per byte: a last-resort safety net (ALGORITHM.md §4). Real pages stop far
    /// earlier on the [`WorkBudget`], if at all, in any build; a release build parses a
    /// megabyte in about 10 ms, an unoptimised one in under a second.
    fn default() -> Self {
        Self {
            base: Duration::from_secs(10),
            per_byte: Duration::from_micros(1),
        }
    }
}

/// How much deterministic work a parse may do: `base + per_byte × input length` units, one
/// unit per token handed to the tree builder and per change to the tree (an element created,
/// appended, inserted or moved). The same bytes always do the same work, so a page stopped by
/// this budget gets the same fingerprint on every machine and in every build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkBudget {
    /// The fixed part.
    pub base: u64,
    /// The part per input byte.
    pub per_byte: u64,
}

impl WorkBudget {
    /// The budget for an input of `bytes` bytes (saturating).
    #[must_use]
    pub fn for_len(&self, bytes: usize) -> u64 {
        let n = u64::try_from(bytes).unwrap_or(u64::MAX);
        self.base.saturating_add(self.per_byte.saturating_mul(n))
    }
}

impl Default for WorkBudget {
    /// 1M units + 16 per byte: real pages do 1–3 units per byte (ALGORITHM.md §4).
    fn default() -> Self {
        Self {
            base: 1_000_000,
            per_byte: 16,
        }
    }
}

/// Bounds on the work one page may cause (ALGORITHM.md §4). Reaching one stops the parse;
/// the fingerprint of what was parsed is returned, marked [`truncated`](crate::Structure::truncated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop once an element is nested deeper than this (browsers stop at 512).
    pub max_depth: u32,
    /// Stop once the parser has created this many elements.
    pub max_nodes: usize,
    /// Stop after this much deterministic work (tokens and tree changes).
    pub work_budget: WorkBudget,
    /// Stop when a parse takes longer than this: a safety net far above what the work budget
    /// allows any page; `None` never stops on time.
    pub time_budget: Option<TimeBudget>,
    /// Parse at most this many bytes of a page.
    pub max_input_bytes: usize,
    /// Collect at most this many distinct link targets per page into
    /// [`Structure::links`](crate::Structure::links); 0 (the default) collects none.
    pub max_links: usize,
    /// Collect the visible text of the main content into
    /// [`Structure::text`](crate::Structure::text), at most this many bytes of it
    /// ([`DEFAULT_MAX_TEXT_BYTES`] is a good value); 0 (the default) collects none, and then
    /// the parse costs what it did without text.
    pub max_text_bytes: usize,
}

/// A bound for [`Limits::max_text_bytes`] when collecting text: 4 MiB.
pub const DEFAULT_MAX_TEXT_BYTES: usize = 4 << 20;

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_depth: 512,
            max_nodes: 2_000_000,
            work_budget: WorkBudget::default(),
            time_budget: Some(TimeBudget::default()),
            max_input_bytes: 32 * 1024 * 1024,
            max_links: 0,
            max_text_bytes: 0,
        }
    }
}

/// Everything a [`StructureHasher`](crate::StructureHasher) needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HasherConfig {
    /// Weight of each nesting level relative to its parent, in (0, 1]. Default: the model's
    /// ([`FeatureSet::default_decay`]): 0.76 for `class-paths`, 0.45 for `classic`.
    pub decay: f64,
    /// The feature model. Default `class-paths`.
    pub features: FeatureSet,
    /// Paths deeper than this are left out, but for visible form fields and a table's named
    /// columns (`class-paths` only; 1..=64). Default 12.
    pub path_depth: u32,
    /// Seed of the feature hash (`class-paths` only; `classic` is fixed by ALGORITHM.md §2).
    /// Fingerprints with different seeds are not comparable. Default 0.
    pub seed: u32,
    /// Work bounds for hostile pages.
    pub limits: Limits,
}

impl Default for HasherConfig {
    /// `class-paths` at decay 0.76.
    fn default() -> Self {
        Self {
            decay: CLASS_PATHS_DECAY,
            features: FeatureSet::ClassPaths,
            path_depth: crate::DEFAULT_PATH_DEPTH,
            seed: 0,
            limits: Limits::default(),
        }
    }
}

impl HasherConfig {
    /// The defaults of one model (its own default decay).
    #[must_use]
    pub fn for_model(features: FeatureSet) -> Self {
        Self {
            decay: features.default_decay(),
            features,
            ..Self::default()
        }
    }

    /// Checks every value; the error names the setting, the value and what is allowed.
    ///
    /// # Errors
    /// A decay outside (0, 1], or a limit of zero.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(self.decay > 0.0 && self.decay <= 1.0) {
            return Err(ConfigError::Decay { value: self.decay });
        }
        if !(1..=64).contains(&self.path_depth) {
            return Err(ConfigError::PathDepth {
                value: self.path_depth,
            });
        }
        let l = &self.limits;
        if l.max_depth == 0 {
            return Err(ConfigError::Limit {
                name: "max-depth",
                value: 0,
            });
        }
        if l.max_nodes == 0 {
            return Err(ConfigError::Limit {
                name: "max-nodes",
                value: 0,
            });
        }
        if l.max_input_bytes == 0 {
            return Err(ConfigError::Limit {
                name: "max-input-bytes",
                value: 0,
            });
        }
        Ok(())
    }
}

/// A configuration value that cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The decay is not in (0, 1].
    #[error(
        "decay = {value}: must be a number greater than 0 and at most 1 (default 0.76 for class-paths, 0.45 for classic)"
    )]
    Decay {
        /// The rejected value.
        value: f64,
    },
    /// An unknown feature model name.
    #[error("features = {value:?}: must be one of {}", FeatureSet::ALL.map(|f| format!("{:?}", f.name())).join(", "))]
    Features {
        /// The rejected name.
        value: String,
    },
    /// A path depth out of range.
    #[error("path-depth = {value}: must be a whole number from 1 to 64 (default 12)")]
    PathDepth {
        /// The rejected value.
        value: u32,
    },
    /// A limit that would stop every parse at once.
    #[error("{name} = {value}: must be at least 1")]
    Limit {
        /// The setting.
        name: &'static str,
        /// The rejected value.
        value: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(config: HasherConfig, expected: Result<(), &str>) {
        assert_eq!(
            config.validate().map_err(|e| e.to_string()),
            expected.map_err(str::to_owned)
        );
    }

    #[test]
    fn validation() {
        let ok = HasherConfig::for_model(FeatureSet::Classic);
        check(ok, Ok(()));
        check(HasherConfig { decay: 1.0, ..ok }, Ok(()));
        check(HasherConfig { decay: 1e-9, ..ok }, Ok(()));
        let bad_decay = "must be a number greater than 0 and at most 1 (default 0.76 for class-paths, 0.45 for classic)";
        check(
            HasherConfig { decay: 0.0, ..ok },
            Err(&format!("decay = 0: {bad_decay}")),
        );
        check(
            HasherConfig { decay: 1.5, ..ok },
            Err(&format!("decay = 1.5: {bad_decay}")),
        );
        check(
            HasherConfig { decay: -0.2, ..ok },
            Err(&format!("decay = -0.2: {bad_decay}")),
        );
        check(
            HasherConfig {
                decay: f64::NAN,
                ..ok
            },
            Err(&format!("decay = NaN: {bad_decay}")),
        );
        let limits = Limits {
            max_nodes: 0,
            ..Limits::default()
        };
        check(
            HasherConfig { limits, ..ok },
            Err("max-nodes = 0: must be at least 1"),
        );
    }

    #[test]
    fn feature_names() {
        assert_eq!("classic".parse::<FeatureSet>(), Ok(FeatureSet::Classic));
        assert_eq!("tag-pairs".parse::<FeatureSet>(), Ok(FeatureSet::TagPairs));
        let err = "Classic".parse::<FeatureSet>().map_err(|e| e.to_string());
        assert_eq!(
            err,
            Err(
                r#"features = "Classic": must be one of "classic", "tag-pairs", "class-paths""#
                    .to_owned()
            )
        );
    }

    #[test]
    fn budget_grows_with_input() {
        let b = TimeBudget::default();
        assert_eq!(b.for_len(0), Duration::from_secs(10));
        assert_eq!(b.for_len(1_000_000), Duration::from_secs(11));
        let w = WorkBudget::default();
        assert_eq!(w.for_len(0), 1_000_000);
        assert_eq!(w.for_len(1_000_000), 17_000_000);
        assert_eq!(w.for_len(usize::MAX), u64::MAX);
    }
}
