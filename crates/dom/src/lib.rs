//! Structure fingerprints of HTML pages: pages built from one template get fingerprints a
//! few bits apart, whatever their text.
//!
//! Each page is parsed with html5ever's full WHATWG tree construction into a lean arena
//! (elements only, `u32` handles), fed by html5gum's WHATWG tokenizer with only what the tree
//! builder can observe (the same tree as html5ever's own tokenizer gives, at about half the
//! cost; checked against it in the tests), the final tree is walked once, iteratively, and every
//! element contributes its tag name weighted by `decay^depth`; the weighted tags are folded
//! into a 64-bit simhash ([`silhouette_simhash`]). The `classic` model is bit-exact with
//! `ALGORITHM.md` §2 and its reference implementation.
//!
//! - [`StructureHasher`] takes bytes (any encoding: BOM, the caller's content type,
//!   `<meta charset>`, else UTF-8; invalid bytes replaced) and returns a [`Structure`]: the
//!   [`Fingerprint`], the element count, whether a guard [truncated](Truncation) the parse,
//!   and a decay-free [`Profile`].
//! - [`HasherConfig`] is the plain configuration: `decay` in (0, 1], the [`FeatureSet`], and
//!   the [`Limits`] that bound the work a hostile page can cause (nesting depth, element
//!   count, time, input size — ALGORITHM.md §4).
//! - [`FeatureModel`] is the seam for other feature models; [`Classic`] is the default.
//!
//! ```
//! use silhouette_dom::{StructureHasher, HasherConfig};
//!
//! let hasher = StructureHasher::new(HasherConfig::default())?; // classic, decay 0.45
//! let page = hasher.hash(b"<p>hi</p>")?;
//! assert_eq!(page.fingerprint.to_string(), "f123317ed83fa3c7");
//! assert_eq!(page.elements, 4); // html, head, body, p
//!
//! let a = hasher.hash(b"<table><tr><td>1<td>2</table>")?;
//! let b = hasher.hash(b"<table><tr><td>3<td>4</table><!-- other text -->")?;
//! assert!(a.fingerprint.is_near(b.fingerprint, 5));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The crate does no IO: it reads the bytes it is given and nothing else.
#![deny(missing_docs)]

mod config;
mod encoding;
mod features;
mod hasher;
mod profile;
mod sink;
mod tokens;
mod tree;
mod walk;

pub use config::{ConfigError, DEFAULT_DECAY, FeatureSet, HasherConfig, Limits, TimeBudget};
pub use encoding::EncodingSource;
pub use features::{Classic, ElementInfo, FeatureModel, Features, TagPairs};
pub use hasher::{DomError, Structure, StructureHasher, Truncation};
pub use profile::{Profile, ProfileEntry, ProfileError};
pub use silhouette_simhash::Fingerprint;
