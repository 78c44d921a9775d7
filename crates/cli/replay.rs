//! `silhouette replay`: a crawl's pages judged again with other settings.

use std::io::Write as _;

use anyhow::{Result, bail};
use silhouette_crawl::{OpenedState, Recorded, ReplaySetting, replay};
use silhouette_frontier::DedupConfig;

use crate::config::options::key;
use crate::config::{Config, Overrides};

/// `replay --drop-when MODE --content-threshold K`: the content policy to replay with.
#[derive(Clone, Debug, Default)]
pub struct ContentFlags {
    /// `--drop-when`.
    pub drop_when: Option<String>,
    /// `--content-threshold`.
    pub threshold: Option<i64>,
}

impl From<crate::args::PolicyFlags> for ContentFlags {
    fn from(flags: crate::args::PolicyFlags) -> Self {
        Self {
            drop_when: flags.drop_when,
            threshold: flags.content_threshold,
        }
    }
}

/// The decay and dedup settings to judge a crawl's pages with: the flags given, else the
/// ones the crawl recorded, else the config's.
pub fn settings(
    config: Config,
    recorded: &Recorded,
    decay: Option<f64>,
    threshold: Option<i64>,
    min_similarity: Option<f64>,
) -> Result<(f64, DedupConfig)> {
    let config = config.with(&Overrides {
        decay: decay.or(recorded.decay),
        features: recorded.model.clone(),
        threshold: threshold.or(recorded.threshold),
    });
    let base = config.settings()?;
    let crawl = config.crawl(base.threshold)?;
    let mut dedup = crawl.frontier.dedup;
    if let Some(scope) = recorded.scope {
        dedup.scope = scope;
    }
    if let Some(after) = recorded.varying_after {
        dedup.varying_after = after;
    }
    // A state written before `far-reach` existed compared no kept page beyond the threshold.
    dedup.far_reach = recorded.far_reach.unwrap_or(1);
    if let Some(margin) = recorded.far_margin {
        dedup.far_margin = margin;
    }
    dedup.min_similarity = match min_similarity {
        Some(v) if !(0.0..=1.0).contains(&v) => {
            bail!("--min-similarity {v}: must be a number from 0 to 1")
        }
        Some(v) => Some(v),
        None => recorded.min_similarity,
    };
    if let Some(mode) = recorded.drop_when {
        dedup.drop_when = mode;
    }
    if let Some(k) = recorded
        .content_threshold
        .and_then(|k| u32::try_from(k).ok())
    {
        dedup.content_threshold = k;
    }
    Ok((base.hasher.decay, dedup))
}

impl ContentFlags {
    /// Writes the flags given over `dedup` (the crawl's recorded policy, see [`settings`]);
    /// `bits`: the width of the content fingerprints judged.
    pub fn apply(&self, dedup: &mut DedupConfig, bits: u32) -> Result<()> {
        if let Some(mode) = self.drop_when.as_deref() {
            dedup.drop_when = mode.parse().map_err(|e| anyhow::anyhow!("--{e}"))?;
        }
        if let Some(k) = self.threshold {
            dedup.content_threshold =
                crate::config::content::threshold_in_range(k, bits).map_err(|e| {
                    crate::config::flags::name_the_flag(
                        e,
                        &[(key::CONTENT_THRESHOLD, "--content-threshold")],
                    )
                })?;
        }
        Ok(())
    }
}

/// `silhouette replay`: the crawl's pages judged again with other settings (`decay`,
/// `threshold`, `min_similarity`, the content policy); what changes is printed. Walked from
/// the crawl's threshold and min-similarity, unless `from_scratch`. With `why`, only why the
/// page at that URL was judged as it was (`silhouette_crawl::replay_why`).
pub fn command(
    config: Option<&std::path::Path>,
    state: Option<std::path::PathBuf>,
    (decay, threshold, min_similarity): (Option<f64>, Option<i64>, Option<f64>),
    (from_scratch, why): (bool, Option<&str>),
    policy: crate::args::PolicyFlags,
) -> Result<std::process::ExitCode> {
    let config = Config::find(config)?;
    let state = crate::common::state_or_default(&config, state);
    let opened = OpenedState::open(&state)?;
    let store = &opened.store;
    let recorded = Recorded::of(store)?;
    let (decay, dedup) = settings(config, &recorded, decay, threshold, min_similarity)?;
    let mut dedup = dedup;
    let bits = if store
        .meta("content")?
        .is_some_and(|c| c.contains(" bits=128 "))
    {
        128
    } else {
        64
    };
    ContentFlags::from(policy).apply(&mut dedup, bits)?;
    if let Some(url) = why {
        let own = recorded.decay.is_none_or(|d| d == decay)
            && recorded
                .threshold
                .is_none_or(|k| k == i64::from(dedup.threshold))
            && recorded.min_similarity == dedup.min_similarity;
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "decay={decay}, threshold={}{}: {}",
            dedup.threshold,
            dedup
                .min_similarity
                .map(|m| format!(", min-similarity={m}"))
                .unwrap_or_default(),
            if own {
                "the crawl's own settings"
            } else {
                "other settings than the crawl's: every page judged again at them alone"
            }
        )?;
        silhouette_crawl::replay_why(store, decay, dedup, url, &mut out)?;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let start = if from_scratch {
        None
    } else {
        ReplaySetting::of_recorded(&recorded)
    };
    replay(store, decay, dedup, start, &mut std::io::stdout().lock())?;
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The far comparison a replay judges with: the crawl's recorded one, and none for a
    /// state recorded before `far-reach` existed (it compared none beyond the threshold).
    #[test]
    fn a_replay_compares_beyond_the_threshold_as_the_crawl_did() {
        let check = |recorded: Recorded, expected: (u32, f64)| {
            let (_, dedup) =
                settings(Config::default(), &recorded, None, None, None).expect("valid");
            assert_eq!(
                (dedup.far_reach, dedup.far_margin),
                expected,
                "{recorded:?}"
            );
        };
        check(Recorded::default(), (1, 0.1));
        check(
            Recorded {
                far_reach: Some(3),
                far_margin: Some(0.2),
                ..Recorded::default()
            },
            (3, 0.2),
        );
    }
}
