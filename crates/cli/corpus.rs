//! The documents of a corpus, for `idf build`, `overlap` and `text`.
//!
//! A plain-text file is one document, as it is. An HTML page (`*.html`, `*.htm`) is its
//! main-content text: the text `fingerprint --content` fingerprints and the crawl's content
//! signal reads (`silhouette-dom`, one parse), so that an IDF table is built from the same
//! words it will weigh. A WARC archive (`*.warc`, `*.warc.gz`: a crawl's `--warc` output,
//! `dedup --warc-out`'s, wget's) is the main-content text of each HTML page it holds, read as
//! `dedup` reads it (2xx responses, HTML by their declared type or by their bytes; revisits
//! and other records are no documents). A directory is every such file under it; a crawl
//! state directory is the WARC files its crawl wrote.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rayon::prelude::*;
use silhouette_dom::StructureHasher;
use silhouette_warc::strip_angle_brackets;

use crate::inputs::{self, Input};
use silhouette_crawl::WARC_DIR_KEY;
use silhouette_crawl::{Archived, WarcItem as Item, WarcPosition as Position};

/// Documents made ready in parallel between two hand-overs: bounds memory on large corpora.
const BATCH: usize = 256;
/// … and at most this many bytes of them (pages from archives may be large).
const BATCH_BYTES: usize = 32 << 20;

/// Whether `batch` is due to be handed over.
fn full(batch: &[Doc]) -> bool {
    let bytes: usize = batch
        .iter()
        .map(|d| match d {
            Doc::Text { bytes: b, .. } | Doc::Html { bytes: b, .. } => b.len(),
        })
        .sum();
    batch.len() >= BATCH || bytes >= BATCH_BYTES
}

/// What a file holds, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Plain text (any name but the two below).
    Text,
    /// One HTML page (`.html`, `.htm`).
    Html,
    /// Archived pages (`.warc`, `.warc.gz`).
    Warc,
}

/// The kind of the file at `path`, by its name.
pub fn kind(path: &Path) -> Kind {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if silhouette_crawl::is_warc(path) {
        Kind::Warc
    } else if name.ends_with(".html") || name.ends_with(".htm") {
        Kind::Html
    } else {
        Kind::Text
    }
}

/// Whether a directory walk takes the file at `path`.
fn is_document(path: &Path) -> bool {
    kind(path) != Kind::Text
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("txt"))
}

/// The files of PATH arguments: a file as given (whatever its name); a crawl state directory
/// (it holds `crawl.sqlite`): the WARC files its crawl wrote (`crawl --warc DIR`); any other
/// directory: its `*.txt`, `*.html`, `*.htm`, `*.warc` and `*.warc.gz` files, recursively,
/// sorted. Directories that cannot be listed are named in `warnings`.
///
/// # Errors
/// A crawl state that cannot be read, that wrote no WARC file, or whose files are gone.
pub fn files(paths: &[PathBuf], warnings: &mut Vec<String>) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for p in paths {
        if p.join("crawl.sqlite").is_file() {
            found.extend(state_files(p)?.into_iter().map(Input::File));
        } else {
            inputs::expand_matching(p, is_document, &mut found, warnings);
        }
    }
    Ok(found
        .into_iter()
        .filter_map(|i| match i {
            Input::File(p) => Some(p),
            // (`expand_matching` makes no URL inputs.)
            Input::Stdin | Input::Url(_) => None,
        })
        .collect())
}

