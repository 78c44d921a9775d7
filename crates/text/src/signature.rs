//! The semantic signature (I-Match): MD5 of the sorted top-n TF-IDF keywords.

use std::fmt;
use std::str::FromStr;

use md5::{Digest, Md5};

#[cfg(test)]
use crate::counts::WordCounts;
use crate::idf::hex;
use crate::tokenize::contains_han;
use crate::weights::{counted, tf_idf_of_counts, top_n_by};
use crate::{IdfTable, TextError};

/// A 128-bit exact-match key: the MD5 of a text's top-n keywords, sorted and joined by one
/// space (ALGORITHM.md §7, notes 004; I-Match). Prints as 32 lower-case hex digits.
///
/// Two texts share it only when all n keywords are the same: an exact key, not a
/// near-duplicate measure.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature([u8; 16]);

impl Signature {
    /// The signature of `keywords` as given: sorted by code point, joined by one space, MD5.
    ///
    /// ```
    /// use silhouette_text::Signature;
    /// // MD5("a b c")
    /// assert_eq!(Signature::of_keywords(["c", "a", "b"]).to_string(), "06f0760ec7f18687a7fbc0ddbf1b1722");
    /// ```
    #[must_use]
    pub fn of_keywords<S: AsRef<str>>(keywords: impl IntoIterator<Item = S>) -> Self {
        let mut words: Vec<S> = keywords.into_iter().collect();
        words.sort_by(|a, b| a.as_ref().cmp(b.as_ref()));
        let mut md5 = Md5::new();
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                md5.update(b" ");
            }
            md5.update(w.as_ref().as_bytes());
        }
        Self(md5.finalize().into())
    }

    /// The 16 bytes of the MD5.
    #[must_use]
    pub const fn bytes(&self) -> [u8; 16] {
        self.0
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex(&self.0))
    }
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature({self})")
    }
}

impl FromStr for Signature {
    type Err = TextError;

    /// Parses 32 hex digits (either case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || TextError::config("signature", s, "32 hex digits");
        if s.len() != 32 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let mut out = [0u8; 16];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(Self(out))
    }
}

/// The top `n` keywords of `words` by TF-IDF (ALGORITHM.md §7) with their weights, sorted by
/// keyword: words of at least 2 characters (jieba's rule for keywords) with a weight above 0,
/// ties broken by code point. Fewer than `n` when the text has fewer such words.
///
/// ```
/// use silhouette_text::{IdfTable, keywords};
/// let idf = IdfTable::parse("crawler 3\npage 2\nweb 1\n")?;
/// let words: Vec<String> = "crawler page page web a".split(' ').map(String::from).collect();
/// let top: Vec<String> = keywords(&words, &idf, 2).into_iter().map(|(w, _)| w).collect();
/// assert_eq!(top, ["crawler", "page"]);
/// # Ok::<(), silhouette_text::TextError>(())
/// ```
#[must_use]
pub fn keywords<S: AsRef<str>>(words: &[S], idf: &IdfTable, n: usize) -> Vec<(String, f64)> {
    let weighted = tf_idf_of_counts(counted(words).into_iter(), words.len(), idf);
    top_n_by(weighted, n)
        .into_iter()
        .map(|(w, weight)| (w.to_owned(), weight))
        .collect()
}

/// [`signature`] of `words` whose hashes are `keys` (one each: their unit hash), counted in
/// [`WordCounts`] as the fingerprint counts them, or by [`counted`] when that gives up; the
/// tests' way to check the counts against [`signature`].
#[cfg(test)]
pub(crate) fn signature_hashed(
    words: &[&str],
    keys: &[u64],
    idf: &IdfTable,
    n: usize,
) -> Option<Signature> {
    if n == 0 {
        return None;
    }
    let mut counts = WordCounts::with_room(words.len() / 2);
    for (&w, &k) in words.iter().zip(keys) {
        counts.add(w, k, || false);
    }
    match counts.counts() {
        Some((kept, total)) => ranked(kept.into_iter(), total, idf, n, false),
        None => ranked(counted(words).into_iter(), words.len(), idf, n, false),
    }
}

