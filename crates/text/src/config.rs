//! The content settings: one struct, validated by `ContentHasher::new`, recorded by `params()`.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::{FeatureHash, IdfTable, TextError, Tokenizer, Weighting};

/// The width of a content fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Bits {
    /// 64 bits (16 hex digits); Manku et al.'s threshold of 3 bits applies.
    #[default]
    B64,
    /// 128 bits (32 hex digits).
    B128,
}

impl Bits {
    /// 64 or 128.
    #[must_use]
    pub const fn get(self) -> u32 {
        match self {
            Self::B64 => 64,
            Self::B128 => 128,
        }
    }
}

impl fmt::Display for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.get())
    }
}

impl FromStr for Bits {
    type Err = TextError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "64" => Ok(Self::B64),
            "128" => Ok(Self::B128),
            _ => Err(TextError::config("bits", s, "64 or 128")),
        }
    }
}

/// Which algorithm computes the content fingerprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Mode {
    /// Tokenizer → stop words → shingles → weights → top-n → weighted simhash.
    Weighted,
    /// Note 002's Python class, bit-exactly (`str.split()`, its string hash, ±1 weights); only
    /// `bits` and `min_words` apply (see [`seed002_simhash128`](crate::seed002_simhash128)).
    Seed002,
    /// Tokenizer → stop words → the *set* of distinct shingles → one-bit minhash: bit `i` is the
    /// lowest bit of the smallest of the set's hashes under the `i`-th hash function, so the
    /// Hamming distance estimates `bits × (1 − J) / 2`, J the Jaccard similarity of the two sets
    /// (ALGORITHM.md §7). `weights`, `top_n` and `hash` do not apply (words hash with SipHash-1-3).
    #[default]
    Minhash,
}

impl Mode {
    /// The name `FromStr` reads and `params()` records.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Weighted => "weighted",
            Self::Seed002 => "seed-002",
            Self::Minhash => "minhash",
        }
    }
}

impl FromStr for Mode {
    type Err = TextError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Self::Weighted, Self::Seed002, Self::Minhash]
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| TextError::config("mode", s, "one of weighted, seed-002, minhash"))
    }
}

/// Every parameter of a content fingerprint. [`ContentHasher::new`](crate::ContentHasher::new)
/// validates it and [`ContentHasher::params`](crate::ContentHasher::params) records it.
///
/// The defaults were chosen by measurement (ALGORITHM.md §7): `minhash` mode over the set of
/// word 2-shingles (Han text by characters, stop words kept in the shingles), 64 bits, compared
/// at 3 bits; `auto` tokenizer; at least 30 words (after English and Chinese stop words); a
/// signature of the top 20 TF-IDF keywords over jieba's IDF table (stop words dropped). The
/// `weighted` mode (TF-IDF simhash) keeps `weights`, `top_n` and `hash`.
#[derive(Debug, Clone, PartialEq)]
pub struct ContentConfig {
    /// The algorithm.
    pub mode: Mode,
    /// How the text is cut into words.
    pub tokenizer: Tokenizer,
    /// Features are runs of this many words joined by a space (1: single words; 1..=16).
    pub shingles: usize,
    /// Whether English and Chinese stop words ([`is_stop_word`](crate::is_stop_word)) are dropped
    /// before anything else counts words (`minhash` keeps them in its shingles: they carry the
    /// word order, and a set counts each shingle once).
    pub stop_words: bool,
    /// How features are weighted.
    pub weights: Weighting,
    /// The IDF table of `tf-idf` and of the signature; `None`: jieba's ([`IdfTable::jieba`]).
    pub idf: Option<Arc<IdfTable>>,
    /// Keep only the n heaviest features (`None`: all; the notes use 20).
    pub top_n: Option<usize>,
    /// 64 or 128 bits.
    pub bits: Bits,
    /// The feature hash.
    pub hash: FeatureHash,
    /// Below this many words (after stop words), no fingerprint and no signature (at least 1).
    pub min_words: usize,
    /// The signature's number of keywords (0: no signature; the notes use 20).
    pub signature_top_n: usize,
    /// Read at most this many bytes from the start of the text (cut back to the start of a
    /// character; at least 1), `None`: all of it. A bound on the cost of a long page: its
    /// first 32 KiB (the default) hold some 5,000 word shingles, far more than a 64- or
    /// 128-bit fingerprint's bins need (ALGORITHM.md §7.1).
    pub max_text_bytes: Option<usize>,
}