/// The WARC files the crawl of state `dir` wrote pages to, in the order it wrote them: in the
/// directory the state records, else in `dir` itself (a state moved with its WARC files in
/// it).
fn state_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let name = dir.display();
    let store = silhouette_frontier::Store::open_existing(dir)
        .with_context(|| format!("{name}: cannot read the crawl state"))?;
    let files = store
        .warc_files()
        .with_context(|| format!("{name}: cannot read the crawl state"))?;
    let recorded = store
        .meta(WARC_DIR_KEY)
        .with_context(|| format!("{name}: cannot read the crawl state"))?;
    let written: Vec<_> = files.iter().filter(|f| f.pages > 0).collect();
    if written.is_empty() {
        anyhow::bail!(
            "{name}: this crawl wrote no pages to WARC files (crawl --warc DIR): a crawl state keeps no page text of its own"
        );
    }
    let places: Vec<PathBuf> = recorded
        .map(PathBuf::from)
        .into_iter()
        .chain([dir.to_owned()])
        .collect();
    written
        .iter()
        .map(|f| {
            places
                .iter()
                .map(|d| d.join(&f.name))
                .find(|p| p.is_file())
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "{name}: the crawl's WARC file {} is in none of {}",
                        f.name,
                        places
                            .iter()
                            .map(|d| d.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
        })
        .collect()
}

/// What the documents of a corpus came to.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Plain-text files.
    pub texts: u64,
    /// HTML files.
    pub pages: u64,
    /// HTML pages read from archives.
    pub archived: u64,
    /// Records, pages or files that could not be read (each reported).
    pub problems: u64,
}

impl Counts {
    /// Documents in all.
    pub const fn documents(&self) -> u64 {
        self.texts + self.pages + self.archived
    }
}

/// One document before its text is known.
enum Doc {
    Text {
        name: String,
        bytes: Vec<u8>,
    },
    Html {
        name: String,
        bytes: Vec<u8>,
        content_type: Option<String>,
        /// Where it was read: an HTML file or an archive.
        from: Kind,
    },
}

/// Reads documents: the main-content text of HTML with one structure hasher that collects it.
pub struct Reader {
    hasher: StructureHasher,
    /// Largest decoded body read from an archive.
    max_body: u64,
}

impl Reader {
    /// `hasher` must collect main-content text (`Limits::max_text_bytes` above 0).
    pub const fn new(hasher: StructureHasher, max_body: u64) -> Self {
        Self { hasher, max_body }
    }

    /// The main-content text of an HTML page (`content_type`: its header, for the charset).
    ///
    /// # Errors
    /// Why the page could not be parsed.
    pub fn html_text(&self, bytes: &[u8], content_type: Option<&str>) -> Result<String, String> {
        let structure = self
            .hasher
            .hash_with_content_type(bytes, content_type)
            .map_err(|e| e.to_string())?;
        Ok(structure.text.unwrap_or_default())
    }

