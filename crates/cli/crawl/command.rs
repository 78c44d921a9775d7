//! `silhouette crawl`: the settings from the configuration and the flags, then one worker of
//! a shared crawl (`--redis`) or a crawl of its own, and what it prints when it ends.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use silhouette_crawl::{CrawlJob, PagesOutput};

use crate::args::CrawlArgs;
use crate::crawl::progress::Terminal;
use crate::settings::{self, Overrides, Settings};
use crate::{
    cluster_settings, crawl, crawl_content, crawl_flags, crawl_hasher, crawl_settings,
    warc_settings,
};

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
    let mut options = settings::Options::find(config)?;
    let cluster = cluster_settings::resolve(options.cluster.as_ref(), &shared)?;
    // (Settings::resolve names --threshold, --decay and --features itself.)
    let given = crawl_flags.apply(&mut options);
    let overrides = Overrides {
        decay: flags.decay,
        features: flags.features.clone(),
        threshold,
    };
    let named = |e| crawl_flags::name_the_flag(e, &given);
    let base = Settings::resolve(&options, &overrides).map_err(named)?;
    let crawl = crawl_settings::resolve(&options, base.threshold).map_err(named)?;
    let content = crawl_content(&options, crawl.frontier.dedup.drop_when).map_err(named)?;
    let hasher = crawl_hasher(&base, content.as_deref())?;
    let warc = warc_settings::resolve(&options).map_err(named)?;
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
    let state_dir = state.unwrap_or_else(|| crawl_settings::state_dir(&options));
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
