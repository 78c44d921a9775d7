//! `silhouette crawl`: the settings from the configuration and the flags, then one worker of
//! a shared crawl (`--redis`) or a crawl of its own, and what it prints when it ends.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use silhouette_crawl::{CrawlJob, PagesOutput};

use crate::args::CrawlArgs;
use crate::common::{crawl_hasher, overrides};
use crate::config::Config;
use crate::crawl;
use crate::crawl::progress::Terminal;

/// Runs `silhouette crawl` with `args`, the configuration file `config` if given.
pub fn run(config: Option<&Path>, args: CrawlArgs) -> Result<ExitCode> {
    let CrawlArgs {
        flags,
        threshold,
        settings: crawl_flags,
        state,
        output,
        add_seeds,
        shared,
        seeds,
    } = args;
    let config = Config::find(config)?
        .with(&shared)
        .with(&*crawl_flags)
        .with(&overrides(&flags, threshold));
    let cluster = config.cluster()?;
    let base = config.settings()?;
    let crawl = config.crawl(base.threshold)?;
    let content = config.content_hasher(crawl.frontier.dedup.drop_when)?;
    let hasher = crawl_hasher(&base, content.as_deref())?;
    let warc = config.warc()?;
    if let Some(cluster) = cluster {
        if warc.as_ref().is_some_and(|w| w.cdxj) {
            anyhow::bail!(
                "--warc-cdxj (output.warc-cdxj) is not supported by shared crawls (--redis) yet: index the workers' files with cdxj-indexer"
            );
        }
        let job = silhouette_crawl::WorkerJob {
            cluster,
            settings: crawl,
            hasher,
            content,
            seeds: Vec::new(),
            warc,
            stop_on_signals: true,
        };
        return crawl::worker::command(job, &seeds);
    }
    let state_dir = state.unwrap_or_else(|| config.state_dir());
    let output = match output {
        Some(p) if p.as_os_str() == "-" => None,
        Some(p) => Some(p),
        None => Some(silhouette_crawl::default_output(&state_dir)),
    };
    if seeds.is_empty() && !state_dir.join("crawl.sqlite").is_file() {
        anyhow::bail!(
            "no seeds: give URLs or seeds files (no crawl state in {} to resume)",
            state_dir.display()
        );
    }
    let (seeds, notes) = silhouette_crawl::seeds_from_args(&seeds)?;
    for note in notes {
        writeln!(io::stderr(), "{note}")?;
    }
    let output_path = output.clone();
    let mut terminal = Terminal::new(false);
    let report = silhouette_crawl::run(
        CrawlJob {
            settings: crawl,
            hasher,
            content,
            state_dir: state_dir.clone(),
            output: Some(output.map_or_else(
                || PagesOutput::Writer(Box::new(io::stdout())),
                PagesOutput::File,
            )),
            seeds,
            add_seeds,
            warc,
            stop_on_signals: true,
        },
        &mut terminal,
    )?;
    terminal.finish();
    let store = silhouette_frontier::Store::open_existing(&state_dir)?;
    let summary = silhouette_crawl::summarize(&store, false)?;
    let paths = crawl::finish::Paths {
        state: &state_dir,
        output: output_path.as_deref(),
    };
    Ok(crawl::finish::report(
        &report,
        &summary,
        &paths,
        &mut io::stderr().lock(),
    )?)
}