    /// The one document of a text or HTML file (`-`: standard input, plain text).
    ///
    /// # Errors
    /// A file that cannot be read, an archive (many documents), a page that cannot be parsed.
    pub fn document(&self, path: &Path) -> Result<String> {
        let input = if path.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::File(path.to_owned())
        };
        let kind = match &input {
            Input::Stdin | Input::Url(_) => Kind::Text,
            Input::File(p) => kind(p),
        };
        if kind == Kind::Warc {
            anyhow::bail!(
                "{}: an archive holds many pages; give one text or HTML file",
                input.name()
            );
        }
        let bytes = input
            .read()
            .with_context(|| format!("{}: cannot read", input.name()))?;
        match kind {
            Kind::Html => self
                .html_text(&bytes, None)
                .map_err(|e| anyhow::anyhow!("{}: {e}", input.name())),
            _ => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        }
    }

    /// Calls `each` with the name and the text of every document of `files`, in order (texts
    /// as they are, pages and archived pages as their main-content text; an archived page is
    /// named by its file, offset and URL); every record or page that cannot be read is
    /// reported to `problem` and counted, and the rest is read.
    ///
    /// # Errors
    /// A file that cannot be read at all (named).
    pub fn each_document(
        &self,
        files: &[PathBuf],
        each: &mut dyn FnMut(&str, &str),
        problem: &mut dyn FnMut(&str),
    ) -> Result<Counts> {
        let mut counts = Counts::default();
        let mut batch = Vec::new();
        for path in files {
            let name = path.display().to_string();
            match kind(path) {
                Kind::Warc => {
                    // Opened here first, so that a file that cannot be read is an error of
                    // the command, as for the other kinds, not a damaged record.
                    std::fs::File::open(path).with_context(|| format!("{name}: cannot read"))?;
                    self.archive(path, &mut batch, &mut counts, each, problem);
                }
                k => {
                    let bytes =
                        std::fs::read(path).with_context(|| format!("{name}: cannot read"))?;
                    batch.push(if k == Kind::Html {
                        Doc::Html {
                            name,
                            bytes,
                            content_type: None,
                            from: Kind::Html,
                        }
                    } else {
                        Doc::Text { name, bytes }
                    });
                }
            }
            if full(&batch) {
                self.hand_over(&mut batch, &mut counts, each, problem);
            }
        }
        self.hand_over(&mut batch, &mut counts, each, problem);
        Ok(counts)
    }

    /// The HTML pages of the archive at `path`, into `batch`.
    fn archive(
        &self,
        path: &Path,
        batch: &mut Vec<Doc>,
        counts: &mut Counts,
        each: &mut dyn FnMut(&str, &str),
        problem: &mut dyn FnMut(&str),
    ) {
        let name = path.display().to_string();
        let (batches, reader) = silhouette_crawl::read_warc(
            vec![path.to_owned()],
            self.max_body.saturating_add(1 << 20),
            Position { file: 0, offset: 0 },
        );
        for items in batches {
            for positioned in items {
                match positioned.item {
                    Item::Response(c) => match silhouette_crawl::archived_html(&c, self.max_body) {
                        Archived::Html {
                            body, content_type, ..
                        } => batch.push(Doc::Html {
                            name: format!(
                                "{name}: offset {} {}",
                                c.offset,
                                strip_angle_brackets(
                                    c.fields.get("WARC-Target-URI").unwrap_or_default()
                                )
                            ),
                            bytes: body.into_owned(),
                            content_type,
                            from: Kind::Warc,
                        }),
                        Archived::Other => {}
                        Archived::Bad(message) => {
                            counts.problems += 1;
                            problem(&format!("{name}: {message}"));
                        }
                    },
                    Item::Error { message, .. } => {
                        counts.problems += 1;
                        problem(&format!("{name}: {message}"));
                    }
                    Item::Skipped | Item::KeptOnly { .. } => {}
                }
            }
            if full(batch) {
                self.hand_over(batch, counts, each, problem);
            }
        }
        // The reader thread ends once its file is read; it never panics on input.
        let _ = reader.join();
    }

    /// The texts of `batch`, made in parallel, handed to `each` in order.
    fn hand_over(
        &self,
        batch: &mut Vec<Doc>,
        counts: &mut Counts,
        each: &mut dyn FnMut(&str, &str),
        problem: &mut dyn FnMut(&str),
    ) {
        // Each document's name and text, with the kind of document it counts as.
        let texts: Vec<Result<(String, String, Kind), String>> = batch
            .par_drain(..)
            .map(|doc| match doc {
                Doc::Text { name, bytes } => Ok((
                    name,
                    String::from_utf8_lossy(&bytes).into_owned(),
                    Kind::Text,
                )),
                Doc::Html {
                    name,
                    bytes,
                    content_type,
                    from,
                } => match self.html_text(&bytes, content_type.as_deref()) {
                    Ok(t) => Ok((name, t, from)),
                    Err(e) => Err(format!("{name}: {e}")),
                },
            })
            .collect();
        for text in texts {
            match text {
                Ok((name, t, kind)) => {
                    *match kind {
                        Kind::Text => &mut counts.texts,
                        Kind::Html => &mut counts.pages,
                        Kind::Warc => &mut counts.archived,
                    } += 1;
                    each(&name, &t);
                }
                Err(message) => {
                    counts.problems += 1;
                    problem(&message);
                }
            }
        }
    }
}
