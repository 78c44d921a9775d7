//! `silhouette demo`: serves the built-in site on loopback, crawls it, shows what was kept.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::common::crawl_hasher;
use crate::config::Config;
use crate::crawl::progress::Terminal;
use crate::demo;

/// Runs `silhouette demo`: serves the site, crawls it, prints the templates kept.
pub fn run(
    config: Option<&std::path::Path>,
    state: Option<std::path::PathBuf>,
    port: Option<u16>,
) -> Result<ExitCode> {
    let config = Config::find(config)?;
    let base = config.settings()?;
    let mut crawl = config.crawl(base.threshold)?;
    let content = config.content_hasher(crawl.frontier.dedup.drop_when)?;
    // The demo server is local: a short interval keeps the demo quick.
    let interval = std::time::Duration::from_millis(20);
    crawl.fetch.host_request_interval = Some(
        crawl
            .fetch
            .host_request_interval
            .map_or(interval, |i| i.min(interval)),
    );
    if let Some(dir) = &state
        && port.is_none()
        && dir.join("crawl.sqlite").is_file()
    {
        anyhow::bail!(
            "{} already holds a crawl state, from a demo site on another port: give a new --state DIR (or --port PORT, the port of that demo, to resume it)",
            dir.display()
        );
    }
    let server = demo::server::start(port.unwrap_or(0))?;
    let temp;
    let kept = state.is_some();
    let (state_dir, where_) = match state {
        Some(dir) => {
            let shown = format!("state in {}", dir.display());
            (dir, shown)
        }
        None => {
            temp = tempfile::tempdir().context("cannot create a temporary state directory")?;
            (
                temp.path().to_path_buf(),
                "state in a temporary directory, deleted at the end (--state DIR keeps it)"
                    .to_owned(),
            )
        }
    };
    let seed = format!("http://{}/", server.addr);
    let mut err = io::stderr().lock();
    writeln!(
        err,
        "demo site at {seed} (templates: home, journal, articles, products, listings, an endless calendar, help, soft-404s, broken pages)"
    )?;
    writeln!(
        err,
        "crawling it with decay = {}, threshold k = {} bits, on-duplicate = {}; {where_}",
        base.hasher.decay, base.threshold, crawl.frontier.dedup.on_duplicate,
    )?;
    drop(err);
    let seeds = vec![silhouette_crawl::Seed {
        url: seed,
        origin: "demo".into(),
    }];
    let hasher = crawl_hasher(&base, content.as_deref())?;
    let job = silhouette_crawl::CrawlJob {
        content,
        stop_on_signals: true,
        ..silhouette_crawl::CrawlJob::new(crawl, hasher, &state_dir, seeds)
    };
    // Quiet: the demo prints its own summary.
    let report = silhouette_crawl::run(job, &mut Terminal::new(true))?;
    drop(server);
    let store = silhouette_frontier::Store::open_existing(&state_dir)?;
    let mut rows = demo::TemplateRows::new();
    store.records(None, |r| {
        let row = rows.entry(demo::template(&r.url)).or_default();
        row.0 += 1;
        match r.page.decision {
            silhouette_frontier::Decision::Kept => row.1 += 1,
            silhouette_frontier::Decision::NearDuplicate
            | silhouette_frontier::Decision::ExactDuplicate => row.2 += 1,
            _ => row.3 += 1,
        }
    })?;
    let mut out = io::stdout().lock();
    demo::print_templates(&rows, &mut out)?;
    writeln!(out)?;
    let kept_state = kept.then_some(state_dir.as_path());
    silhouette_crawl::write_summary(
        &silhouette_crawl::summarize(&store, false)?,
        false,
        kept_state,
        &mut out,
    )?;
    Ok(report.interrupted.map_or(ExitCode::SUCCESS, ExitCode::from))
}

/// `silhouette demo --serve`: serves the demo site on 127.0.0.1 until Ctrl-C.
pub fn serve(port: Option<u16>) -> Result<ExitCode> {
    let server = demo::server::start(port.unwrap_or(0))?;
    writeln!(
        io::stderr(),
        "serving the demo site at http://{}/ (Ctrl-C to stop)",
        server.addr
    )?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(tokio::signal::ctrl_c())?;
    Ok(ExitCode::SUCCESS)
}
