//! Configuration in three layers: [`Options`] (what `config.toml` may say, all optional) →
//! [`Settings`] (validated, defaults filled in) → the plain config structs of the libraries.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use silhouette_dom::{FeatureSet, HasherConfig, Limits, TimeBudget, WorkBudget};

/// The defaults, documented: the repository's `config.toml`, built into the binary.
pub const DEFAULT_CONFIG: &str = include_str!("../../config.toml");

/// What a configuration file may contain. Every field is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// `[fingerprint]`: how a page's structure becomes 64 bits.
    pub fingerprint: Option<FingerprintOptions>,
    /// `[dedup]`: when two structures count as the same.
    pub dedup: Option<DedupOptions>,
    /// `[crawl]`: what to crawl.
    pub crawl: Option<crate::crawl_settings::CrawlOptions>,
    /// `[traps]`: crawler-trap guards.
    pub traps: Option<crate::crawl_settings::TrapOptions>,
    /// `[fetch]`: politeness and limits of the fetcher.
    pub fetch: Option<crate::crawl_settings::FetchOptions>,
    /// `[content]`: content fingerprints of the main-content text.
    pub content: Option<crate::content_settings::ContentOptions>,
    /// `[output]`: the WARC files of a crawl.
    pub output: Option<crate::warc_settings::OutputOptions>,
    /// `[cluster]`: a crawl shared by workers through Redis.
    pub cluster: Option<crate::cluster_settings::ClusterOptions>,
}

/// `[fingerprint]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FingerprintOptions {
    /// Weight of each nesting level relative to its parent, in (0, 1].
    pub decay: Option<f64>,
    /// Feature model name.
    pub features: Option<String>,
    /// `class-paths`: paths deeper than this are left out.
    pub path_depth: Option<i64>,
    /// `class-paths`: seed of the feature hash.
    pub seed: Option<i64>,
    /// Nesting depth at which parsing stops.
    pub max_depth: Option<i64>,
    /// Elements the parser may create for one page.
    pub max_nodes: Option<i64>,
    /// Units of deterministic parsing work allowed per page (fixed part).
    pub work_budget: Option<i64>,
    /// Units of deterministic parsing work allowed per input byte.
    pub work_budget_per_byte: Option<i64>,
    /// Whether the parse has a time budget at all.
    pub time_limit: Option<bool>,
    /// Fixed part of the time budget, in milliseconds.
    pub time_budget_ms: Option<i64>,
    /// Part of the time budget per input byte, in nanoseconds.
    pub time_budget_ns_per_byte: Option<i64>,
    /// Bytes of a page parsed at most.
    pub max_input_bytes: Option<i64>,
}

/// `[dedup]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DedupOptions {
    /// Near-duplicate threshold in bits, 0 to 8 (default: the feature model's, 8 for class-paths).
    pub threshold: Option<i64>,
    /// `global` or `host`.
    pub dedup_scope: Option<String>,
    /// Pages kept per structure cluster.
    pub cluster_budget: Option<i64>,
    /// Pages with fewer elements are never judged by structure.
    pub min_elements: Option<i64>,
    /// `drop`, `follow-links` or `keep`.
    pub on_duplicate: Option<String>,
    /// Structure similarity (Jaccard of path sets) a near match must also reach.
    pub min_similarity: Option<f64>,
    /// `structure`, `content`, `structure-and-content` or `structure-or-content`.
    pub drop_when: Option<String>,
    /// Confirmed matches a path must have differed in before the similarity leaves it out.
    pub varying_after: Option<i64>,
}

/// Validated settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The structure hasher's configuration.
    pub hasher: HasherConfig,
    /// Near-duplicate threshold in bits (0 to the index's [`silhouette_simhash::MAX_K`]).
    pub threshold: u32,
    /// Path-set similarity a near match must also reach (`class-paths`), 0..=1.
    pub min_similarity: f64,
}

pub use silhouette_crawl::DEFAULT_MIN_SIMILARITY;

/// `[dedup] min-similarity`, checked.
pub fn min_similarity(dedup: &DedupOptions) -> Result<f64> {
    match dedup.min_similarity {
        None => Ok(DEFAULT_MIN_SIMILARITY),
        Some(v) if (0.0..=1.0).contains(&v) => Ok(v),
        Some(v) => bail!("dedup.min-similarity = {v}: must be a number from 0 to 1"),
    }
}

/// Command-line values that override the file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub decay: Option<f64>,
    pub features: Option<String>,
    pub threshold: Option<i64>,
}

