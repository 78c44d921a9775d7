//! `[fingerprint]` and the structure threshold of `[dedup]`: options → a checked
//! [`HasherConfig`] and threshold.

use std::time::Duration;

use anyhow::{Result, bail};
use silhouette_dom::{FeatureSet, HasherConfig, Limits, TimeBudget, WorkBudget};

use super::check::{Invalid, range};
use super::options::{DedupOptions, FingerprintOptions, Options, key};

/// Validated settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The structure hasher's configuration.
    pub hasher: HasherConfig,
    /// Near-duplicate threshold in bits (0 to the index's [`silhouette_simhash::MAX_K`]).
    pub threshold: u32,
    /// Path-set similarity a near match must also reach (`class-paths`), 0..=1.
    pub min_similarity: f64,
    /// How many times the threshold kept pages beyond it are compared up to (1: none).
    pub far_reach: u32,
    /// What a kept page beyond the threshold needs above `min_similarity`, 0..=1.
    pub far_margin: f64,
}

pub use silhouette_crawl::DEFAULT_MIN_SIMILARITY;

/// `[dedup] far-reach` and `far-margin`, checked.
pub fn far(dedup: &DedupOptions) -> Result<(u32, f64)> {
    let reach = match dedup.far_reach {
        None => silhouette_crawl::DEFAULT_FAR_REACH,
        Some(v) => range("dedup.far-reach", v, 1, 8)?,
    };
    let margin = match dedup.far_margin {
        None => silhouette_crawl::DEFAULT_FAR_MARGIN,
        Some(v) if (0.0..=1.0).contains(&v) => v,
        Some(v) => bail!("dedup.far-margin = {v}: must be a number from 0 to 1"),
    };
    Ok((reach, margin))
}

/// `[dedup] min-similarity`, checked.
pub fn min_similarity(dedup: &DedupOptions) -> Result<f64> {
    match dedup.min_similarity {
        None => Ok(DEFAULT_MIN_SIMILARITY),
        Some(v) if (0.0..=1.0).contains(&v) => Ok(v),
        Some(v) => bail!("dedup.min-similarity = {v}: must be a number from 0 to 1"),
    }
}

impl Settings {
    /// Validates `options`; every error names key, value and what is allowed.
    pub fn resolve(options: &Options) -> Result<Self> {
        let default_fp = FingerprintOptions::default();
        let fp = options.fingerprint.as_ref().unwrap_or(&default_fp);
        let default_dedup = DedupOptions::default();
        let dedup = options.dedup.as_ref().unwrap_or(&default_dedup);
        let defaults = Limits::default();

        let features = match fp.features.as_deref() {
            None => FeatureSet::default(),
            Some(name) => name
                .parse()
                .map_err(|e| Invalid::setting("fingerprint", &e))?,
        };
        let decay = fp.decay.unwrap_or(features.default_decay());
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
        let threshold = match dedup.threshold {
            None => features.default_threshold(),
            // Every command that uses it (crawl, dedup, replay, compare, demo) supports the
            // near-duplicate index's range: one message, one range.
            Some(v) => range(key::THRESHOLD, v, 0, i64::from(silhouette_simhash::MAX_K))?,
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
            .map_err(|e| Invalid::setting("fingerprint", &e))?;
        let (far_reach, far_margin) = far(dedup)?;
        Ok(Self {
            hasher,
            threshold,
            min_similarity: min_similarity(dedup)?,
            far_reach,
            far_margin,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::options::DEFAULT_CONFIG;

    fn check(toml: &str, expected: Result<&str, &str>) {
        let got = Options::parse(toml, "c.toml").and_then(|o| Settings::resolve(&o));
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
        let embedded =
            Settings::resolve(&Options::parse(DEFAULT_CONFIG, "built-in").expect("parses"))
                .expect("valid");
        let empty = Settings::resolve(&Options::default()).expect("valid");
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
        check("", Ok("far_reach: 3, far_margin: 0.1"));
        check("[dedup]\nfar-reach = 1", Ok("far_reach: 1,"));
        check("[dedup]\nfar-margin = 0.2", Ok("far_margin: 0.2"));
        check(
            "[dedup]\nfar-reach = 0",
            Err("dedup.far-reach = 0: must be a whole number from 1 to 8"),
        );
        check(
            "[dedup]\nfar-reach = 9",
            Err("dedup.far-reach = 9: must be a whole number from 1 to 8"),
        );
        check(
            "[dedup]\nfar-margin = -0.1",
            Err("dedup.far-margin = -0.1: must be a number from 0 to 1"),
        );
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
}
