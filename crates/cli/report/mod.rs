//! `silhouette report STATE`: one self-contained HTML file showing what a crawl decided and
//! how other settings would decide (inline CSS, SVG and a little JS; nothing fetched).

mod data;
mod html;
mod sections;
mod svg;

use std::path::Path;

use anyhow::{Context, Result};
use silhouette_frontier::{DedupConfig, Store};

pub use data::{Grid, Histogram, Rate};

/// The decays of the replayed grid (the crawl's own is added when it is not among them).
const GRID_DECAYS: [f64; 5] = [0.6, 0.7, 0.76, 0.8, 0.9];
/// The thresholds of the replayed grid (likewise).
const GRID_THRESHOLDS: [u32; 5] = [4, 5, 6, 7, 8];

/// Everything the report shows.
#[derive(Debug)]
pub struct Report {
    /// The state directory, as given.
    pub state: String,
    /// The crawl's fingerprint parameters (`structure/MODEL/.../decay=D`).
    pub fingerprint: String,
    /// The crawl's `on-duplicate` mode, if recorded.
    pub on_duplicate: Option<String>,
    /// Decisions, hosts, errors and every cluster with its pages.
    pub summary: crate::crawl::summary::Summary,
    /// Distances of the judged pages to their kept page.
    pub histogram: Histogram,
    /// Content distances of the content duplicates to their kept page, when there are any.
    pub content_histogram: Option<Histogram>,
    /// Pages kept and clusters at other settings.
    pub grid: Grid,
    /// What the grid could not judge.
    pub gaps: crate::crawl::replay_gaps::Gaps,
    /// Pages recorded over time.
    pub rate: Rate,
}

/// Reads `store` and renders the report; `decay` and `config` are the crawl's settings.
pub fn render(store: &Store, state: &Path, decay: f64, config: DedupConfig) -> Result<String> {
    let summary = crate::crawl::summary::summarize(store, true)?;
    let histogram = Histogram::read(store, config.threshold)?;
    let judged = crate::crawl::replay::Judged::load(store)?;
    let grid = Grid::replay(&judged, decay, config, &GRID_DECAYS, &GRID_THRESHOLDS)
        .context("cannot replay the crawl for the grid")?;
    let report = Report {
        state: state.display().to_string(),
        fingerprint: store
            .meta("fingerprint")?
            .unwrap_or_else(|| "unknown".into()),
        on_duplicate: store.meta("dedup.on-duplicate")?,
        summary,
        histogram,
        content_histogram: Histogram::read_content(store, config.content_threshold)?,
        grid,
        gaps: crate::crawl::replay_gaps::Gaps::of(store)?,
        rate: Rate::read(store)?,
    };
    Ok(html::page(&report))
}

/// `silhouette report`: writes the report of a state or an export (default: STATE/report.html,
/// or OUT.report.html beside an export; `-`: standard output).
pub fn command(
    config: Option<&Path>,
    state: Option<std::path::PathBuf>,
    output: Option<std::path::PathBuf>,
) -> Result<std::process::ExitCode> {
    use std::io::Write;
    let state = crate::state_or_default(config, state)?;
    // An export's report goes beside it (`OUT.report.html`).
    let opened = crate::crawl::export_replay::Opened::open(&state)?;
    let store = &opened.store;
    let recorded = crate::crawl::replay::Recorded::of(store)?;
    let (decay, dedup) = crate::crawl::replay::settings(config, &recorded, None, None, None)?;
    let html = render(store, &state, decay, dedup)?;
    match output {
        Some(p) if p.as_os_str() == "-" => std::io::stdout().lock().write_all(html.as_bytes())?,
        output => {
            let path = output.unwrap_or_else(|| {
                if opened.is_export() {
                    state.with_extension("report.html")
                } else {
                    state.join("report.html")
                }
            });
            std::fs::write(&path, &html)
                .with_context(|| format!("cannot write {}", path.display()))?;
            writeln!(
                std::io::stderr(),
                "wrote {} ({} bytes)",
                path.display(),
                html.len()
            )?;
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests;
