//! `silhouette dedup`: the crawl's dedup stage over WARC files.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use silhouette_dom::StructureHasher;
use silhouette_text::ContentHasher;

use crate::args::{self, FingerprintFlags};
use crate::common::{EXIT_PARTIAL, crawl_settings};
use crate::crawl::progress::Terminal;
use crate::inputs::{self, Input};

/// Runs `silhouette dedup` over the WARC files `args` names.
pub fn run(
    config: Option<&std::path::Path>,
    (flags, policy): (&FingerprintFlags, &args::PolicyFlags),
    threshold: Option<i64>,
    (output, warc_out, state): (
        Option<std::path::PathBuf>,
        Option<std::path::PathBuf>,
        Option<std::path::PathBuf>,
    ),
    args: &[std::path::PathBuf],
) -> Result<ExitCode> {
    let (config, base, mut crawl) = crawl_settings(config, flags, threshold)?;
    let bits = match config.options().content.as_ref().and_then(|c| c.bits) {
        Some(128) => 128,
        _ => 64,
    };
    crate::replay::ContentFlags::from(policy.clone()).apply(&mut crawl.frontier.dedup, bits)?;
    let mut found = Vec::new();
    let mut warnings = Vec::new();
    for arg in args {
        if arg.as_os_str() == "-" {
            anyhow::bail!("dedup reads WARC files, not standard input");
        }
        inputs::expand_matching(arg, silhouette_crawl::is_warc, &mut found, &mut warnings);
    }
    let files: Vec<std::path::PathBuf> = found
        .into_iter()
        .filter_map(|i| match i {
            Input::File(p) => Some(p),
            // (`expand_matching` makes no URL inputs.)
            Input::Stdin | Input::Url(_) => None,
        })
        .collect();
    let mut err = io::stderr().lock();
    for w in &warnings {
        writeln!(err, "error: {w}")?;
    }
    let content = config.content_hasher(crawl.frontier.dedup.drop_when)?;
    let hasher = StructureHasher::new(silhouette_dom::HasherConfig {
        limits: silhouette_dom::Limits {
            max_text_bytes: silhouette_crawl::text_bytes(
                content.as_deref().map(ContentHasher::config),
            ),
            ..base.hasher.limits
        },
        ..base.hasher
    })?;
    let state = state.map(|dir| {
        let mut params = silhouette_crawl::state_params(&crawl, &hasher, content.as_ref());
        let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
        params.push(("dedup.inputs", names.join("\n")));
        (dir, params)
    });
    drop(err);
    let mut terminal = Terminal::new(true);
    let report = silhouette_crawl::dedup(
        &silhouette_crawl::DedupJob {
            hasher,
            content,
            dedup: crawl.frontier.dedup,
            inputs: files,
            output: output.filter(|p| p.as_os_str() != "-"),
            warc_out,
            max_body: crawl.fetch.max_body_bytes,
            state,
        },
        &mut io::stdout().lock(),
        &mut terminal,
    )?;
    let mut err = io::stderr().lock();
    writeln!(
        err,
        "judged {} pages: {} kept, {} exact duplicates, {} near-duplicates, {} content duplicates; {} records not judged, {} errors",
        report.judged,
        report.kept,
        report.exact,
        report.near,
        report.content,
        report.skipped,
        report.errors
    )?;
    if let Some(path) = &report.warc_file {
        writeln!(err, "wrote {}", path.display())?;
    }
    Ok(if report.errors > 0 || !warnings.is_empty() {
        ExitCode::from(EXIT_PARTIAL)
    } else {
        ExitCode::SUCCESS
    })
}