impl Options {
    /// Parses TOML text; `origin` names it in errors (a path, or "built-in defaults").
    pub fn parse(text: &str, origin: &str) -> Result<Self> {
        toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|span| 1 + text[..span.start.min(text.len())].matches('\n').count());
            let message = e.message().trim().replace('\n', " ");
            match line {
                Some(line) => anyhow::anyhow!("{origin}:{line}: {message}"),
                None => anyhow::anyhow!("{origin}: {message}"),
            }
        })
    }

    /// The options of `--config FILE`, else `$SILHOUETTE_CONFIG`, else the built-in defaults.
    pub fn find(config: Option<&Path>) -> Result<Self> {
        let env = std::env::var_os("SILHOUETTE_CONFIG").filter(|v| !v.is_empty());
        match config
            .map(Path::to_path_buf)
            .or_else(|| env.map(Into::into))
        {
            Some(path) => Self::load(&path),
            None => Self::parse(DEFAULT_CONFIG, "built-in config.toml"),
        }
    }

    /// Reads and parses a configuration file.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config file {}", path.display()))?;
        Self::parse(&text, &path.display().to_string())
    }
}

pub fn range<T: TryFrom<i64>>(key: &str, value: i64, min: i64, max: i64) -> Result<T> {
    if value < min || value > max {
        bail!("{key} = {value}: must be a whole number from {min} to {max}");
    }
    T::try_from(value).map_err(|_| anyhow::anyhow!("{key} = {value}: out of range"))
}

impl Settings {
    /// Validates `options` with `overrides` on top; every error names key, value and what is
    /// allowed.
    /// A value given by a flag is named by its flag (`--threshold 12: …`).
    pub fn resolve(options: &Options, overrides: &Overrides) -> Result<Self> {
        let mut given = Vec::new();
        for (set, key, flag) in [
            (
                overrides.threshold.is_some(),
                "dedup.threshold",
                "--threshold",
            ),
            (overrides.decay.is_some(), "fingerprint.decay", "--decay"),
            (
                overrides.features.is_some(),
                "fingerprint.features",
                "--features",
            ),
        ] {
            if set {
                given.push((key, flag));
            }
        }
        Self::resolve_options(options, overrides)
            .map_err(|e| crate::crawl_flags::name_the_flag(e, &given))
    }

    fn resolve_options(options: &Options, overrides: &Overrides) -> Result<Self> {
        let default_fp = FingerprintOptions::default();
        let fp = options.fingerprint.as_ref().unwrap_or(&default_fp);
        let default_dedup = DedupOptions::default();
        let dedup = options.dedup.as_ref().unwrap_or(&default_dedup);
        let defaults = Limits::default();

        let features = match overrides.features.as_deref().or(fp.features.as_deref()) {
            None => FeatureSet::default(),
            Some(name) => name
                .parse()
                .map_err(|e| anyhow::anyhow!("fingerprint.{e}"))?,
        };
        let decay = overrides
            .decay
            .or(fp.decay)
            .unwrap_or(features.default_decay());
        let path_depth = match fp.path_depth {
            None => silhouette_dom::DEFAULT_PATH_DEPTH,
            Some(v) => range("fingerprint.path-depth", v, 1, 64)?,
        };
        let seed = match fp.seed {
            None => 0,
            Some(v) => range("fingerprint.seed", v, 0, i64::from(u32::MAX))?,
        };
        let max_depth = match fp.max_depth {
            None => defaults.max_depth,
            Some(v) => range("fingerprint.max-depth", v, 1, i64::from(u32::MAX))?,
        };
        let max_nodes = match fp.max_nodes {
            None => defaults.max_nodes,
            Some(v) => range("fingerprint.max-nodes", v, 1, i64::from(u32::MAX) - 16)?,
        };
        let max_input_bytes = match fp.max_input_bytes {
            None => defaults.max_input_bytes,
            Some(v) => range("fingerprint.max-input-bytes", v, 1, i64::MAX)?,
        };
        let work = WorkBudget::default();
        let work_budget = WorkBudget {
            base: match fp.work_budget {
                None => work.base,
                Some(v) => range("fingerprint.work-budget", v, 1, i64::MAX)?,
            },
            per_byte: match fp.work_budget_per_byte {
                None => work.per_byte,
                Some(v) => range("fingerprint.work-budget-per-byte", v, 0, 1_000_000)?,
            },
        };
        let base = TimeBudget::default();
        let time_budget = if fp.time_limit.unwrap_or(true) {
            Some(TimeBudget {
                base: match fp.time_budget_ms {
                    None => base.base,
                    Some(v) => {
                        Duration::from_millis(range("fingerprint.time-budget-ms", v, 0, 3_600_000)?)
                    }
                },
                per_byte: match fp.time_budget_ns_per_byte {
                    None => base.per_byte,
                    Some(v) => Duration::from_nanos(range(
                        "fingerprint.time-budget-ns-per-byte",
                        v,
                        0,
                        1_000_000,
                    )?),
                },
            })
        } else {
            None
        };
        let threshold = match overrides.threshold.or(dedup.threshold) {
            None => features.default_threshold(),
            // Every command that uses it (crawl, dedup, replay, compare, demo) supports the
            // near-duplicate index's range: one message, one range.
            Some(v) => range(
                "dedup.threshold",
                v,
                0,
                i64::from(silhouette_simhash::MAX_K),
            )?,
        };
        let hasher = HasherConfig {
            decay,
            features,
            path_depth,
            seed,
            limits: Limits {
                max_depth,
                max_nodes,
                work_budget,
                time_budget,
                max_input_bytes,
                max_links: 0,
                max_text_bytes: 0,
            },
        };
        hasher
            .validate()
            .map_err(|e| anyhow::anyhow!("fingerprint.{e}"))?;
        Ok(Self {
            hasher,
            threshold,
            min_similarity: min_similarity(dedup)?,
        })
    }

