//! `silhouette idf build PATH... [-o FILE]`: an IDF table from a corpus: plain-text files,
//! HTML pages and WARC archives ([`crate::corpus`]), one document each page.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use silhouette_text::{IdfBuilder, Tokenizer};

use crate::corpus::{self, Reader};

/// `silhouette idf build`: writes the IDF table of `paths`; exit status 1 when some could
/// not be read.
pub fn command(
    config: Option<&Path>,
    tokenizer: &str,
    paths: &[PathBuf],
    output: Option<&Path>,
) -> Result<std::process::ExitCode> {
    let reader = crate::common::corpus_reader(&crate::config::Config::find(config)?)?;
    let problems = build(&reader, tokenizer, paths, output, &mut std::io::stderr())?;
    Ok(if problems > 0 {
        std::process::ExitCode::from(crate::common::EXIT_PARTIAL)
    } else {
        std::process::ExitCode::SUCCESS
    })
}

/// Builds the table (one document per text file, HTML page or archived HTML page) and writes
/// it to `output` or standard output; a summary and every document that could not be read go
/// to `err`. Returns how many could not be read (the table is built from the rest).
///
/// # Errors
/// A bad tokenizer name, no documents at all, a file that cannot be read, an output that
/// cannot be written.
pub fn build(
    reader: &Reader,
    tokenizer: &str,
    paths: &[PathBuf],
    output: Option<&Path>,
    err: &mut dyn Write,
) -> Result<u64> {
    let tokenizer: Tokenizer = tokenizer.parse()?;
    if paths.iter().any(|p| p.as_os_str() == "-") {
        anyhow::bail!("idf build reads files and directories, not standard input");
    }
    let mut warnings = Vec::new();
    let files = corpus::files(paths, &mut warnings)?;
    for w in &warnings {
        writeln!(err, "error: {w}")?;
    }
    let mut builder = IdfBuilder::new(tokenizer);
    let mut reported = Ok(());
    let counts = reader.each_document(
        &files,
        &mut |_, text| builder.add_document(text),
        &mut |message| {
            if reported.is_ok() {
                reported = writeln!(err, "error: {message}");
            }
        },
    )?;
    reported?;
    if counts.documents() == 0 {
        anyhow::bail!(
            "no documents in {}: give .txt, .html or .warc(.gz) files, or directories holding them",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let table = builder.build();
    let text = table.to_text();
    match output {
        Some(path) => std::fs::write(path, &text)
            .with_context(|| format!("{}: cannot write", path.display()))?,
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .context("cannot write the table")?,
    }
    writeln!(
        err,
        "idf: {} documents ({} text files, {} HTML pages, {} pages from archives), {} words, tokenizer={tokenizer}",
        builder.documents(),
        counts.texts,
        counts.pages,
        counts.archived,
        table.len()
    )?;
    Ok(counts.problems + warnings.len() as u64)
}