/// The signature of the top `n` (above 0) of distinct words with their counts, `total` words
/// in all: ranked by count when every candidate has the same IDF ([`top_by_count`]), else by
/// TF-IDF. `han_free`: the words are known to hold no Han character (the caller read the text
/// they were cut from), so none is looked at for one (a loop per word whose length decides
/// when it ends: about 570 mispredicted branches per python page).
pub(crate) fn ranked<'a>(
    counts: impl Iterator<Item = (&'a str, u32)>,
    total: usize,
    idf: &IdfTable,
    n: usize,
    han_free: bool,
) -> Option<Signature> {
    if let Some(shared) = idf.idf_of_non_han()
        && shared > 0.0
    {
        let candidates: Vec<(&str, u32)> = counts.filter(|(w, _)| two_chars(w)).collect();
        if han_free || !candidates.iter().any(|(w, _)| contains_han(w)) {
            let top = top_by_count(candidates, n);
            return (top.len() == n).then(|| Signature::of_keywords(top));
        }
        let weighted = tf_idf_of_counts(candidates.into_iter(), total, idf);
        let top = top_n_by(weighted, n);
        return (top.len() == n).then(|| Signature::of_keywords(top.iter().map(|(w, _)| w)));
    }
    let weighted = tf_idf_of_counts(counts, total, idf);
    let top = top_n_by(weighted, n);
    (top.len() == n).then(|| Signature::of_keywords(top.iter().map(|(w, _)| w)))
}

/// Whether `word` has at least two characters (jieba's rule for keywords).
fn two_chars(word: &str) -> bool {
    match word.as_bytes() {
        [b, _, ..] if *b < 0x80 => true,
        _ => word.chars().nth(1).is_some(),
    }
}

/// The `n` words of `candidates` (distinct words with their counts) with the highest counts,
/// ties broken by code point: [`top_n_by`]'s choice when every candidate has the same IDF
/// above 0. A word's weight is then `count / T × IDF`, which grows strictly with its count (two
/// counts below 2^32 differ by at least `1 / T` of the larger, far above a rounding step), so
/// the order by weight is the order by count, with no IDF looked up and no float compared.
fn top_by_count(mut candidates: Vec<(&str, u32)>, n: usize) -> Vec<&str> {
    if candidates.len() <= n {
        return candidates.into_iter().map(|(w, _)| w).collect();
    }
    // The count of the n-th: every word counted more is in, and the first of those counted as
    // often, by code point, fill what is left.
    candidates.select_nth_unstable_by(n - 1, |a, b| b.1.cmp(&a.1));
    let cut = candidates[n - 1].1;
    let mut top: Vec<&str> = Vec::with_capacity(n);
    let mut tied: Vec<&str> = Vec::new();
    for &(w, c) in &candidates {
        if c > cut {
            top.push(w);
        } else if c == cut {
            tied.push(w);
        }
    }
    let room = n - top.len();
    if tied.len() > room {
        tied.select_nth_unstable(room - 1);
        tied.truncate(room);
    }
    top.extend(tied);
    top
}

