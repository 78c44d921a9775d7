//! `silhouette compare A B`: both fingerprints, the distance and the verdict, and the
//! distance of the two pages' content fingerprints (`[content]`).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use silhouette_dom::{PathName, StructureHasher};
use silhouette_text::ContentHasher;

use crate::args::FingerprintFlags;
use crate::inputs::Input;

/// One page to compare, read or fetched.
#[derive(Debug)]
pub struct Page {
    /// The name printed: the path as given, `-`, or the URL.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Its `Content-Type` header when it was fetched (for the charset).
    pub content_type: Option<String>,
}

/// How `compare` judges and what it prints beside its verdict.
#[derive(Clone, Copy, Debug)]
pub struct Judging {
    /// Bits within which two structures count as the same.
    pub threshold: u32,
    /// The path-set similarity a near match needs (`class-paths`).
    pub min_similarity: f64,
    /// Pages beyond the threshold, up to this many times it, are the same structure at
    /// `min_similarity` + `far_margin` (`class-paths`; 1: never).
    pub far_reach: u32,
    /// What pages beyond the threshold need above `min_similarity`.
    pub far_margin: f64,
    /// Whether to list the paths each page has and the other has not.
    pub paths: bool,
}

/// Prints the comparison of two pages to `out` (warnings to `err`); returns whether they
/// have the same structure: distance within the threshold and, for `class-paths`, path sets
/// at least `min_similarity` alike and no two different forms or tables (as the crawl judges).
pub fn run(
    hasher: &StructureHasher,
    content: &ContentHasher,
    judging: Judging,
    (a, b): (&Page, &Page),
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<bool> {
    let Judging {
        threshold,
        min_similarity,
        far_reach,
        far_margin,
        paths,
    } = judging;
    let mut hash = |page: &Page| -> Result<_> {
        if let Some(w) = crate::inputs::binary_warning(&page.name, &page.bytes) {
            writeln!(err, "{w}")?;
        }
        let content_type = page.content_type.as_deref();
        // Paths are named only when asked for: naming them is a second cost.
        let hashed = if paths {
            hasher.explain(&page.bytes, content_type)
        } else {
            hasher
                .hash_with_content_type(&page.bytes, content_type)
                .map(|s| (s, Vec::new()))
        };
        hashed.with_context(|| format!("{}: cannot fingerprint", page.name))
    };
    let ((sa, na), (sb, nb)) = (hash(a)?, hash(b)?);
    for (label, page, s) in [("A", a, &sa), ("B", b, &sb)] {
        let note = s
            .truncated
            .map(|t| format!("  (truncated: {t})"))
            .unwrap_or_default();
        writeln!(
            out,
            "{label}  {}  {:>6} elements  {}{note}",
            s.fingerprint, s.elements, page.name
        )?;
    }
    let d = sa.fingerprint.distance(sb.fingerprint);
    writeln!(out, "distance: {d} bits ({})", hasher.params())?;
    let mut similarity = sa.profile.similarity(&sb.profile);
    if let Some(j) = similarity {
        writeln!(out, "similarity: {j:.3} (path sets, Jaccard)")?;
    }
    let raw = [&sa, &sb].map(|s| s.profile.paths().map(silhouette_dom::PathSet::summary));
    // Two articles: the crawl compares them without their articles' blocks.
    if let [Some(a), Some(b)] = &raw
        && let Some((shared, all)) = silhouette_frontier::articles_overlap(a, b)
    {
        let j = shared as f64 / all as f64;
        writeln!(
            out,
            "similarity: {j:.3} without their articles' blocks (two articles: {shared} of {all} paths shared)"
        )?;
        similarity = Some(j);
    }
    // The other rules read the paths alone (`split_summary`).
    let summaries = raw
        .clone()
        .map(|s| s.map(|s| silhouette_frontier::split_summary(&s).0));
    let apart = match (&summaries, &raw) {
        ([Some(a), Some(b)], [Some(raw_a), Some(raw_b)]) => silhouette_frontier::forms_differ(a, b)
            .map(|(shared, all)| {
                format!("their forms ask for other fields: {shared} of {all} shared")
            })
            .or_else(|| {
                silhouette_frontier::tables_differ(a, b).map(|(shared, all)| {
                    format!("their tables are other tables: {shared} of {all} columns shared")
                })
            })
            .or_else(|| {
                silhouette_frontier::prose_differs(a, b).map(|n| {
                    format!("one is an article ({n} paths of prose), the other holds no prose")
                })
            })
            .or_else(|| {
                silhouette_frontier::block_beside_an_article(raw_a, raw_b).map(|n| {
                    format!(
                        "one is an article, the other a line or two of prose beside a block the article lacks: {n} paths"
                    )
                })
            })
            .or_else(|| {
                silhouette_frontier::blocks_differ(raw_a, raw_b).map(|(x, y)| {
                    format!(
                        "each holds a block the other lacks (their articles' blocks aside): {x} and {y} paths of its own"
                    )
                })
            }),
        _ => None,
    };
    // Beyond the threshold, within its far reach: the path sets decide at a higher bar.
    let rule = silhouette_frontier::DedupConfig {
        threshold,
        far_reach,
        far_margin,
        ..silhouette_frontier::DedupConfig::default()
    };
    let reach = rule.reach();
    let far = d > threshold && d <= reach && similarity.is_some();
    let (need, bar) = if far {
        let need = rule.far_similarity(min_similarity);
        (need, format!("{need:.2} (min-similarity + far-margin)"))
    } else {
        (min_similarity, format!("min-similarity {min_similarity}"))
    };
    let (same, why) = match (similarity, apart) {
        _ if d > threshold && !far => (false, format!("distance {d} > threshold {threshold}")),
        (_, Some(why)) => (false, why),
        (Some(j), None) if far && j < need => (
            false,
            format!(
                "distance {d} > threshold {threshold}, within far-reach ({reach}): similarity {j:.3} < {bar}"
            ),
        ),
        (Some(j), None) if far => (
            true,
            format!(
                "distance {d} > threshold {threshold}, within far-reach ({reach}): similarity {j:.3} >= {bar}"
            ),
        ),
        (Some(j), None) if j < need => (false, format!("similarity {j:.3} < {bar}")),
        (Some(j), None) => (
            true,
            format!("distance {d} <= threshold {threshold}, similarity {j:.3} >= {bar}"),
        ),
        (None, None) => (true, format!("distance {d} <= threshold {threshold}")),
    };
    let texts = [&sa, &sb].map(|s| s.text.as_deref().and_then(|t| content.fingerprint(t)));
    match texts {
        [Some(ca), Some(cb)] => {
            let d = ca.hash.distance(cb.hash).unwrap_or(u32::MAX);
            let signature = if ca.signature.is_some() && ca.signature == cb.signature {
                ", equal signatures"
            } else {
                ""
            };
            writeln!(
                out,
                "content distance: {d} bits{signature} ({})",
                content.params()
            )?;
        }
        _ => {
            let short: Vec<&str> = ["A", "B"]
                .into_iter()
                .zip(texts)
                .filter(|(_, t)| t.is_none())
                .map(|(label, _)| label)
                .collect();
            writeln!(
                out,
                "content distance: none ({} too little text)",
                short.join(" and ")
            )?;
        }
    }
    let verdict = if same { "same" } else { "different" };
    writeln!(out, "verdict: {verdict} structure ({why})")?;
    if paths {
        print_paths(hasher.decay(), (&na, &nb), out)?;
    }
    writeln!(
        out,
        "note: a crawl can decide otherwise: it compares a page with the first page it kept of \
         its kind, not with any page, and with what it learned of the host (paths that vary \
         from page to page, the frame all its pages share); `silhouette stats --clusters` \
         shows what it kept"
    )?;
    Ok(same)
}

/// Prints, for each page, the paths the other page has not: level, `P` for prose, `A` for
/// one of an article's blocks, and the path, with the weight they add at `decay` against the
/// page's whole weight.
fn print_paths(decay: f64, (a, b): (&[PathName], &[PathName]), out: &mut dyn Write) -> Result<()> {
    let weight = |p: &PathName| decay.powi(i32::from(p.level));
    for (label, mine, theirs) in [("A", a, b), ("B", b, a)] {
        let other: std::collections::HashSet<u32> = theirs.iter().map(|p| p.id).collect();
        let mut only: Vec<&PathName> = mine.iter().filter(|p| !other.contains(&p.id)).collect();
        only.sort_by_key(|p| p.level);
        let total = mine.iter().map(weight).fold(0.0, |a, w| a + w);
        let own = only.iter().copied().map(weight).fold(0.0, |a, w| a + w);
        writeln!(
            out,
            "paths only in {label}: {} of {} (weight {own:.2} of {total:.2} at decay {decay})",
            only.len(),
            mine.len()
        )?;
        for p in only {
            let prose = if p.prose { 'P' } else { ' ' };
            let article = if p.article { 'A' } else { ' ' };
            writeln!(out, "  {:>3} {prose}{article} {}", p.level, p.name)?;
        }
    }
    Ok(())
}

/// `silhouette compare A B`: like cmp(1), exit status 0 when the two pages have the same
/// structure, 1 when not.
pub fn command(
    config: Option<&Path>,
    flags: &FingerprintFlags,
    threshold: Option<i64>,
    paths: bool,
    a: PathBuf,
    b: PathBuf,
) -> Result<ExitCode> {
    let config = crate::common::config_with(config, flags, threshold)?;
    let mut settings = config.settings()?;
    let content =
        ContentHasher::new(config.content(crate::config::content::ContentOverrides::default())?)?;
    settings.hasher.limits.max_text_bytes = silhouette_crawl::text_bytes(Some(content.config()));
    let hasher = StructureHasher::new(settings.hasher)?;
    let urls = [&a, &b]
        .into_iter()
        .filter_map(|p| crate::web_page::url_of(p));
    let web = crate::common::web_pages(&config, urls.collect())?;
    let page = |p: PathBuf| -> Result<Page> {
        if let (Some(url), Some(web)) = (crate::web_page::url_of(&p), web.as_ref()) {
            let got = web.get(&url).map_err(|e| anyhow::anyhow!("{url}: {e}"))?;
            return Ok(Page {
                name: url.to_string(),
                bytes: got.bytes,
                content_type: got.content_type,
            });
        }
        let input = if p.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::File(p)
        };
        let bytes = input
            .read()
            .with_context(|| format!("{}: cannot read", input.name()))?;
        Ok(Page {
            name: input.name(),
            bytes,
            content_type: None,
        })
    };
    let (a, b) = (page(a)?, page(b)?);
    let mut out = io::stdout().lock();
    let near = run(
        &hasher,
        &content,
        Judging {
            threshold: settings.threshold,
            min_similarity: settings.min_similarity,
            far_reach: settings.far_reach,
            far_margin: settings.far_margin,
            paths,
        },
        (&a, &b),
        &mut out,
        &mut io::stderr().lock(),
    )?;
    // Like cmp(1): 0 when the same structure, 1 when not, 2 on trouble.
    Ok(if near {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::common::EXIT_PARTIAL)
    })
}
