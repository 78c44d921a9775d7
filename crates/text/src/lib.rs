//! Content fingerprints of plain text: the text side of the design notes (ALGORITHM.md §7).
//!
//! No IO and no HTML: text comes in as plain text with one block (paragraph, heading, list
//! item…) per line, the way `silhouette-dom` hands it over.
//!
//! - [`Tokenizer`]: `mfonda` (ALGORITHM.md §1's regex), `unicode` (UAX #29 words after NFKC and
//!   lower-casing), `jieba` (jieba-rs for Han runs; a text of at most 256 Han characters is cut with
//!   jieba-rs's dictionary and rules, the same words, without building jieba-rs) and `auto`;
//!   [`is_stop_word`] (English and
//!   Chinese, NLTK's lists).
//! - [`Weighting`] (`equal`, `tf`, `tf-idf`) with [`weigh`] and [`top_n`]; IDF from an
//!   [`IdfTable`]: jieba's built-in one, a `word idf` text, or one an [`IdfBuilder`] makes from
//!   documents (never from crawl order).
//! - [`ContentConfig`] → [`ContentHasher::new`] → [`ContentHasher::fingerprint`]: the one entry
//!   point, giving `None` for too little text (so a near-empty page never gets the all-ones
//!   fingerprint that matches every other), else a [`ContentFingerprint`] (a 64- or 128-bit
//!   [`ContentHash`] plus a [`Signature`]) of the start of the text
//!   ([`ContentConfig::text_start`]: its first 32 KiB by default, a bound on a long text's
//!   cost); [`ContentHasher::params`] records every parameter.
//! - [`Mode`]: `minhash` (the default: a one-bit minhash of the set of word 2-shingles, whose
//!   Hamming distance estimates the Jaccard distance; ALGORITHM.md §7.1), `weighted` (TF-IDF
//!   weighted simhash) or `seed-002`.
//! - [`FeatureHash`]: FNV-1 (mfonda's) or SipHash-1-3 128 (default: well mixed over all 128 bits).
//! - [`seed002_simhash128`] / [`seed002_simhash64`]: note 002's Python class, bit-exactly.
//! - [`Signature`] / [`keywords`] / [`signature()`]: the I-Match key, MD5 of the sorted top-n
//!   TF-IDF keywords.
//! - [`Winnowing`]: robust winnowing with positions, and [`Winnowing::overlap`], the copied
//!   passages of two texts with their positions in both.
//!
//! ```
//! use silhouette_text::{Bits, ContentConfig, ContentHasher, IdfTable, Winnowing};
//!
//! let idf = IdfTable::parse("crawler 4.2\nduplicate 3.1\npage 1.5\n")?;
//! let hasher = ContentHasher::new(ContentConfig {
//!     bits: Bits::B128,
//!     idf: Some(idf.into()),
//!     min_words: 5,
//!     signature_top_n: 3,
//!     ..ContentConfig::default()
//! })?;
//! let a = hasher.fingerprint("The crawler drops a duplicate page.\nA crawler keeps the page.").unwrap();
//! let b = hasher.fingerprint("The crawler drops a duplicate page!\nA crawler keeps the pages.").unwrap();
//! assert_eq!(a.hash.to_string().len(), 32);
//! assert!(a.hash.distance(b.hash).unwrap() < 40);
//! assert!(a.signature.is_some());
//! assert!(hasher.fingerprint("Too short.").is_none());
//! assert!(hasher.params().contains("bits=128"));
//!
//! // Copied passages, with their word positions in both texts.
//! let w = Winnowing::new(3, 4)?;
//! let x = hasher.words("alpha beta gamma delta epsilon zeta");
//! let y = hasher.words("omega beta gamma delta epsilon psi");
//! let p = w.overlap(&x, &y);
//! assert_eq!((p[0].a, p[0].b, p[0].len), (1, 1, 4));
//! # Ok::<(), silhouette_text::TextError>(())
//! ```
#![deny(missing_docs)]

mod config;
mod counts;
mod error;
mod hash;
mod hasher;
mod idf;
mod jieba_small;
mod mfonda;
mod minhash;
mod seed002;
mod signature;
mod sorted;
mod stopwords;
mod tokenize;
mod uax29;
mod weights;
mod winnow;
mod words;

pub use config::{Bits, ContentConfig, DEFAULT_CONTENT_TEXT_BYTES, Mode};
pub use error::TextError;
pub use hash::FeatureHash;
pub use hasher::{ContentFingerprint, ContentHash, ContentHasher};
pub use idf::{IdfBuilder, IdfTable};
pub use mfonda::{mfonda_words, text_simhash};
pub use seed002::{seed002_simhash64, seed002_simhash128, seed002_string_hash};
pub use signature::{Signature, keywords, signature};
pub use stopwords::is_stop_word;
pub use tokenize::{Tokenizer, is_han};
pub use weights::{Weighting, top_n, weigh};
pub use winnow::{Passage, WinnowFingerprint, Winnowing};
pub use words::Words;
