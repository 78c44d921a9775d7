//! `silhouette fingerprint`: structure fingerprints of files, in parallel, in input order.

use std::io::{self, Write};

use anyhow::Result;
use rayon::prelude::*;
use silhouette_dom::{Structure, StructureHasher};

use crate::args::Format;
use crate::inputs::Input;

/// Pages fingerprinted in parallel between two writes: bounds memory on huge lists.
const BATCH: usize = 256;

/// What became of one input: its name, a warning about its bytes, its structure.
type Row = (String, Option<String>, Result<Structure, String>);

/// Fingerprints `inputs` and writes one row each to `out`; errors go to `err`.
/// Returns how many inputs failed.
pub fn run(
    hasher: &StructureHasher,
    inputs: &[Input],
    format: Format,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<usize> {
    if format == Format::Csv {
        writeln!(out, "path,fingerprint,elements")?;
    }
    let mut failed = 0;
    for batch in inputs.chunks(BATCH) {
        let rows: Vec<Row> = batch
            .par_iter()
            .map(|input| {
                let name = input.name();
                let mut warning = None;
                let result = input
                    .read()
                    .map_err(|e| format!("cannot read: {e}"))
                    .and_then(|bytes| {
                        warning = crate::inputs::binary_warning(&name, &bytes);
                        hasher.hash(&bytes).map_err(|e| e.to_string())
                    });
                (name, warning, result)
            })
            .collect();
        for (name, warning, result) in rows {
            if let Some(w) = warning {
                writeln!(err, "{w}")?;
            }
            match result {
                Ok(s) => {
                    if let Some(t) = s.truncated {
                        writeln!(
                            err,
                            "warning: {name}: fingerprint covers part of the page only: {t}"
                        )?;
                    }
                    write_row(out, format, &name, &s)?;
                }
                Err(e) => {
                    failed += 1;
                    writeln!(err, "error: {name}: {e}")?;
                }
            }
        }
        out.flush()?;
    }
    Ok(failed)
}

fn write_row(out: &mut dyn Write, format: Format, name: &str, s: &Structure) -> io::Result<()> {
    match format {
        Format::Text => writeln!(out, "{}  {:>6}  {name}", s.fingerprint, s.elements),
        Format::Csv => writeln!(out, "{},{},{}", csv_field(name), s.fingerprint, s.elements),
        Format::Json => {
            let row = serde_json::json!({
                "path": name,
                "fingerprint": s.fingerprint.to_string(),
                "elements": s.elements,
                "truncated": s.truncated.map(|t| t.kind()),
                "encoding": s.encoding.name(),
            });
            writeln!(out, "{row}")
        }
    }
}

/// RFC 4180: quote a field holding a comma, a quote or a line break; double the quotes.
fn csv_field(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\"")).into()
    } else {
        s.into()
    }
}

#[cfg(test)]
mod tests {
    use super::csv_field;

    #[test]
    fn csv_quoting() {
        for (input, expected) in [
            ("a/b.html", "a/b.html"),
            ("a,b.html", "\"a,b.html\""),
            ("say \"hi\".html", "\"say \"\"hi\"\".html\""),
            ("line\nbreak", "\"line\nbreak\""),
        ] {
            assert_eq!(csv_field(input), expected);
        }
    }
}
