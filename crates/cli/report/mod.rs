//! `silhouette report STATE`: one self-contained HTML file showing what a crawl decided and
//! how other settings would decide (inline CSS, SVG and a little JS; nothing fetched).

mod html;
mod sections;
mod svg;

use std::path::Path;

use anyhow::{Context, Result};
use silhouette_frontier::{DedupConfig, Store};

pub use silhouette_crawl::{Histogram, Rate, Report};

/// Reads `store` and renders the report; `decay` and `config` are the crawl's settings.
pub fn render(store: &Store, state: &Path, decay: f64, config: DedupConfig) -> Result<String> {
    Ok(html::page(&Report::read(store, state, decay, config)?))
}

/// `silhouette report`: writes the report of a state or an export (default: STATE/report.html,
/// or OUT.report.html beside an export; `-`: standard output).
pub fn command(
    config: Option<&Path>,
    state: Option<std::path::PathBuf>,
    output: Option<std::path::PathBuf>,
) -> Result<std::process::ExitCode> {
    use std::io::Write;
    let config = crate::config::Config::find(config)?;
    let state = crate::common::state_or_default(&config, state);
    // An export's report goes beside it (`OUT.report.html`).
    let opened = silhouette_crawl::OpenedState::open(&state)?;
    let store = &opened.store;
    let recorded = silhouette_crawl::Recorded::of(store)?;
    let (decay, dedup) = crate::replay::settings(config, &recorded, None, None, None)?;
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
