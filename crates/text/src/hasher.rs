//! The entry point: a validated configuration that fingerprints texts.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use silhouette_simhash::{Fingerprint, Fingerprint128, Simhash, Simhash128};

use crate::counts::WordCounts;
use crate::minhash::{ShingleMinhash, unit_hash};
use crate::seed002::python_split;
use crate::signature::ranked;
use crate::stopwords::is_stop_word_hashed;
use crate::tokenize::starts_with_han;
use crate::{
    Bits, ContentConfig, IdfTable, Mode, Signature, TextError, Weighting, Words, is_stop_word,
    seed002_simhash64, seed002_simhash128, signature, top_n, weigh,
};

/// A content simhash of either width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContentHash {
    /// 64 bits.
    Bits64(Fingerprint),
    /// 128 bits.
    Bits128(Fingerprint128),
}

impl ContentHash {
    /// The Hamming distance, or `None` when the widths differ.
    #[must_use]
    pub const fn distance(self, other: Self) -> Option<u32> {
        match (self, other) {
            (Self::Bits64(a), Self::Bits64(b)) => Some(a.distance(b)),
            (Self::Bits128(a), Self::Bits128(b)) => Some(a.distance(b)),
            _ => None,
        }
    }

    /// The width.
    #[must_use]
    pub const fn bits(self) -> Bits {
        match self {
            Self::Bits64(_) => Bits::B64,
            Self::Bits128(_) => Bits::B128,
        }
    }
}

impl fmt::Display for ContentHash {
    /// 16 or 32 lower-case hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Bits64(fp) => fp.fmt(f),
            Self::Bits128(fp) => fp.fmt(f),
        }
    }
}

impl FromStr for ContentHash {
    type Err = silhouette_simhash::ParseFingerprintError;

    /// 16 hex digits are 64 bits, anything else must be 32.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.len() == 16 {
            s.parse().map(Self::Bits64)
        } else {
            s.parse().map(Self::Bits128)
        }
    }
}

/// The content fingerprint of one text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContentFingerprint {
    /// The simhash.
    pub hash: ContentHash,
    /// The semantic signature; `None` when disabled or when the text has fewer keywords than
    /// the signature needs.
    pub signature: Option<Signature>,
    /// The number of words counted (after stop words; `seed-002`: tokens).
    pub words: usize,
}

/// Fingerprints texts with one validated [`ContentConfig`].
///
/// Text is plain text, one block (paragraph, heading, list item…) per line. A text with fewer
/// than `min_words` words gets no fingerprint at all, nor one whose features all weigh 0: with
/// `>= 0` ties it would be all ones and match every other such text.
#[derive(Debug, Clone)]
pub struct ContentHasher {
    config: ContentConfig,
    idf: Arc<IdfTable>,
    params: String,
}

impl ContentHasher {
    /// Validates `config` and loads the IDF table it needs (jieba's when `idf` is `None` and
    /// TF-IDF weights or a signature are asked for).
    ///
    /// # Errors
    /// [`TextError::Config`] naming the setting out of range.
    pub fn new(config: ContentConfig) -> Result<Self, TextError> {
        config.validate()?;
        let needs_idf = config.signature_top_n > 0
            || (config.mode == Mode::Weighted && config.weights == Weighting::TfIdf);
        let idf = match (&config.idf, needs_idf) {
            (Some(t), _) => Arc::clone(t),
            (None, true) => IdfTable::jieba(),
            (None, false) => Arc::new(IdfTable::parse("").unwrap_or_else(|_| unreachable!())),
        };
        let params = params(&config, &idf, needs_idf);
        Ok(Self {
            config,
            idf,
            params,
        })
    }

    /// Every parameter, as one string to store beside the fingerprints (fingerprints made with
    /// different parameters are not comparable), e.g.
    /// `text/1 mode=weighted tokenizer=auto shingles=1 stop-words=en+zh weights=tf-idf
    /// idf=jieba-rs-0.11 top-n=all bits=64 hash=sip13 min-words=30 signature=20` (one line).
    #[must_use]
    pub fn params(&self) -> &str {
        &self.params
    }

    /// The configuration.
    #[must_use]
    pub const fn config(&self) -> &ContentConfig {
        &self.config
    }

