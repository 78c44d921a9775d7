//! `silhouette stats`: the summary of a crawl's state, or of a shared crawl on Redis.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use crate::args::StatsFormat;
use crate::config::{ClusterFlags, Config};
use crate::crawl;

/// Prints the summary (text or JSON) of `state`, or of the shared crawl `shared` names.
pub fn command(
    config: Option<&Path>,
    state: Option<PathBuf>,
    shared: &ClusterFlags,
    clusters: bool,
    format: StatsFormat,
) -> Result<ExitCode> {
    let config = Config::find(config)?.with(shared);
    if let Some(c) = config.cluster()? {
        let stats = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(async {
                silhouette_redis::SharedCrawl::attach(&c.url, &c.crawl)
                    .await?
                    .stats()
                    .await
            })?;
        crawl::worker::print_stats(&stats, &mut io::stdout().lock())?;
        return Ok(ExitCode::SUCCESS);
    }
    let state = state.unwrap_or_else(|| config.state_dir());
    let store = silhouette_frontier::Store::open_existing(&state)?;
    let summary = silhouette_crawl::summarize(&store, clusters)?;
    let mut out = io::stdout().lock();
    match format {
        StatsFormat::Text => {
            silhouette_crawl::write_summary(&summary, clusters, Some(&state), &mut out)?;
        }
        StatsFormat::Json => {
            serde_json::to_writer(&mut out, &summary)?;
            writeln!(out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
