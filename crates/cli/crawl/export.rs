//! `silhouette export`: a shared crawl's records as JSONL.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::config::{ClusterFlags, Config};

/// Writes (or completes) `output` with the records of the shared crawl `shared` names.
pub fn command(config: Option<&Path>, shared: &ClusterFlags, output: &Path) -> Result<ExitCode> {
    let c = Config::find(config)?
        .with(shared)
        .cluster()?
        .context("export reads a shared crawl: give --redis URL --crawl NAME")?;
    let (written, before) = silhouette_crawl::export_shared(&c.url, &c.crawl, output)?;
    writeln!(
        io::stderr(),
        "{}: {written} records written ({before} were there before)",
        output.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