/// The default [`ContentConfig::max_text_bytes`]: 32 KiB.
pub const DEFAULT_CONTENT_TEXT_BYTES: usize = 32 << 10;

impl Default for ContentConfig {
    fn default() -> Self {
        Self {
            mode: Mode::Minhash,
            tokenizer: Tokenizer::Auto,
            shingles: 2,
            stop_words: true,
            weights: Weighting::TfIdf,
            idf: None,
            top_n: None,
            bits: Bits::B64,
            hash: FeatureHash::Sip13,
            min_words: 30,
            signature_top_n: 20,
            max_text_bytes: Some(DEFAULT_CONTENT_TEXT_BYTES),
        }
    }
}

impl ContentConfig {
    /// The part of `text` a fingerprint reads: its first [`max_text_bytes`](Self::max_text_bytes)
    /// bytes at most, cut back to the start of a character.
    ///
    /// ```
    /// use silhouette_text::ContentConfig;
    /// let c = ContentConfig { max_text_bytes: Some(4), ..ContentConfig::default() };
    /// assert_eq!(c.text_start("abcdef"), "abcd");
    /// assert_eq!(c.text_start("abcé"), "abc");
    /// ```
    #[must_use]
    pub fn text_start<'t>(&self, text: &'t str) -> &'t str {
        let Some(max) = self.max_text_bytes.filter(|&m| m < text.len()) else {
            return text;
        };
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        &text[..end]
    }

    /// mfonda/simhash's word mode (ALGORITHM.md §1): `mfonda` words, each occurrence weighing
    /// 1, FNV-1 64, no stop words, no signature; the same bits as
    /// [`text_simhash`](crate::text_simhash) for any text of at least one word.
    #[must_use]
    pub fn mfonda() -> Self {
        Self {
            mode: Mode::Weighted,
            shingles: 1,
            tokenizer: Tokenizer::Mfonda,
            stop_words: false,
            weights: Weighting::Equal,
            hash: FeatureHash::Fnv1,
            min_words: 1,
            signature_top_n: 0,
            max_text_bytes: None,
            ..Self::default()
        }
    }

    /// Note 002's Python class at 128 bits (ALGORITHM.md §7), no signature.
    #[must_use]
    pub fn seed002() -> Self {
        Self {
            mode: Mode::Seed002,
            bits: Bits::B128,
            min_words: 1,
            signature_top_n: 0,
            max_text_bytes: None,
            ..Self::default()
        }
    }

    pub(crate) fn validate(&self) -> Result<(), TextError> {
        if !(1..=16).contains(&self.shingles) {
            return Err(TextError::config(
                "shingles",
                self.shingles,
                "1 to 16 words",
            ));
        }
        if self.top_n == Some(0) {
            return Err(TextError::config("top-n", 0, "at least 1 (or all)"));
        }
        if self.min_words == 0 {
            return Err(TextError::config(
                "min-words",
                0,
                "at least 1: an empty text would fingerprint as all ones and match every other",
            ));
        }
        if self.max_text_bytes == Some(0) {
            return Err(TextError::config(
                "max-text-bytes",
                0,
                "at least 1 (or all of the text)",
            ));
        }
        if self.signature_top_n > 1000 {
            return Err(TextError::config(
                "signature-top-n",
                self.signature_top_n,
                "0 to 1000",
            ));
        }
        Ok(())
    }
}
