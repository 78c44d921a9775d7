//! `silhouette fingerprint`: structure fingerprints of files and pages named by URL (and, with
//! `--content`, content fingerprints of their main-content text), in parallel, in input order.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use rayon::prelude::*;
use silhouette_dom::{Structure, StructureHasher};
use silhouette_text::{ContentFingerprint, ContentHasher};

use crate::args::{FingerprintArgs, Format};
use crate::inputs::Input;
use crate::web_page::{WebPage, WebPages};

/// Pages fingerprinted in parallel between two writes: bounds memory on huge lists.
const BATCH: usize = 256;

/// What the command computes.
pub struct Hashers<'a> {
    pub structure: &'a StructureHasher,
    /// Set with `--content`: the structure hasher then collects main-content text too.
    pub content: Option<&'a ContentHasher>,
    /// Whether standard input is plain text (`--text`).
    pub stdin_text: bool,
    /// Fetches the inputs that are URLs (set when there are some).
    pub web: Option<&'a WebPages>,
}

/// One page's fingerprints: its structure (none for plain text) and, with `--content`, its
/// content fingerprint (none when it has too little text).
pub struct Page {
    structure: Option<Structure>,
    content: Option<ContentFingerprint>,
}

/// What became of one input: its name, a warning about its bytes, its fingerprints.
type Row = (String, Option<String>, Result<Page, String>);

impl Hashers<'_> {
    /// Whether `input` is plain text rather than HTML.
    fn is_text(&self, input: &Input) -> bool {
        match input {
            Input::Stdin => self.stdin_text,
            Input::File(p) => p.extension().is_some_and(|e| e.eq_ignore_ascii_case("txt")),
            Input::Url(_) => false,
        }
    }

    fn page(
        &self,
        input: &Input,
        bytes: &[u8],
        content_type: Option<&str>,
    ) -> Result<Page, String> {
        if self.is_text(input) {
            let text = String::from_utf8_lossy(bytes);
            return Ok(Page {
                structure: None,
                content: self.content.and_then(|c| c.fingerprint(&text)),
            });
        }
        let structure = self
            .structure
            .hash_with_content_type(bytes, content_type)
            .map_err(|e| e.to_string())?;
        let content = self
            .content
            .zip(structure.text.as_deref())
            .and_then(|(c, text)| c.fingerprint(text));
        Ok(Page {
            structure: Some(structure),
            content,
        })
    }
}

