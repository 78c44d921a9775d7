//! `silhouette text PATH...`: the main-content text of HTML pages, as the content signal
//! reads it (`corpus::Reader`, the one parse `fingerprint --content` makes, then the start a
//! fingerprint reads: `[content] max-text-bytes`), or the words the `[content]` tokenizer cuts
//! it into.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use silhouette_text::ContentConfig;

use crate::corpus::{self, Kind, Reader};
use crate::inputs::{self, Input};
use crate::web_page::{WebPages, url_of};

/// Where the texts go: each after a `==> NAME <==` line when there may be several.
struct Printer<'a> {
    out: &'a mut dyn Write,
    content: &'a ContentConfig,
    words: bool,
    named: bool,
    printed: usize,
}

impl Printer<'_> {
    fn print(&mut self, name: &str, text: &str) -> std::io::Result<()> {
        if self.named {
            let gap = if self.printed > 0 { "\n" } else { "" };
            writeln!(self.out, "{gap}==> {name} <==")?;
        }
        self.printed += 1;
        let text = self.content.text_start(text);
        match self.words.then_some(self.content.tokenizer) {
            Some(t) => {
                let mut written = Ok(());
                t.for_each_word(text, |w| {
                    if written.is_ok() {
                        written = writeln!(self.out, "{w}");
                    }
                });
                written
            }
            None if text.is_empty() || text.ends_with('\n') => write!(self.out, "{text}"),
            None => writeln!(self.out, "{text}"),
        }
    }
}

/// Prints the main-content text of each page of `paths` to `out`, as far as a fingerprint of
/// `content` reads it (with `words`, the words its tokenizer cuts it into, one a line), each
/// after a `==> NAME <==` line when there are several (an archive's pages are named by file,
/// offset and URL); pages that cannot be read are reported to `err`. `web` fetches the paths that are URLs. Returns how many could not be read.
///
/// # Errors
/// Only a failure to write `out` or `err`.
pub fn run(
    reader: &Reader,
    web: Option<&WebPages>,
    (content, words): (&ContentConfig, bool),
    paths: &[PathBuf],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u64> {
    let named = paths.len() > 1 || paths.iter().any(|p| is_archive(p));
    let mut printer = Printer {
        out,
        content,
        words,
        named,
        printed: 0,
    };
    let mut problems = 0;
    for path in paths {
        if is_archive(path) {
            let mut written = Ok(());
            let mut reported = Ok(());
            let read = reader.each_document(
                std::slice::from_ref(path),
                &mut |name, text| {
                    if written.is_ok() {
                        written = printer.print(name, text);
                    }
                },
                &mut |message| {
                    if reported.is_ok() {
                        reported = writeln!(err, "error: {message}");
                    }
                },
            );
            written?;
            reported?;
            match read {
                Ok(counts) => problems += counts.problems,
                Err(e) => {
                    problems += 1;
                    writeln!(err, "error: {e:#}")?;
                }
            }
            continue;
        }
        match text_of(reader, web, path, err) {
            Ok(text) => printer.print(&path.display().to_string(), &text)?,
            Err(message) => {
                problems += 1;
                writeln!(err, "error: {message}")?;
            }
        }
    }
    printer.out.flush()?;
    Ok(problems)
}

/// Whether `path` names a WARC archive (`*.warc`, `*.warc.gz`).
fn is_archive(path: &Path) -> bool {
    path.as_os_str() != "-" && url_of(path).is_none() && corpus::kind(path) == Kind::Warc
}

/// The main-content text of the page at `path` (`-`: standard input; a URL: fetched with
/// `web`), or a plain-text file (`*.txt`) as it is; what went wrong, with the path,
/// otherwise.
fn text_of(
    reader: &Reader,
    web: Option<&WebPages>,
    path: &Path,
    err: &mut dyn Write,
) -> Result<String, String> {
    if let (Some(url), Some(web)) = (url_of(path), web) {
        let page = web.get(&url).map_err(|e| format!("{url}: {e}"))?;
        return reader
            .html_text(&page.bytes, page.content_type.as_deref())
            .map_err(|e| format!("{url}: {e}"));
    }
    let input = if path.as_os_str() == "-" {
        Input::Stdin
    } else {
        Input::File(path.to_owned())
    };
    let name = input.name();
    let bytes = input
        .read()
        .map_err(|e| format!("{name}: cannot read: {e}"))?;
    let plain = matches!(&input, Input::File(p)
        if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("txt")));
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

/// `silhouette text`: the main-content text (or, with `words`, its words) of each page;
/// exit status 1 when some could not be read.
pub fn command(
    config: Option<&Path>,
    words: bool,
    paths: &[PathBuf],
) -> Result<std::process::ExitCode> {
    let config = crate::config::Config::find(config)?;
    let reader = crate::common::corpus_reader(&config)?;
    let content = config.content(crate::config::content::ContentOverrides::default())?;
    let urls = paths.iter().filter_map(|p| url_of(p));
    let web = crate::common::web_pages(&config, urls.collect())?;
    let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr());
    let problems = run(
        &reader,
        web.as_ref(),
        (&content, words),
        paths,
        &mut out,
        &mut err,
    )?;
    Ok(if problems > 0 {
        std::process::ExitCode::from(crate::common::EXIT_PARTIAL)
    } else {
        std::process::ExitCode::SUCCESS
    })
}
