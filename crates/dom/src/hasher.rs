//! [`StructureHasher`]: bytes in, [`Structure`] out, with the guard of ALGORITHM.md §4.

use std::cell::RefCell;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use encoding_rs::{Encoding, UTF_8};
use silhouette_simhash::Fingerprint;

use crate::config::{ConfigError, FeatureSet, HasherConfig, Limits};
use crate::encoding::{EncodingSource, sniff};
use crate::explain::{Names, PathName};
use crate::features::{Classic, FeatureModel, Features, TagPairs};
use crate::items::share_item_labels;
use crate::paths::PathCollector;
use crate::profile::Profile;
use crate::refresh::Refresh;
use crate::sink::{ArenaSink, Links};
use crate::tokens;
use crate::tree::TreeArena;
use crate::walk::{main_content, walk, walk_paths};

/// Why a fingerprint covers only part of a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Truncation {
    /// An element was nested deeper than the limit.
    Depth {
        /// The limit.
        limit: u32,
    },
    /// The parser created more elements than the limit.
    Nodes {
        /// The limit.
        limit: usize,
    },
    /// The parse did more work (tokens and tree changes) than its budget.
    Work {
        /// The budget for this page, in units.
        limit: u64,
    },
    /// The parse ran out of its time budget (CPU time of the parsing thread).
    Time {
        /// The budget for this page.
        budget: Duration,
    },
    /// The page is longer than the input cap; only its start was parsed.
    Input {
        /// The cap.
        limit: usize,
        /// The page's length.
        len: usize,
    },
}

impl Truncation {
    /// A short stable name: `depth`, `nodes`, `work`, `time` or `input`.
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        match self {
            Self::Depth { .. } => "depth",
            Self::Nodes { .. } => "nodes",
            Self::Work { .. } => "work",
            Self::Time { .. } => "time",
            Self::Input { .. } => "input",
        }
    }
}

impl fmt::Display for Truncation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Depth { limit } => write!(f, "nesting deeper than {limit}"),
            Self::Nodes { limit } => write!(f, "more than {limit} elements"),
            Self::Work { limit } => write!(f, "more than {limit} units of parsing work"),
            Self::Time { budget } => write!(
                f,
                "parse took more than {} ms of CPU time",
                budget.as_millis()
            ),
            Self::Input { limit, len } => write!(f, "page of {len} bytes, only {limit} parsed"),
        }
    }
}

/// The structure of one page.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Structure {
    /// The 64-bit structure fingerprint.
    pub fingerprint: Fingerprint,
    /// Elements in the walked tree (`html`, `head` and `body` included).
    pub elements: u64,
    /// Set when a limit stopped the parse: the fingerprint covers what was parsed before.
    pub truncated: Option<Truncation>,
    /// The encoding the bytes were read in.
    pub encoding: &'static Encoding,
    /// Where that encoding came from.
    pub encoding_source: EncodingSource,
    /// The decay-free feature counts, to recompute the fingerprint at another decay.
    pub profile: Profile,
    /// Link targets as written in the page (`<a href>`, `<area href>`, `<frame src>`,
    /// `<iframe src>`, `<link rel=next|prev href>`), unresolved, without duplicates, in
    /// document order; empty unless [`Limits::max_links`] is above 0.
    pub links: Vec<String>,
    /// The first `<base href>`, as written.
    pub base: Option<String>,
    /// The first `<meta http-equiv=refresh>` that names a URL (its URL is one of
    /// [`links`](Self::links) when they are collected).
    pub refresh: Option<Refresh>,
    /// The visible text of the main content, one line per block element, when
    /// [`Limits::max_text_bytes`] is above 0 (`None` otherwise).
    pub text: Option<String>,
    /// Whether [`text`](Self::text) was cut at [`Limits::max_text_bytes`].
    pub text_truncated: bool,
}

/// A page could not be fingerprinted at all.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DomError {
    /// The HTML parser failed (a bug in it, caught: the input is not to blame).
    #[error("the HTML parser failed: {message}")]
    Parser {
        /// What it said.
        message: String,
    },
}

/// Computes structure fingerprints. Cheap to clone, `Send + Sync`: share one across threads.
///
/// ```
/// use silhouette_dom::{HasherConfig, StructureHasher};
/// let hasher = StructureHasher::new(HasherConfig { decay: 0.6, ..HasherConfig::default() })?; // class-paths
/// let a = hasher.hash(b"<ul><li>one<li>two</ul>")?;
/// let b = hasher.hash(b"<ul><li>three<li>four</ul>")?;
/// assert_eq!(a.fingerprint, b.fingerprint); // same structure, different text
/// assert!(StructureHasher::new(HasherConfig { decay: 0.0, ..HasherConfig::default() }).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct StructureHasher {
    decay: f64,
    limits: Limits,
    model: Model,
}

