//! The `silhouette` binary: the only place that reads files and the environment and prints.

mod args;
mod common;
mod compare;
mod config;
mod corpus;
mod crawl;
mod dedup;
mod demo;
mod fingerprint;
mod idf;
mod inputs;
mod overlap;
mod page_text;
mod replay;
mod report;
mod web_page;

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

use crate::args::{Cli, Command, IdfCommand};

/// Exit status for a usage or configuration error (clap uses 2 as well).
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    log_to_stderr(cli.verbose);
    match run(cli) {
        Ok(code) => code,
        // `silhouette fingerprint … | head`: the reader has gone, stop quietly (like cat).
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // A second Ctrl-C: the crawl ended at once, with the first signal's status.
            if let Some(silhouette_crawl::Error::Interrupted { status, .. }) = e.downcast_ref() {
                let _ = writeln!(io::stderr().lock(), "{e}");
                return ExitCode::from(*status);
            }
            // One line per error: the chain joined, most general first.
            let msg = one_line(&e);
            let _ = writeln!(io::stderr().lock(), "error: {msg}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Fingerprint(args) => fingerprint::command(cli.config.as_deref(), args),
        Command::Crawl(args) => crawl::command::run(cli.config.as_deref(), *args),
        Command::Dedup {
            flags,
            threshold,
            output,
            warc_out,
            state,
            policy,
            inputs,
        } => dedup::run(
            cli.config.as_deref(),
            (&flags, &policy),
            threshold,
            (output, warc_out, state),
            &inputs,
        ),
        Command::Stats {
            state,
            shared,
            clusters,
            format,
        } => crawl::stats::command(cli.config.as_deref(), state, &shared, clusters, format),
        Command::Export { shared, output } => {
            crawl::export::command(cli.config.as_deref(), &shared, &output)
        }
        Command::Replay {
            state,
            decay,
            threshold,
            min_similarity,
            from_scratch,
            why,
            policy,
        } => replay::command(
            cli.config.as_deref(),
            state,
            (decay, threshold, min_similarity),
            (from_scratch, why.as_deref()),
            policy,
        ),
        Command::Report { state, output } => report::command(cli.config.as_deref(), state, output),
        Command::Demo {
            state: _,
            serve: true,
            port,
        } => demo::command::serve(port),
        Command::Demo {
            state,
            serve: false,
            port,
        } => demo::command::run(cli.config.as_deref(), state, port),
        Command::Overlap {
            k,
            g,
            tokenizer,
            a,
            b,
        } => overlap::command(cli.config.as_deref(), &tokenizer, (k, g), (&a, &b)),
        Command::Text { words, paths } => page_text::command(cli.config.as_deref(), words, &paths),
        Command::Idf {
            command:
                IdfCommand::Build {
                    tokenizer,
                    output,
                    paths,
                },
        } => idf::command(cli.config.as_deref(), &tokenizer, &paths, output.as_deref()),
        Command::Compare {
            flags,
            threshold,
            paths,
            a,
            b,
        } => compare::command(cli.config.as_deref(), &flags, threshold, paths, a, b),
    }
}

/// The libraries' `tracing` events on stderr: none by default, `-v` info and warnings, `-vv`
/// debug; `RUST_LOG` (e.g. `silhouette_fetch=debug`) wins when set.
fn log_to_stderr(verbose: u8) {
    let level = match verbose {
        0 if std::env::var_os("RUST_LOG").is_none() => return,
        0 | 1 => "warn,silhouette_fetch=info",
        _ => "warn,silhouette_fetch=debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(io::stderr)
        .with_ansi(io::IsTerminal::is_terminal(&io::stderr()))
        .with_target(false)
        .try_init();
}

/// Whether writing the output failed because its reader went away (a closed pipe).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    let broken = |e: &io::Error| e.kind() == io::ErrorKind::BrokenPipe;
    e.chain().any(|c| {
        // The crawl library's `Io` is transparent: its io::Error is not in the chain.
        c.downcast_ref::<io::Error>().is_some_and(broken)
            || matches!(c.downcast_ref(), Some(silhouette_crawl::Error::Io(e)) if broken(e))
    })
}

/// The error and its causes on one line, most general first; a cause whose text the line
/// already holds (libraries often print their source) is not repeated.
fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line.replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::{is_broken_pipe, one_line};

    #[test]
    fn a_closed_pipe_is_found_through_the_crawl_librarys_error() {
        let pipe = || std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        for (e, expected) in [
            (anyhow::Error::new(pipe()), true),
            (anyhow::Error::new(pipe()).context("writing"), true),
            (
                anyhow::Error::new(silhouette_crawl::Error::Io(pipe())),
                true,
            ),
            (
                anyhow::Error::new(silhouette_crawl::Error::Io(std::io::Error::other("full"))),
                false,
            ),
            (anyhow::anyhow!("no pipe"), false),
        ] {
            assert_eq!(is_broken_pipe(&e), expected, "{e:#}");
        }
    }

    #[test]
    fn causes_are_not_repeated() {
        let io = std::io::Error::other("disk I/O error");
        let e = anyhow::Error::new(io)
            .context("crawl state s/crawl.sqlite: disk I/O error")
            .context("cannot save");
        assert_eq!(
            one_line(&e),
            "cannot save: crawl state s/crawl.sqlite: disk I/O error"
        );
        let e = anyhow::anyhow!("two\nlines").context("outer");
        assert_eq!(one_line(&e), "outer: two lines");
    }
}
