//! `silhouette crawl --redis URL --crawl NAME`: one worker of a shared crawl, and what it
//! prints.

use std::io::Write;

use anyhow::Result;
use silhouette_crawl::{SharedStats, WorkerJob};

use crate::crawl::finish::warc_line;
use crate::crawl::progress::Terminal;

/// Prints the summary of a shared crawl (as `stats` does).
pub fn print_stats(stats: &SharedStats, out: &mut impl Write) -> Result<()> {
    let total: u64 = stats.decisions.values().sum();
    writeln!(
        out,
        "shared crawl: {total} pages recorded on {} hosts",
        stats.hosts
    )?;
    for (decision, n) in &stats.decisions {
        writeln!(out, "  {decision:<18} {n}")?;
    }
    if stats.out_of_order > 0 {
        writeln!(
            out,
            "  {} of them judged out of the canonical order (their fetch was stuck; `out_of_order` in their records)",
            stats.out_of_order
        )?;
    }
    writeln!(
        out,
        "queued {}, leased {} (leases outstanding), seen {}, workers alive {}",
        stats.queued, stats.leased, stats.seen, stats.workers_alive
    )?;
    Ok(())
}

/// `silhouette crawl --redis URL --crawl NAME [SEEDS]`: runs a worker, prints the shared
/// summary; the exit status as for a local crawl.
pub fn command(job: WorkerJob, seeds: &[String]) -> Result<std::process::ExitCode> {
    let (seeds, notes) = silhouette_crawl::seeds_from_args(seeds)?;
    let mut stderr = std::io::stderr();
    for note in notes {
        writeln!(stderr, "{note}")?;
    }
    // A worker shows no progress line (its share of the crawl is not the crawl's).
    let mut terminal = Terminal::new(false);
    let done = silhouette_crawl::run_worker(WorkerJob { seeds, ..job }, &mut terminal)?;
    terminal.finish();
    let report = &done.run;
    if let Some(w) = &report.warc {
        writeln!(stderr, "{}", warc_line(w, " of this worker"))?;
    }
    if report.fetched > 0 {
        let (trips, dedup_trips) = done.round_trips;
        writeln!(
            stderr,
            "worker {}: {} pages, {:.1} Redis round trips per page ({:.1} for dedup, {} judged again after another worker's decision)",
            done.worker,
            report.fetched,
            trips as f64 / report.fetched as f64,
            dedup_trips as f64 / report.fetched as f64,
            done.judged_again
        )?;
    }
    print_stats(&done.stats, &mut stderr.lock())?;
    if let Some(status) = report.interrupted {
        writeln!(
            stderr,
            "interrupted: this worker's leases are back in the shared crawl; run a worker again to go on"
        )?;
        return Ok(std::process::ExitCode::from(status));
    }
    Ok(if report.bad_seeds > 0 {
        std::process::ExitCode::from(1)
    } else {
        std::process::ExitCode::SUCCESS
    })
}