/// The signature of `words`: [`keywords`], and `None` when there are fewer than `n`.
#[must_use]
pub fn signature<S: AsRef<str>>(words: &[S], idf: &IdfTable, n: usize) -> Option<Signature> {
    let top = keywords(words, idf, n);
    (n > 0 && top.len() == n).then(|| Signature::of_keywords(top.iter().map(|(w, _)| w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, n: usize, expected: Option<&str>) {
        let idf = IdfTable::parse("alpha 4\nbeta 3\ngamma 2\ndelta 1\nzero 0\n").expect("valid");
        let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        let got = signature(&words, &idf, n).map(|s| s.to_string());
        assert_eq!(got.as_deref(), expected, "{text:?} top {n}");
    }

    #[test]
    fn signatures() {
        // MD5("alpha beta") and MD5("beta gamma").
        let ab = "33cf6123dd5c46d7b6fdc9cd72abbf66";
        check("delta gamma beta alpha", 2, Some(ab));
        check("alpha beta delta delta", 2, Some(ab)); // 2 × 1 < 4 and 3
        check("beta gamma", 2, Some("d4c17107ca2b4aff15a5af13e3527ced"));
        check("alpha", 2, None);
        check("alpha zero zero zero x", 2, None); // weight 0 and 1-character words never count
        check("alpha beta", 0, None);
        check("", 2, None);
    }

    #[test]
    fn hashed_counts_agree() {
        let idf = IdfTable::parse("alpha 4\nbeta 3\ngamma 2\ndelta 1\nzero 0\n").expect("valid");
        let text = "delta gamma beta alpha alpha x yy zz zz zero beta 网页 网页 去重";
        let words: Vec<&str> = text.split(' ').collect();
        let keys: Vec<u64> = words
            .iter()
            .map(|w| crate::minhash::unit_hash(w.as_bytes()))
            .collect();
        for n in 0..8 {
            assert_eq!(
                signature_hashed(&words, &keys, &idf, n),
                signature(&words, &idf, n),
                "top {n}"
            );
        }
        // jieba's table, with Han words that can and cannot reach the top.
        let jieba = IdfTable::jieba();
        let mut many: Vec<String> = (0..30)
            .flat_map(|i| std::iter::repeat_n(format!("word{i}"), 3 + i % 4))
            .collect();
        many.push("网页".to_owned());
        for extra in [0, 1, 40] {
            let mut text = many.clone();
            text.extend(std::iter::repeat_n("去重".to_owned(), extra));
            let words: Vec<&str> = text.iter().map(String::as_str).collect();
            let keys: Vec<u64> = words
                .iter()
                .map(|w| crate::minhash::unit_hash(w.as_bytes()))
                .collect();
            for n in [1, 20, 40] {
                assert_eq!(
                    signature_hashed(&words, &keys, &jieba, n),
                    signature(&words, &jieba, n),
                    "{extra} × 去重, top {n}"
                );
            }
        }
        // Equal hashes of different words of more than 8 bytes (a collision of the unit
        // hash, which words of up to 8 bytes never have) still count apart.
        let long = IdfTable::parse("alphabets 4\nbetamaxes 3\n").expect("valid");
        let words = [
            "alphabets",
            "betamaxes",
            "betamaxes",
            "betamaxes",
            "alphabets",
        ];
        let same = vec![7; words.len()];
        assert_eq!(
            signature_hashed(&words, &same, &long, 1),
            signature(&words, &long, 1)
        );
        assert!(signature(&words, &long, 1).is_some());
    }

    #[test]
    fn crafted_hashes_take_the_keyed_map() {
        // 3,000 distinct long words given one hash, then hashes that share their low 16 bits:
        // probing would take time quadratic in the words; the keyed map counts them instead,
        // with the same result.
        let idf = IdfTable::jieba();
        let text: Vec<String> = (0..3000)
            .flat_map(|i| std::iter::repeat_n(format!("crawlerword{i:05}"), 1 + i % 3))
            .collect();
        let words: Vec<&str> = text.iter().map(String::as_str).collect();
        let same = vec![42; words.len()];
        let low: Vec<u64> = words
            .iter()
            .map(|w| crate::minhash::unit_hash(w.as_bytes()) << 16)
            .collect();
        for keys in [&same, &low] {
            let mut counts = WordCounts::with_room(words.len() / 2);
            for (&w, &k) in words.iter().zip(keys) {
                counts.add(w, k, || false);
            }
            assert!(counts.counts().is_none());
        }
        let want = signature(&words, &idf, 20);
        assert!(want.is_some());
        assert_eq!(signature_hashed(&words, &same, &idf, 20), want);
        assert_eq!(signature_hashed(&words, &low, &idf, 20), want);
    }

    proptest::proptest! {
        /// With jieba's table, a text without Han words takes the ranking by count; one with
        /// them the weights: both choose as the plain TF-IDF of [`signature`]. Few distinct
        /// words, so counts tie often (and at the cut).
        #[test]
        fn ranking_by_count_is_tf_idf(
            picks in proptest::collection::vec(0usize..14, 0..80),
            n in 1usize..12,
        ) {
            const WORDS: [&str; 14] = [
                "a", "b", "ab", "ba", "abc", "zz", "é", "éa", "crawler", "crawlers!",
                "中", "网页", "去重", "x网",
            ];
            let jieba = IdfTable::jieba();
            for han in [false, true] {
                let words: Vec<&str> = picks
                    .iter()
                    .map(|&i| WORDS[if han { i } else { i % 10 }])
                    .collect();
                let keys: Vec<u64> = words
                    .iter()
                    .map(|w| crate::minhash::unit_hash(w.as_bytes()))
                    .collect();
                proptest::prop_assert_eq!(
                    signature_hashed(&words, &keys, &jieba, n),
                    signature(&words, &jieba, n)
                );
            }
        }
    }

    #[test]
    fn hex_round_trips() {
        let s = Signature::of_keywords(["网页", "去重"]);
        assert_eq!(s.to_string().parse::<Signature>(), Ok(s));
        assert!("abc".parse::<Signature>().is_err());
        assert!("g".repeat(32).parse::<Signature>().is_err());
    }
}