/// Fingerprints `inputs` and writes one row each to `out`; errors go to `err`.
/// Returns how many inputs failed.
pub fn run(
    hashers: &Hashers<'_>,
    inputs: &[Input],
    format: Format,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<usize> {
    let content = hashers.content.is_some();
    if format == Format::Csv {
        let extra = if content {
            ",content_fingerprint,signature"
        } else {
            ""
        };
        writeln!(out, "path,fingerprint,elements{extra}")?;
    }
    let mut failed = 0;
    for batch in inputs.chunks(BATCH) {
        // Pages named by URL are fetched first, one after another (politely, as the crawl
        // fetches); files are read in parallel.
        let fetched: Vec<Option<Result<WebPage, String>>> = batch
            .iter()
            .map(|input| match (input, hashers.web) {
                (Input::Url(url), Some(web)) => Some(web.get(url)),
                _ => None,
            })
            .collect();
        let rows: Vec<Row> = batch
            .par_iter()
            .zip(fetched)
            .map(|(input, fetched)| {
                let name = input.name();
                let mut warning = None;
                let (bytes, content_type) = match fetched {
                    Some(Ok(page)) => (Ok(page.bytes), page.content_type),
                    Some(Err(e)) => (Err(e), None),
                    None => (input.read().map_err(|e| format!("cannot read: {e}")), None),
                };
                let result = bytes.and_then(|bytes| {
                    warning = crate::inputs::binary_warning(&name, &bytes);
                    hashers.page(input, &bytes, content_type.as_deref())
                });
                (name, warning, result)
            })
            .collect();
        for (name, warning, result) in rows {
            if let Some(w) = warning {
                writeln!(err, "{w}")?;
            }
            match result {
                Ok(page) => {
                    if let Some(t) = page.structure.as_ref().and_then(|s| s.truncated) {
                        writeln!(
                            err,
                            "warning: {name}: fingerprint covers part of the page only: {t}"
                        )?;
                    }
                    // (A content fingerprint reads the start of a long text by design,
                    // `[content] max-text-bytes`: no warning for that.)
                    write_row(out, format, &name, &page, content)?;
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

fn write_row(
    out: &mut dyn Write,
    format: Format,
    name: &str,
    page: &Page,
    content: bool,
) -> io::Result<()> {
    let (fingerprint, elements) = page
        .structure
        .as_ref()
        .map_or((String::new(), String::new()), |s| {
            (s.fingerprint.to_string(), s.elements.to_string())
        });
    let content_fp = page.content.map_or(String::new(), |c| c.hash.to_string());
    let signature = page
        .content
        .and_then(|c| c.signature)
        .map_or(String::new(), |s| s.to_string());
    match format {
        Format::Text => {
            let dash = |s: &str| {
                if s.is_empty() {
                    "-".to_owned()
                } else {
                    s.to_owned()
                }
            };
            write!(out, "{}  {:>6}  ", dash(&fingerprint), dash(&elements))?;
            if content {
                write!(out, "{}  {}  ", dash(&content_fp), dash(&signature))?;
            }
            writeln!(out, "{name}")
        }
        Format::Csv => {
            write!(out, "{},{fingerprint},{elements}", csv_field(name))?;
            if content {
                write!(out, ",{content_fp},{signature}")?;
            }
            writeln!(out)
        }
        Format::Json => {
            let s = page.structure.as_ref();
            let mut row = serde_json::json!({
                "path": name,
                "fingerprint": s.map(|s| s.fingerprint.to_string()),
                "elements": s.map(|s| s.elements),
                "truncated": s.and_then(|s| s.truncated.map(|t| t.kind())),
                "encoding": s.map(|s| s.encoding.name()),
            });
            if content {
                row["content_fingerprint"] = page.content.map(|c| c.hash.to_string()).into();
                row["signature"] = page
                    .content
                    .and_then(|c| c.signature)
                    .map(|s| s.to_string())
                    .into();
                row["words"] = page.content.map(|c| c.words).into();
            }
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

/// `silhouette fingerprint`: a row per input; exit status 1 when some inputs failed.
pub fn command(config: Option<&Path>, args: FingerprintArgs) -> Result<ExitCode> {
    let FingerprintArgs {
        flags,
        format,
        content,
        bits,
        text,
        files_from,
        paths,
    } = args;
    let config = crate::common::config_with(config, &flags, None)?;
    let mut settings = config.settings()?;
    let content = if content || bits.is_some() {
        let overrides = crate::config::content::ContentOverrides {
            bits: bits.as_deref().and_then(|b| b.parse().ok()),
        };
        let content = config.content(overrides)?;
        settings.hasher.limits.max_text_bytes = silhouette_crawl::text_bytes(Some(&content));
        Some(ContentHasher::new(content)?)
    } else {
        None
    };
    let hasher = StructureHasher::new(settings.hasher)?;
    let mut inputs = Vec::new();
    let mut warnings = Vec::new();
    for path in &paths {
        crate::inputs::expand(path, &mut inputs, &mut warnings);
    }
    if let Some(list) = &files_from {
        inputs.extend(crate::inputs::read_list(list)?);
    }
    let urls = inputs.iter().filter_map(|i| match i {
        Input::Url(u) => Some(u.clone()),
        _ => None,
    });
    let web = crate::common::web_pages(&config, urls.collect())?;
    let hashers = Hashers {
        structure: &hasher,
        content: content.as_ref(),
        stdin_text: text,
        web: web.as_ref(),
    };
    if paths.is_empty() && files_from.is_none() {
        anyhow::bail!(
            "nothing to fingerprint: give PATH arguments, `-` for standard input, or --files-from LIST"
        );
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    // Not locked across the run: a worker thread that writes to standard error (a
    // parser panic's message, caught by `silhouette-dom`) would wait for the lock forever.
    let mut err = io::stderr();
    for w in &warnings {
        writeln!(err, "error: {w}")?;
    }
    let failed =
        run(&hashers, &inputs, format, &mut out, &mut err).context("cannot write the output")?;
    out.flush().context("cannot write the output")?;
    Ok(if failed > 0 || !warnings.is_empty() {
        ExitCode::from(crate::common::EXIT_PARTIAL)
    } else {
        ExitCode::SUCCESS
    })
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