/// The two kinds of model: weighted tag features, or the set of class paths.
#[derive(Clone, Debug)]
enum Model {
    Tags(Arc<dyn FeatureModel>),
    ClassPaths { depth: u32, seed: u32 },
}

impl Default for StructureHasher {
    /// `class-paths` at decay 0.76 with the default limits ([`HasherConfig::default`]).
    fn default() -> Self {
        let config = HasherConfig::default();
        Self {
            decay: config.decay,
            limits: config.limits,
            model: Model::ClassPaths {
                depth: config.path_depth,
                seed: config.seed,
            },
        }
    }
}

impl StructureHasher {
    /// A hasher for a validated configuration.
    ///
    /// # Errors
    /// The first invalid value, named with what is allowed (see [`HasherConfig::validate`]).
    pub fn new(config: HasherConfig) -> Result<Self, ConfigError> {
        let model: Arc<dyn FeatureModel> = match config.features {
            FeatureSet::Classic => Arc::new(Classic),
            FeatureSet::TagPairs => Arc::new(TagPairs),
            FeatureSet::ClassPaths => {
                config.validate()?;
                return Ok(Self {
                    decay: config.decay,
                    limits: config.limits,
                    model: Model::ClassPaths {
                        depth: config.path_depth,
                        seed: config.seed,
                    },
                });
            }
        };
        Self::with_model(config, model)
    }

    /// The design notes' `classic` model at decay 0.45 with the default limits, bit-exact
    /// with ALGORITHM.md §2 and its reference implementation.
    #[must_use]
    pub fn classic() -> Self {
        Self {
            decay: crate::DEFAULT_DECAY,
            limits: Limits::default(),
            model: Model::Tags(Arc::new(Classic)),
        }
    }