    /// The words that count: the tokenizer's, less stop words when they are dropped.
    #[must_use]
    pub fn words(&self, text: &str) -> Vec<String> {
        self.word_buffer(text).iter().map(str::to_owned).collect()
    }

    /// [`words`](Self::words), in one buffer.
    fn word_buffer(&self, text: &str) -> Words {
        let mut out = Words::with_capacity(text.len());
        let drop = self.config.stop_words;
        self.config.tokenizer.for_each_word(text, |w| {
            if !(drop && is_stop_word(w)) {
                out.push(w);
            }
        });
        out
    }

    /// The fingerprint of `text`, or `None` for too little text.
    #[must_use]
    pub fn fingerprint(&self, text: &str) -> Option<ContentFingerprint> {
        let c = &self.config;
        let text = c.text_start(text);
        let need_words = c.mode != Mode::Seed002 || c.signature_top_n > 0;
        let mut units = ShingleMinhash::new(c.shingles, c.bits.get());
        // (Distinct words grow slower than the text: room for one per 32 bytes, at most 2,048,
        // before the table first doubles; zeroing a table sized for every word of a long page
        // cost more than doubling it.)
        let mut counts = WordCounts::with_room((text.len() / 32).min(2048));
        let (mut norm, mut buffer) = (String::new(), Words::default());
        let mut again = Words::default();
        let mut words: Vec<&str> = Vec::new();
        let mut han_free = false;
        if c.mode == Mode::Minhash {
            han_free = self.words_and_units(text, &mut norm, &mut buffer, &mut units, &mut counts);
        } else if need_words {
            buffer = self.word_buffer(text);
            words = buffer.iter().collect();
        }
        // The words that count, as (distinct word, count) pairs and their number, from the
        // minhash's counts; the plain list otherwise, or when those gave up.
        let counted = if c.mode == Mode::Minhash {
            counts.counts().or_else(|| {
                again = self.word_buffer(text);
                words = again.iter().collect();
                None
            })
        } else {
            None
        };
        // The words that count (after stop words).
        let kept = counted.as_ref().map_or(words.len(), |(_, total)| *total);
        let (hash, count) = match c.mode {
            Mode::Seed002 => {
                let count = python_split(text).count();
                if count < c.min_words {
                    return None;
                }
                let hash = match c.bits {
                    Bits::B64 => ContentHash::Bits64(seed002_simhash64(text)),
                    Bits::B128 => ContentHash::Bits128(seed002_simhash128(text)),
                };
                (hash, count)
            }
            Mode::Weighted => {
                if kept < c.min_words {
                    return None;
                }
                (self.weighted(&words)?, kept)
            }
            Mode::Minhash => {
                if kept < c.min_words {
                    return None;
                }
                (self.minhash(units)?, kept)
            }
        };
        let n = c.signature_top_n;
        let signature = if n == 0 || kept < c.min_words {
            None
        } else if let Some((distinct, total)) = counted {
            ranked(distinct.into_iter(), total, &self.idf, n, han_free)
        } else {
            signature(&words, &self.idf, n)
        };
        Some(ContentFingerprint {
            hash,
            signature,
            words: count,
        })
    }

    /// The weighted simhash of `words`; `None` when every feature weighs 0.
    fn weighted(&self, words: &[&str]) -> Option<ContentHash> {
        let c = &self.config;
        let features = shingles(words, c.shingles);
        let mut weighted = weigh(&features, c.weights, &self.idf);
        if let Some(n) = c.top_n {
            weighted = top_n(weighted, n);
        }
        if !weighted.iter().any(|(_, w)| *w > 0.0) {
            return None;
        }
        Some(match c.bits {
            Bits::B64 => {
                let mut acc = Simhash::new();
                for (f, w) in &weighted {
                    acc.add(c.hash.hash64(f.as_bytes()), *w);
                }
                ContentHash::Bits64(acc.finish())
            }
            Bits::B128 => {
                let mut acc = Simhash128::new();
                for (f, w) in &weighted {
                    acc.add(c.hash.hash128(f.as_bytes()), *w);
                }
                ContentHash::Bits128(acc.finish())
            }
        })
    }
}

