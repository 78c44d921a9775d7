//! What `replay` cannot judge, and why: recorded URLs without a page to compare, URLs never
//! fetched, and — in `drop` mode — pages never discovered because duplicates' links were not
//! followed.

use std::collections::BTreeMap;
use std::io::Write;

use crate::error::{Context, Result};
use silhouette_frontier::{Decision, Store};

/// The gaps of a crawl state as seen by replay.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gaps {
    /// Recorded URLs with no page to judge, by decision (error, not-html, robots…).
    pub unjudged: BTreeMap<String, u64>,
    /// URLs found and still queued (the crawl was stopped before it fetched them).
    pub queued: u64,
    /// URLs found beyond a page limit.
    pub deferred: u64,
    /// Duplicates whose links were never followed (`on-duplicate = drop`), if so.
    pub dropped_unfollowed: Option<u64>,
}

impl Gaps {
    /// Reads them from `store`.
    pub fn of(store: &Store) -> Result<Self> {
        let mut gaps = Self::default();
        let mut duplicates = 0u64;
        store
            .records(None, |r| match r.page.decision {
                Decision::Kept if r.page.body_hash.is_some() => {}
                Decision::NearDuplicate | Decision::ExactDuplicate
                    if r.page.body_hash.is_some() =>
                {
                    duplicates += 1;
                }
                d => *gaps.unjudged.entry(d.to_string()).or_insert(0) += 1,
            })
            .context("cannot read the crawl state")?;
        gaps.queued = store.queued()?.len() as u64;
        gaps.deferred = store.deferred_count()?;
        if store.meta("dedup.on-duplicate")?.as_deref() == Some("drop") {
            gaps.dropped_unfollowed = Some(duplicates);
        }
        Ok(gaps)
    }

    /// Prints them (nothing when there are none).
    pub fn print(&self, out: &mut dyn Write) -> Result<()> {
        let unjudged: u64 = self.unjudged.values().sum();
        if unjudged > 0 {
            let list: Vec<String> = self
                .unjudged
                .iter()
                .map(|(d, n)| format!("{d} {n}"))
                .collect();
            writeln!(
                out,
                "not judged: {unjudged} recorded URLs have no page to compare ({})",
                list.join(", ")
            )?;
        }
        if self.queued > 0 || self.deferred > 0 {
            writeln!(
                out,
                "not fetched: {} URLs still queued (the crawl was stopped: resume it), {} \
                 deferred (beyond the page limit: raise --max-pages and resume)",
                self.queued, self.deferred
            )?;
        }
        if let Some(n) = self.dropped_unfollowed.filter(|&n| n > 0) {
            writeln!(
                out,
                "warning: this crawl dropped {n} duplicates without following their links \
                 (on-duplicate = drop), except those to a URL shape new to their host and \
                 those of duplicates that only just joined their cluster (up to dedup.explore \
                 per host that find nothing new), so pages only they link to were mostly never \
                 fetched and are not judged here: settings that keep more pages would, in a real crawl, reach \
                 more pages than this replay shows. To tune, crawl with --on-duplicate \
                 follow-links (bounded with --max-pages), then replay that state."
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(gaps: Gaps, expected: &str) {
        let mut out = Vec::new();
        gaps.print(&mut out).expect("prints");
        assert_eq!(String::from_utf8(out).expect("UTF-8"), expected);
    }

    #[test]
    fn says_what_it_could_not_judge_and_why() {
        check(Gaps::default(), "");
        check(
            Gaps {
                dropped_unfollowed: Some(0),
                ..Gaps::default()
            },
            "",
        );
        check(
            Gaps {
                unjudged: [("error".to_owned(), 2), ("not-html".to_owned(), 1)].into(),
                queued: 0,
                deferred: 7,
                dropped_unfollowed: None,
            },
            "not judged: 3 recorded URLs have no page to compare (error 2, not-html 1)\n\
             not fetched: 0 URLs still queued (the crawl was stopped: resume it), 7 deferred \
             (beyond the page limit: raise --max-pages and resume)\n",
        );
        let mut out = Vec::new();
        Gaps {
            dropped_unfollowed: Some(57),
            ..Gaps::default()
        }
        .print(&mut out)
        .expect("prints");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(
            text.starts_with("warning: this crawl dropped 57 duplicates"),
            "{text}"
        );
        assert!(text.contains("--on-duplicate follow-links"), "{text}");
    }
}
