//! `silhouette text PATH...`: the main-content text of HTML pages, as the content signal
//! reads it (`corpus::Reader::html_text`, the one parse `fingerprint --content` makes).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use silhouette_text::Tokenizer;

use crate::corpus::{self, Kind, Reader};
use crate::inputs::{self, Input};

/// Prints the main-content text of each page of `paths` to `out` (with `tokenizer`, its
/// words instead, one a line), each after a `==> PATH <==` line when there are several;
/// pages that cannot be read are reported to `err`. Returns how many could not be read.
///
/// # Errors
/// Only a failure to write `out` or `err`.
pub fn run(
    reader: &Reader,
    tokenizer: Option<Tokenizer>,
    paths: &[PathBuf],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u64> {
    let mut problems = 0;
    let mut printed = 0;
    for path in paths {
        let text = match text_of(reader, path, err) {
            Ok(t) => t,
            Err(message) => {
                problems += 1;
                writeln!(err, "error: {message}")?;
                continue;
            }
        };
        if paths.len() > 1 {
            let gap = if printed > 0 { "\n" } else { "" };
            writeln!(out, "{gap}==> {} <==", path.display())?;
        }
        printed += 1;
        match tokenizer {
            Some(t) => t.for_each_word(&text, |w| {
                // (A write error is caught by the next `writeln!`, or by the flush at exit.)
                let _ = writeln!(out, "{w}");
            }),
            None if text.is_empty() || text.ends_with('\n') => write!(out, "{text}")?,
            None => writeln!(out, "{text}")?,
        }
    }
    out.flush()?;
    Ok(problems)
}

/// The main-content text of the page at `path` (`-`: standard input), or a plain-text file
/// as it is; what went wrong, with the path, otherwise.
fn text_of(reader: &Reader, path: &Path, err: &mut dyn Write) -> Result<String, String> {
    let input = if path.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(path.to_owned())
    };
    let name = input.name();
    let kind = match &input {
        Input::Stdin => Kind::Html,
        Input::File(p) => corpus::kind(p),
    };
    if kind == Kind::Warc {
        return Err(format!(
            "{name}: an archive holds many pages; give HTML files (`idf build` reads archives)"
        ));
    }
    let bytes = input
        .read()
        .map_err(|e| format!("{name}: cannot read: {e}"))?;
    let plain = matches!(&input, Input::File(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("txt")));
    if plain {
        return Ok(String::from_utf8_lossy(&bytes).into_owned());
    }
    if let Some(w) = inputs::binary_warning(&name, &bytes) {
        let _ = writeln!(err, "{w}");
    }
    reader
        .html_text(&bytes, None)
        .map_err(|e| format!("{name}: {e}"))
}
