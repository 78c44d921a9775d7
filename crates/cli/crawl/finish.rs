//! What `silhouette crawl` prints when it ends: the state's summary, then this run's — how
//! long it took, what it decided, why it stopped, where its output is — and its exit status.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use silhouette_crawl::RunReport;
use silhouette_crawl::decisions_path;
use silhouette_crawl::{Summary, shell_word};

/// Exit status when some seeds were refused or could not be crawled (the rest was).
pub const EXIT_PARTIAL: u8 = 1;

/// Where a run's output went.
#[derive(Debug)]
pub struct Paths<'a> {
    pub state: &'a Path,
    /// The JSONL output; `None`: standard output.
    pub output: Option<&'a Path>,
}

/// Prints the end of a crawl run to `err` and returns its exit status: the signal's after
/// Ctrl-C or SIGTERM, [`EXIT_PARTIAL`] when a seed was refused or could not be crawled.
pub fn report(
    run: &RunReport,
    s: &Summary,
    paths: &Paths<'_>,
    err: &mut dyn Write,
) -> io::Result<ExitCode> {
    silhouette_crawl::write_summary(s, false, Some(paths.state), err)?;
    print_run(run, s, paths, err)?;
    if s.no_seed_crawled() {
        writeln!(
            err,
            "error: no seed could be crawled ({}): see \"seeds not crawled\" above",
            if s.seeds == 1 {
                "the only one failed"
            } else {
                "every one failed"
            }
        )?;
    }
    Ok(match run.interrupted {
        Some(status) => ExitCode::from(status),
        None if run.bad_seeds > 0 || !s.failed_seeds.is_empty() => ExitCode::from(EXIT_PARTIAL),
        None => ExitCode::SUCCESS,
    })
}

fn print_run(
    run: &RunReport,
    s: &Summary,
    paths: &Paths<'_>,
    err: &mut dyn Write,
) -> io::Result<()> {
    let secs = run.elapsed.as_secs_f64();
    let c = &run.counts;
    let other = c.recorded - c.kept - c.duplicates - c.errors;
    writeln!(
        err,
        "this run: {} URLs recorded in {} ({:.1}/s): kept {}, duplicates {}, errors {}{}",
        c.recorded,
        duration(secs),
        c.recorded as f64 / secs.max(1e-3),
        c.kept,
        c.duplicates,
        c.errors,
        if other > 0 {
            format!(", other {other} (robots.txt, scope, not HTML, …)")
        } else {
            String::new()
        }
    )?;
    let state = shell_word(&paths.state.display().to_string());
    match run.interrupted {
        Some(status) => writeln!(
            err,
            "stopped by {}: {} URLs still queued; interrupted: run the same command again to resume",
            if status == 143 { "SIGTERM" } else { "Ctrl-C" },
            s.queued
        )?,
        None if s.no_seed_crawled() => writeln!(err, "finished: nothing could be crawled")?,
        None if s.deferred > 0 => writeln!(
            err,
            "stopped at the page limit: every URL within it was fetched"
        )?,
        None => writeln!(err, "finished: every URL in scope was fetched")?,
    }
    let output = paths
        .output
        .map_or_else(|| "standard output".to_owned(), |p| p.display().to_string());
    writeln!(
        err,
        "written: {output} (pages), {} (every decision)",
        decisions_path(paths.state).display()
    )?;
    if let Some(w) = &run.warc {
        writeln!(err, "{}", warc_line(w, ""))?;
    }
    if s.no_seed_crawled() {
        return Ok(());
    }
    writeln!(
        err,
        "next: `silhouette stats --clusters {state}` lists every cluster, `silhouette report {state}` writes an HTML report"
    )
}

/// `WARC: 12 pages archived in 2 files{whose} in DIR (FIRST to LAST)`.
pub fn warc_line(w: &silhouette_crawl::WarcWritten, whose: &str) -> String {
    format!(
        "WARC: {} pages archived in {} file{}{whose} in {}{}",
        w.pages,
        w.files.len(),
        if w.files.len() == 1 { "" } else { "s" },
        w.dir.display(),
        match w.files.as_slice() {
            [] => String::new(),
            [one] => format!(" ({one})"),
            [first, .., last] => format!(" ({first} to {last})"),
        }
    )
}

/// `secs` as people read it: 0.4 s, 12.3 s, 5 min 3 s, 2 h 4 min.
fn duration(secs: f64) -> String {
    let whole = secs as u64;
    match whole {
        0..60 => format!("{secs:.1} s"),
        60..3600 => format!("{} min {} s", whole / 60, whole % 60),
        _ => format!("{} h {} min", whole / 3600, whole % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::duration;

    #[test]
    fn durations_read_as_people_say_them() {
        for (secs, expected) in [
            (0.42, "0.4 s"),
            (12.34, "12.3 s"),
            (303.0, "5 min 3 s"),
            (7440.0, "2 h 4 min"),
        ] {
            assert_eq!(duration(secs), expected);
        }
    }
}
