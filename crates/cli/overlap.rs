//! `silhouette overlap A B`: the passages of one text copied in another (plain text, or an
//! HTML page's main-content text).

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use silhouette_text::{Tokenizer, Winnowing};

use crate::corpus::Reader;

/// Characters of a passage printed before it is cut with `…`.
const SHOWN: usize = 100;

/// `silhouette overlap A B`: prints the winnowed overlap of two documents.
pub fn command(
    config: Option<&Path>,
    tokenizer: &str,
    (k, g): (usize, usize),
    (a, b): (&Path, &Path),
) -> Result<std::process::ExitCode> {
    let reader = crate::common::corpus_reader(&crate::config::Config::find(config)?)?;
    run(
        &reader,
        tokenizer,
        k,
        g,
        a,
        b,
        &mut std::io::stdout().lock(),
    )?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// Prints the passages of `a` copied in `b` (each a plain-text file, `-` for standard input,
/// or an HTML page: its main-content text): word ranges in both (0-based, end excluded) and
/// the words, then the share of `a` they cover.
pub fn run(
    reader: &Reader,
    tokenizer: &str,
    k: usize,
    g: usize,
    a: &Path,
    b: &Path,
    out: &mut dyn Write,
) -> Result<()> {
    let tokenizer: Tokenizer = tokenizer.parse()?;
    let winnowing = Winnowing::new(k, g)?;
    let wa = tokenizer.tokenize(&reader.document(a)?);
    let wb = tokenizer.tokenize(&reader.document(b)?);
    writeln!(
        out,
        "A: {} ({} words)  B: {} ({} words)  tokenizer={tokenizer} k={k} g={g}",
        a.display(),
        wa.len(),
        b.display(),
        wb.len()
    )?;
    let passages = winnowing.overlap(&wa, &wb);
    let mut copied = 0;
    for p in &passages {
        copied += p.len;
        let words = wa[p.a..p.a + p.len].join(" ");
        let shown = match words.char_indices().nth(SHOWN) {
            Some((i, _)) => format!("{}…", &words[..i]),
            None => words,
        };
        writeln!(
            out,
            "A {}..{}  B {}..{}  {} words: {shown}",
            p.a,
            p.a + p.len,
            p.b,
            p.b + p.len,
            p.len
        )?;
    }
    #[allow(clippy::cast_precision_loss, reason = "a percentage for people")]
    let share = if wa.is_empty() {
        0.0
    } else {
        100.0 * copied as f64 / wa.len() as f64
    };
    writeln!(
        out,
        "{} passages, {copied} of A's {} words ({share:.1}%) copied in B",
        passages.len(),
        wa.len()
    )?;
    Ok(())
}
