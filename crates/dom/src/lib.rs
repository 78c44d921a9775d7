//! Structure fingerprints of HTML pages: pages built from one template get fingerprints a
//! few bits apart, whatever their text.
//!
//! Each page is parsed with html5ever's full WHATWG tree construction into a lean arena
//! (elements only, `u32` handles), fed by html5gum's WHATWG tokenizer with only what the tree
//! builder can observe (the same tree as html5ever's own tokenizer gives, for less work;
//! checked against it in the tests), the final tree is walked once, iteratively, and the
//! features a model names there, weighted by `decay^depth`, are folded into a 64-bit simhash
//! ([`silhouette_simhash`]). Two models:
//!
//! - `class-paths` (the default): the **set** of distinct root-to-element paths with class
//!   tokens (`html/body/div.content/table.list/tr/td.age`), weighted by `decay^depth` (0.76;
//!   the blocks a template puts right in the page's `<main>` weigh as its top level).
//!   Its [`PathSet`] travels with the fingerprint in the [`Profile`], so a near match can be
//!   confirmed exactly ([`Profile::similarity`], Jaccard): the simhash proposes, the path
//!   set confirms (ALGORITHM.md §3).
//! - `classic`: each element's tag name weighted by `decay^depth` (0.45), bit-exact with
//!   ALGORITHM.md §2 and its reference implementation ([`StructureHasher::classic`]).
//!
//! - [`StructureHasher`] takes bytes (any encoding: BOM, the caller's content type,
//!   `<meta charset>`, else UTF-8; invalid bytes replaced) and returns a [`Structure`]: the
//!   [`Fingerprint`], the element count, whether a guard [truncated](Truncation) the parse,
//!   and a decay-free [`Profile`].
//! - [`HasherConfig`] is the plain configuration: `decay` in (0, 1], the [`FeatureSet`], and
//!   the [`Limits`] that bound the work a hostile page can cause (nesting depth, element
//!   count, deterministic work, input size, and a CPU-time safety net — ALGORITHM.md §4).
//! - With [`Limits::max_text_bytes`] above 0, the same single parse also yields the visible
//!   text of the page's main content ([`Structure::text`]: `<main>`, `[role=main]`,
//!   `<article>`, else `<body>` without `nav`/`header`/`footer`/`aside`; one line per block
//!   element), for content fingerprints (`silhouette-text`). The structure is unchanged.
//! - [`FeatureModel`] is the seam for tag-weight models ([`Classic`], [`TagPairs`]).
//! - [`StructureHasher::explain`] also names each path of a `class-paths` page
//!   ([`PathName`]: its level and its steps, `html/body/div.nav/ul/li`), to see where two
//!   pages differ.
//!
//! ```
//! use silhouette_dom::{StructureHasher, HasherConfig};
//!
//! // The default model, `class-paths` at decay 0.76: pages of one template share their paths.
//! let hasher = StructureHasher::new(HasherConfig::default())?;
//! let list = |rows: &str| format!("<div class=nav><a href=/>home</a></div><table class=list>{rows}</table>");
//! let a = hasher.hash(list("<tr><td class=age>1<td>2").as_bytes())?;
//! let b = hasher.hash(list("<tr><td class=age>3<td>4<tr><td class=age>5<td>6").as_bytes())?;
//! let c = hasher.hash(b"<div class=nav><a href=/>home</a></div><form class=login><input></form>")?;
//! assert_eq!(a.fingerprint, b.fingerprint); // one row or two: the same paths
//! assert_eq!(a.profile.similarity(&b.profile), Some(1.0));
//! assert!(a.profile.similarity(&c.profile).expect("class-paths") < 0.5);
//!
//! // The design notes' `classic` model, bit-exact with ALGORITHM.md §2.
//! let page = StructureHasher::classic().hash(b"<p>hi</p>")?;
//! assert_eq!(page.fingerprint.to_string(), "f123317ed83fa3c7");
//! assert_eq!(page.elements, 4); // html, head, body, p
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The crate does no IO: it reads the bytes it is given and nothing else.
#![deny(missing_docs)]

mod config;
mod encoding;
mod explain;
mod features;
mod flow;
mod hasher;
mod items;
mod linked;
mod markers;
mod paths;
mod profile;
mod refresh;
mod sink;
mod table_rows;
mod text;
mod tokens;
mod tree;
mod walk;
mod words;

pub use config::{
    CLASS_PATHS_DECAY, CLASS_PATHS_THRESHOLD, ConfigError, DEFAULT_DECAY, DEFAULT_MAX_TEXT_BYTES,
    FeatureSet, HasherConfig, Limits, TimeBudget, WorkBudget,
};
pub use encoding::EncodingSource;
pub use explain::PathName;
pub use features::{Classic, ElementInfo, FeatureModel, Features, TagPairs};
pub use hasher::{DomError, Structure, StructureHasher, Truncation};
pub use paths::{DEFAULT_PATH_DEPTH, MAX_PATHS, PathSet};
pub use profile::{Profile, ProfileEntry, ProfileError};
pub use refresh::Refresh;
pub use silhouette_simhash::Fingerprint;
