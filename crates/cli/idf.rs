//! `silhouette idf build PATH... [-o FILE]`: an IDF table from plain-text files.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use silhouette_text::{IdfBuilder, Tokenizer};

use crate::overlap::read_text;

/// The `.txt` files under `path` (itself when it is a file), sorted.
fn text_files(path: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if !path.is_dir() {
        out.push(path.to_owned());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("{}: cannot list", path.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .with_context(|| format!("{}: cannot list", path.display()))?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            text_files(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "txt") {
            out.push(p);
        }
    }
    Ok(())
}

/// Builds the table (one document per file) and writes it to `output` or standard output; a
/// summary goes to standard error.
pub fn build(tokenizer: &str, paths: &[PathBuf], output: Option<&Path>) -> Result<()> {
    let tokenizer: Tokenizer = tokenizer.parse()?;
    let mut files = Vec::new();
    for p in paths {
        text_files(p, &mut files)?;
    }
    let mut builder = IdfBuilder::new(tokenizer);
    for f in &files {
        builder.add_document(&read_text(f)?);
    }
    let table = builder.build();
    let text = table.to_text();
    match output {
        Some(path) => std::fs::write(path, &text)
            .with_context(|| format!("{}: cannot write", path.display()))?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    writeln!(
        std::io::stderr().lock(),
        "idf: {} documents, {} words, tokenizer={tokenizer}",
        builder.documents(),
        table.len()
    )?;
    Ok(())
}