    /// A hasher with a feature model of your own (`config.features` is ignored).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn with_model(
        config: HasherConfig,
        model: Arc<dyn FeatureModel>,
    ) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(Self {
            decay: config.decay,
            limits: config.limits,
            model: Model::Tags(model),
        })
    }

    /// The decay.
    #[must_use]
    pub const fn decay(&self) -> f64 {
        self.decay
    }

    /// What a fingerprint from this hasher is comparable with (ALGORITHM.md §6): mode,
    /// feature model, hash and decay, e.g. `structure/classic/fnv1-64/decay=0.45` or
    /// `structure/class-paths/depth=12/main-level=1/main-inline/p-inline/p-flow=paths/body-flow=p/main-flow=2/main-p=prose/flow-level=+2/prose=tags/amid=prose/article=blocks/flow-amid/body-text=prose/section-level=tag/sections=nested/sections=titled/root-class=paths/hex-ids/colon-ids/fields=any-depth/inline-fields/item-inline/form-rows/p-tables/empty-p=text/div-p/table-heads/th-rows/tables=any-depth/flow-tables=thin/keys=columns/head=pair/items=cousins/items=nested/bare-items/linked/root-linked/page-names/marks=current/mix64/seed=0/decay=1`.
    #[must_use]
    pub fn params(&self) -> String {
        match &self.model {
            Model::Tags(model) => {
                format!("structure/{}/fnv1-64/decay={}", model.name(), self.decay)
            }
            Model::ClassPaths { depth, seed } => format!(
                "structure/class-paths/depth={depth}/main-level=1/main-inline/p-inline/p-flow=paths/body-flow=p/main-flow=2/main-p=prose/flow-level=+2/prose=tags/amid=prose/article=blocks/flow-amid/body-text=prose/section-level=tag/sections=nested/sections=titled/root-class=paths/hex-ids/colon-ids/fields=any-depth/inline-fields/item-inline/form-rows/p-tables/empty-p=text/div-p/table-heads/th-rows/tables=any-depth/flow-tables=thin/keys=columns/head=pair/items=cousins/items=nested/bare-items/linked/root-linked/page-names/marks=current/mix64/seed={seed}/decay={}",
                self.decay
            ),
        }
    }

    /// The structure of a page whose encoding only the page itself tells.
    ///
    /// # Errors
    /// Only if the parser itself fails; no input is rejected.
    pub fn hash(&self, bytes: &[u8]) -> Result<Structure, DomError> {
        self.hash_with_content_type(bytes, None)
    }

    /// The structure of a page, with the content type it was served with (its `charset`
    /// wins over `<meta>`, a byte-order mark over both). Invalid bytes are replaced.
    ///
    /// # Errors
    /// Only if the parser itself fails; no input is rejected.
    pub fn hash_with_content_type(
        &self,
        bytes: &[u8],
        content_type: Option<&str>,
    ) -> Result<Structure, DomError> {
        self.hash_named(bytes, content_type, false).map(|(s, _)| s)
    }

    /// The structure of a page (as [`hash_with_content_type`](Self::hash_with_content_type)
    /// computes it, bit for bit) and, for the `class-paths` model, every path of its set,
    /// named ([`PathName`]), in document order: where two pages differ. Empty for the other
    /// models. Slower than hashing: a debugging aid.
    ///
    /// # Errors
    /// Only if the parser itself fails; no input is rejected.
    pub fn explain(
        &self,
        bytes: &[u8],
        content_type: Option<&str>,
    ) -> Result<(Structure, Vec<PathName>), DomError> {
        self.hash_named(bytes, content_type, true)
    }

    fn hash_named(
        &self,
        bytes: &[u8],
        content_type: Option<&str>,
        explain: bool,
    ) -> Result<(Structure, Vec<PathName>), DomError> {
        let (encoding, encoding_source, bom) = sniff(bytes, content_type);
        let labelled = matches!(self.model, Model::ClassPaths { .. });
        let input = bytes.len().min(1 << 20);
        let mut arena = TreeArena::new(input / 48 + 16, labelled);
        if self.limits.max_text_bytes > 0 {
            arena.collect_text(input, self.limits.max_text_bytes);
        }
        let arena = RefCell::new(arena);
        let links = RefCell::new(Links::new(self.limits.max_links));
        let sink = ArenaSink {
            arena: &arena,
            // Always: a page's refresh is read even when no link is collected.
            links: Some(&links),
            text: self.limits.max_text_bytes > 0,
        };
        let parsed = catch_unwind(AssertUnwindSafe(|| {
            parse(sink, &bytes[bom..], encoding, &self.limits)
        }));
        let mut truncated = parsed.map_err(|panic| DomError::Parser {
            message: panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".to_owned()),
        })?;
        if bytes.len() > self.limits.max_input_bytes && truncated.is_none() {
            truncated = Some(Truncation::Input {
                limit: self.limits.max_input_bytes,
                len: bytes.len(),
            });
        }
        let mut arena = arena.into_inner();
        let links = links.into_inner();
        let (text, text_truncated) = match arena.take_text() {
            Some((text, cut)) => (Some(text), cut),
            None => (None, false),
        };
        let mut named = Vec::new();
        let (fingerprint, elements, profile) = match &self.model {
            Model::Tags(model) => {
                let mut features = Features::new(self.decay);
                let elements = walk(&arena, model.as_ref(), &mut features);
                (features.fingerprint(), elements, features.into_profile())
            }
            Model::ClassPaths { depth, seed } => {
                let mut paths = PathCollector::new(*depth);
                if explain {
                    paths.names = Some(Names::default());
                }
                // The main content, found once for the labels and the walk (the tree's
                // shape is final; labels do not move it).
                let main = main_content(&arena);
                share_item_labels(&mut arena, main);
                arena.find_form_rows();
                (arena.div_paragraphs, arena.wordless) = crate::flow::find_paragraphs(&arena);
                let elements = walk_paths(&arena, &mut paths, main);
                let names = paths.names.take();
                let paths = paths.finish(*seed);
                if let Some(names) = names {
                    named = names.finish(&paths);
                }
                let fingerprint = paths.fingerprint(self.decay);
                (fingerprint, elements, Profile::from_paths(paths))
            }
        };
        drop(arena);
        let structure = Structure {
            fingerprint,
            elements,
            truncated,
            encoding,
            encoding_source,
            profile,
            links: links.hrefs,
            base: links.base,
            refresh: links.refresh,
            text,
            text_truncated,
        };
        Ok((structure, named))
    }
}

/// Decodes `bytes` and parses them; returns why the parse stopped early, if it did.
fn parse(
    sink: ArenaSink<'_>,
    bytes: &[u8],
    encoding: &'static Encoding,
    limits: &Limits,
) -> Option<Truncation> {
    let input = &bytes[..bytes.len().min(limits.max_input_bytes)];
    let budget = tokens::Budget {
        work: limits.work_budget.for_len(input.len()),
        time: limits
            .time_budget
            .map(|b| tokens::Clock::start(b.for_len(input.len()))),
    };
    // Valid UTF-8 (most pages) is tokenized where it lies; anything else is decoded first
    // (invalid sequences replaced).
    if encoding == UTF_8
        && let Ok(text) = std::str::from_utf8(input)
    {
        return tokens::parse(sink, text, limits, budget);
    }
    let (text, _replaced) = encoding.decode_without_bom_handling(input);
    tokens::parse(sink, &text, limits, budget)
}