    /// Settings from `--config FILE`, else `$SILHOUETTE_CONFIG`, else the built-in defaults.
    pub fn load(config: Option<&Path>, overrides: &Overrides) -> Result<Self> {
        Self::resolve(&Options::find(config)?, overrides)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(toml: &str, expected: Result<&str, &str>) {
        let got = Options::parse(toml, "c.toml")
            .and_then(|o| Settings::resolve(&o, &Overrides::default()));
        match (got, expected) {
            (Ok(s), Ok(fragment)) => {
                let shown = format!("{s:?}");
                assert!(shown.contains(fragment), "{toml:?}: {shown}");
            }
            (Err(e), Err(msg)) => assert_eq!(e.to_string(), msg, "{toml:?}"),
            (got, _) => panic!("{toml:?}: unexpected {got:?}"),
        }
    }

    #[test]
    fn embedded_defaults_are_the_defaults() {
        let embedded = Settings::resolve(
            &Options::parse(DEFAULT_CONFIG, "built-in").expect("parses"),
            &Overrides::default(),
        )
        .expect("valid");
        let empty = Settings::resolve(&Options::default(), &Overrides::default()).expect("valid");
        assert_eq!(embedded, empty);
        assert_eq!(embedded.hasher, HasherConfig::default());
        assert_eq!(embedded.threshold, 8);
    }

    #[test]
    fn values_and_errors() {
        check("", Ok("decay: 0.76"));
        check("[fingerprint]\nfeatures = \"classic\"", Ok("decay: 0.45"));
        check("[fingerprint]\nfeatures = \"classic\"", Ok("threshold: 5"));
        check(
            "[fingerprint]\npath-depth = 0",
            Err("fingerprint.path-depth = 0: must be a whole number from 1 to 64"),
        );
        check("[fingerprint]\ndecay = 0.6\n", Ok("decay: 0.6"));
        check("[fingerprint]\nfeatures = \"tag-pairs\"", Ok("TagPairs"));
        check("[fingerprint]\ntime-limit = false", Ok("time_budget: None"));
        check("[dedup]\nthreshold = 0", Ok("threshold: 0"));
        check(
            "[fingerprint]\ndecay = 1.5\n",
            Err(
                "fingerprint.decay = 1.5: must be a number greater than 0 and at most 1 (default 0.76 for class-paths, 0.45 for classic)",
            ),
        );
        check(
            "[fingerprint]\nfeatures = \"fancy\"",
            Err(
                r#"fingerprint.features = "fancy": must be one of "classic", "tag-pairs", "class-paths""#,
            ),
        );
        check(
            "[dedup]\nthreshold = 9",
            Err("dedup.threshold = 9: must be a whole number from 0 to 8"),
        );
        check(
            "[dedup]\nthreshold = -1",
            Err("dedup.threshold = -1: must be a whole number from 0 to 8"),
        );
        check(
            "[fingerprint]\nmax-depth = 0",
            Err("fingerprint.max-depth = 0: must be a whole number from 1 to 4294967295"),
        );
        check(
            "[fingerprint]\ndecay = 0.45\ndecya = 1\n",
            Err(
                "c.toml:3: unknown field `decya`, expected one of `decay`, `features`, `path-depth`, \
                 `seed`, `max-depth`, `max-nodes`, `work-budget`, `work-budget-per-byte`, \
                 `time-limit`, `time-budget-ms`, `time-budget-ns-per-byte`, `max-input-bytes`",
            ),
        );
        check(
            "[crawling]\n",
            Err(
                "c.toml:1: unknown field `crawling`, expected one of `fingerprint`, `dedup`, `crawl`, `traps`, `fetch`, `content`, `output`, `cluster`",
            ),
        );
        check(
            "[fingerprint]\ndecay = \"x\"",
            Err("c.toml:2: invalid type: string \"x\", expected f64"),
        );
        check(
            "[fingerprint\n",
            Err("c.toml:1: unclosed table, expected `]`"),
        );
    }

    #[test]
    fn overrides_win() {
        let o = Overrides {
            decay: Some(0.8),
            threshold: Some(3),
            features: None,
        };
        let s = Settings::resolve(
            &Options::parse("[fingerprint]\ndecay = 0.6", "c").expect("parses"),
            &o,
        )
        .expect("valid");
        assert_eq!((s.hasher.decay, s.threshold), (0.8, 3));
        let bad = Overrides {
            decay: Some(0.0),
            ..Overrides::default()
        };
        let err = Settings::resolve(&Options::default(), &bad).expect_err("invalid");
        assert!(err.to_string().starts_with("--decay 0:"), "{err}");
    }
}