impl ContentHasher {
    /// Hands `units` the hashes (`unit_hash`, 64 bits) of the units `minhash` shingles (every
    /// word, stop words included, each Han word cut into its characters) and `counts` every
    /// word with its `unit_hash`, as slices of `norm`, the normalised text, when the tokenizer
    /// allows it ([`Tokenizer::for_each_word_in`](crate::Tokenizer)); else the words are copied
    /// into `buffer` (stop words dropped), and counted after. Returns whether the counted words
    /// are known to hold no Han character (the tokenizer read the text they are slices of).
    fn words_and_units<'a>(
        &self,
        text: &str,
        norm: &'a mut String,
        buffer: &'a mut Words,
        units: &mut ShingleMinhash,
        counts: &mut WordCounts<'a>,
    ) -> bool {
        let drop = self.config.stop_words;
        let tokenizer = self.config.tokenizer;
        if let Some(han_free) = tokenizer.for_each_word_in(
            text,
            norm,
            // Inlined into the tokenizer's word loop (a call per word otherwise: 0.04 M
            // instructions per python page).
            #[inline(always)]
            |w| {
                let hash = word_units(w, units);
                counts.add(w, hash, || drop && is_stop_word_hashed(w, hash));
            },
        ) {
            return han_free;
        }
        *buffer = Words::with_capacity(text.len());
        let mut keys = Vec::new();
        tokenizer.for_each_word(text, |w| {
            let hash = word_units(w, units);
            if !(drop && is_stop_word_hashed(w, hash)) {
                buffer.push(w);
                keys.push(hash);
            }
        });
        for (w, &hash) in buffer.iter().zip(&keys) {
            counts.add(w, hash, || false);
        }
        false
    }

    /// The one-bit minhash of the set of shingles of the units handed to `units`.
    fn minhash(&self, units: ShingleMinhash) -> Option<ContentHash> {
        let c = &self.config;
        let bits = units.finish()?;
        Some(match c.bits {
            #[allow(clippy::cast_possible_truncation, reason = "64 bits were asked for")]
            Bits::B64 => ContentHash::Bits64(Fingerprint::from(bits as u64)),
            Bits::B128 => ContentHash::Bits128(Fingerprint128::from(bits)),
        })
    }
}

/// Hands `units` word `w`'s units (its unit hash, or a Han word's characters' ones) and
/// returns its unit hash.
#[inline(always)]
fn word_units(w: &str, units: &mut ShingleMinhash) -> u64 {
    if starts_with_han(w) {
        let mut buf = [0; 4];
        for ch in w.chars() {
            units.push(unit_hash(ch.encode_utf8(&mut buf).as_bytes()));
        }
        unit_hash(w.as_bytes())
    } else {
        let hash = unit_hash(w.as_bytes());
        units.push(hash);
        hash
    }
}

/// Runs of `n` words joined by one space (all the words as one feature when there are fewer).
fn shingles(words: &[&str], n: usize) -> Vec<String> {
    if n <= 1 {
        return words.iter().map(|w| (*w).to_owned()).collect();
    }
    if words.len() < n {
        return vec![words.join(" ")];
    }
    words.windows(n).map(|w| w.join(" ")).collect()
}

fn params(c: &ContentConfig, idf: &IdfTable, needs_idf: bool) -> String {
    let mut p = format!("text/1 mode={}", c.mode.name());
    if c.mode == Mode::Minhash {
        p.push_str(&format!(
            " tokenizer={} shingles={} stop-words={} hash=mix64+splitmix64",
            c.tokenizer,
            c.shingles,
            if c.stop_words { "en+zh" } else { "none" },
        ));
    }
    if c.mode == Mode::Weighted {
        let top = c.top_n.map_or_else(|| "all".to_owned(), |n| n.to_string());
        p.push_str(&format!(
            " tokenizer={} shingles={} stop-words={} weights={} top-n={top} hash={}",
            c.tokenizer,
            c.shingles,
            if c.stop_words { "en+zh" } else { "none" },
            c.weights,
            c.hash,
        ));
    }
    if needs_idf {
        p.push_str(&format!(" idf={}", idf.id()));
    }
    p.push_str(&format!(
        " bits={} min-words={} signature={}",
        c.bits, c.min_words, c.signature_top_n
    ));
    if let Some(n) = c.max_text_bytes {
        p.push_str(&format!(" text-bytes={n}"));
    }
    p
}
