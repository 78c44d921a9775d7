//! `replay --why URL`: why a crawl decided as it did for one page. The crawl's judged pages
//! are judged again in crawl order up to that page (as `replay` does at one setting), and
//! the dedup state then names every kept page within the threshold and how alike the
//! confirmation found the two ([`silhouette_frontier::Dedup::candidates`]).

use std::collections::HashMap;
use std::io::Write;

use silhouette_frontier::{Dedup, DedupConfig, Store, Verdict};

use crate::error::{Error, Result, refuse};
use crate::replay::Judged;

/// Writes to `out` why the page at `url` (as recorded) was kept or dropped at `decay` and `config` (the crawl's own settings: what the
/// crawl decided, as `replay` at them says).
///
/// # Errors
/// The state cannot be read, no judged page has that URL, or a write fails.
pub fn why(
    store: &Store,
    decay: f64,
    config: DedupConfig,
    url: &str,
    out: &mut dyn Write,
) -> Result<()> {
    let judged = Judged::load(store)?;
    let Some(at) = judged.pages.iter().position(|p| p.url == url) else {
        refuse!(
            "{url}: no page judged by this crawl has that URL (`silhouette stats --clusters` lists the kept pages; errors, redirects and pages that are not HTML are not judged)"
        );
    };
    let params = format!("replay/decay={decay}");
    let mut dedup =
        Dedup::new(config, &params).map_err(|e| Error::Refused(format!("dedup.{e}")))?;
    let url_of: HashMap<u64, &str> = judged
        .pages
        .iter()
        .map(|p| (p.id, p.url.as_str()))
        .collect();
    for (i, p) in judged.pages.iter().enumerate().take(at + 1) {
        let fingerprint = p.profile.as_ref().map(|pr| pr.fingerprint(decay));
        let signals = p.signals(fingerprint);
        if i < at {
            dedup.judge_page(&signals);
            continue;
        }
        let candidates = dedup.candidates(&signals);
        let verdict = dedup.judge_page(&signals);
        let name = |id: u64| url_of.get(&id).copied().unwrap_or("?");
        // The cluster the page joined, if any (a page over the cluster budget joins and is kept).
        let joined = match verdict {
            Verdict::NearDuplicate { of, .. } => Some(of),
            Verdict::Kept { cluster } if cluster != p.id => Some(cluster),
            Verdict::ContentDuplicate { cluster, .. } => cluster,
            _ => None,
        };
        writeln!(
            out,
            "{url}: {} (recorded: {}), page {} of {} judged on {}",
            verdict.decision(),
            p.decision,
            at + 1,
            judged.pages.len(),
            p.host
        )?;
        match verdict {
            Verdict::ExactDuplicate { of } => {
                writeln!(out, "  the same bytes as {}", name(of))?;
            }
            Verdict::KeptUnjudged => writeln!(
                out,
                "  kept without a judgement: {} elements, under min-elements ({})",
                p.elements, config.min_elements
            )?,
            Verdict::ContentDuplicate { of, .. } => {
                writeln!(out, "  its main-content text is near {}'s", name(of))?;
            }
            _ => {}
        }
        match (fingerprint, config.min_similarity, p.summary.as_ref()) {
            (None, ..) => writeln!(
                out,
                "  no structure fingerprint (its profile is unreadable)"
            )?,
            (Some(fp), Some(min), Some(_)) => {
                let (reach, far_min) = (config.reach(), config.far_similarity(min));
                // The pages beyond the threshold are read only when none within it is
                // confirmed: say so only where they are listed.
                let beyond = if candidates.iter().any(|c| c.far) {
                    format!(
                        "; none confirmed, so beyond it too: up to {reach} bits, the nearest 8 (min-similarity {far_min:.2})"
                    )
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "  fingerprint {fp}; kept pages of its scope within {} bits, nearest first (min-similarity {min}){beyond}:",
                    config.threshold
                )?;
                if candidates.is_empty() {
                    writeln!(out, "    none")?;
                }
                for c in &candidates {
                    let (need, shown) = if c.far {
                        (far_min, format!("{far_min:.2}, beyond the threshold"))
                    } else {
                        (min, min.to_string())
                    };
                    let said = match c.similarity {
                        None => "no candidate".to_owned(),
                        Some(s) if s >= need => format!("similarity {s:.3} >= {shown}"),
                        Some(s) => format!("similarity {s:.3} < {shown}"),
                    };
                    let mark = if joined == Some(c.id) {
                        "  <- its cluster"
                    } else {
                        ""
                    };
                    let on = c
                        .paths
                        .map(|(read, all)| format!(", on {read} of {all} paths"))
                        .unwrap_or_default();
                    writeln!(
                        out,
                        "    {} bits  {}  {said} ({}{on}){mark}",
                        c.distance,
                        name(c.id),
                        c.compared.as_str(),
                    )?;
                }
            }
            (Some(fp), ..) => writeln!(
                out,
                "  fingerprint {fp}; judged by its fingerprint alone (no path sets to confirm with)"
            )?,
        }
    }
    Ok(())
}
