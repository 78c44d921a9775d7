//! `silhouette overlap A B`: the passages of one plain text copied in another.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use silhouette_text::{Tokenizer, Winnowing};

use crate::inputs::Input;

/// Characters of a passage printed before it is cut with `…`.
const SHOWN: usize = 100;

/// Reads a plain-text file (`-`: standard input), invalid UTF-8 replaced.
pub fn read_text(path: &Path) -> Result<String> {
    let input = if path.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(path.to_owned())
    };
    let bytes = input
        .read()
        .with_context(|| format!("{}: cannot read", input.name()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Prints the passages of `a` copied in `b`: word ranges in both (0-based, end excluded) and
/// the words, then the share of `a` they cover.
pub fn run(
    tokenizer: &str,
    k: usize,
    g: usize,
    a: &Path,
    b: &Path,
    out: &mut dyn Write,
) -> Result<()> {
    let tokenizer: Tokenizer = tokenizer.parse()?;
    let winnowing = Winnowing::new(k, g)?;
    let wa = tokenizer.tokenize(&read_text(a)?);
    let wb = tokenizer.tokenize(&read_text(b)?);
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
