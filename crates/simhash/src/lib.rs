//! Weighted 64-bit simhash, knowing nothing of HTML.
//!
//! A simhash turns a bag of weighted features into 64 bits such that similar bags give
//! fingerprints a few bits apart. silhouette feeds it a page's root-to-element paths (or, in the
//! `classic` model, its tag names) weighted by depth (`silhouette-dom`), and `silhouette-text`
//! a text's words; this crate only does the arithmetic, exactly as
//! `ALGORITHM.md` §1 fixes it, so that stored fingerprints stay comparable across runs:
//!
//! - [`Simhash`] folds `(feature hash, f64 weight)` pairs, in the order given, into 64 totals;
//!   bit `i` is 1 iff total `i >= 0` (so no features at all give `ffffffffffffffff`).
//! - [`Fingerprint`] is the result: hex `Display`/`FromStr`, Hamming [`distance`](Fingerprint::distance)
//!   and [`is_near`](Fingerprint::is_near) (a distance of exactly `k` counts as near).
//! - [`Simhash128`] and [`Fingerprint128`] are the same over 128 bits (ALGORITHM.md §7), for
//!   content fingerprints (`silhouette-text`).
//! - [`fnv1_64`] is the feature hash (FNV-1, multiply then xor; not the `fnv` crate's FNV-1a).
//!   (The word-feature mode that reproduces mfonda/simhash's example, `text_simhash`, is in
//!   `silhouette-text`.)
//!
//! ```
//! use silhouette_simhash::{fnv1_64, Simhash};
//!
//! // Features are folded in a fixed order: here, sorted by name.
//! let mut acc = Simhash::new();
//! for (name, weight) in [("body", 0.2025), ("head", 0.2025), ("html", 0.45), ("p", 0.091125)] {
//!     acc.add(fnv1_64(name.as_bytes()), weight);
//! }
//! assert_eq!(acc.finish().to_string(), "f123317ed83fa3c7"); // `<p>hi</p>` at decay 0.45
//! let (a, b) = (acc.finish(), "f123317ed83fa3c6".parse::<silhouette_simhash::Fingerprint>()?);
//! assert_eq!((a.distance(b), a.is_near(b, 5)), (1, true));
//! # Ok::<(), silhouette_simhash::ParseFingerprintError>(())
//! ```
//!
//! # Near-duplicate index
//!
//! [`NearIndex`] answers the frontier's question for every fetched page, "is any fingerprint
//! seen so far within `k` bits of this one?", exactly (a distance of exactly `k` counts), for
//! any `k` in `0..=8`, in a few tens of bytes per fingerprint (BENCHMARKS.md): multi-index hashing over three
//! substrings (ALGORITHM.md §5) with an exact-match layer, online inserts into a delta merged
//! into sorted segments, ring indexes for the huge cells of skewed input, and a versioned,
//! checksummed file format that records the fingerprint parameters (ALGORITHM.md §6).
//! [`NearIndex`]'s documentation has the design, its arithmetic and how to choose `k`;
//! [`SharedNearIndex`] shares one index between crawler threads. [`NearIndex128`] is the
//! exact index over 128-bit fingerprints (content fingerprints), for any `k` in `0..=16`.
//!
//! ```
//! use silhouette_simhash::{Fingerprint, Match, NearIndex};
//!
//! let mut index = NearIndex::with_params(5, "classic/fnv1/decay=0.45")?;
//! let a: Fingerprint = "8c3a5f7e9ecb3f35".parse()?;
//! let b: Fingerprint = "8c3a5f7e9ecb3f21".parse()?; // 2 bits from `a`
//! assert_eq!(index.insert_if_new(a, 1), Ok(()));
//! assert_eq!(index.insert_if_new(b, 2), Err(Match { id: 1, distance: 2 }));
//! assert!(index.any_within(b) && index.nearest(b) == Some((1, 2)));
//!
//! let path = std::env::temp_dir().join(format!("silhouette-doc-{}.idx", std::process::id()));
//! index.save(&path)?;
//! let again = NearIndex::load_expecting(&path, 5, "classic/fnv1/decay=0.45")?;
//! assert_eq!(again.nearest(b), Some((1, 2)));
//! std::fs::remove_file(&path)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod fingerprint;
mod fingerprint128;
mod fnv;
mod index;
mod index128;
mod sets;
mod weighted;

pub use fingerprint::{Fingerprint, ParseFingerprintError};
pub use fingerprint128::Fingerprint128;
pub use fnv::fnv1_64;
pub use index::{IndexError, IndexStats, MAX_K, Match, NearIndex, SharedNearIndex};
pub use index128::{MAX_K128, NearIndex128};
pub use sets::{jaccard, jaccard_without, overlap_without, overlap_without_by};
pub use weighted::{Simhash, Simhash128, simhash};
