//! Feature weights: equal, TF, TF-IDF (ALGORITHM.md §7), and the top-n selection.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use crate::{IdfTable, TextError};

/// How each distinct feature (word or shingle) of a text is weighted.
///
/// | name | weight of a feature seen `c` times among `T` |
/// |---|---|
/// | `equal` | `c`: every occurrence weighs 1 (mfonda/simhash) |
/// | `tf` | `c / T` (the same bits as `equal` unless top-n cuts differently: only the scale differs) |
/// | `tf-idf` | `c / T × IDF`, clamped at 0; a shingle's IDF is the mean IDF of its words |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Weighting {
    /// Every occurrence weighs 1.
    Equal,
    /// Term frequency `count / T`.
    Tf,
    /// `TF × IDF` from an [`IdfTable`], negative results counting as 0.
    #[default]
    TfIdf,
}

impl Weighting {
    /// The name `FromStr` reads and `params()` records.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Equal => "equal",
            Self::Tf => "tf",
            Self::TfIdf => "tf-idf",
        }
    }
}

impl fmt::Display for Weighting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Weighting {
    type Err = TextError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Self::Equal, Self::Tf, Self::TfIdf]
            .into_iter()
            .find(|w| w.name() == s)
            .ok_or_else(|| TextError::config("weights", s, "one of equal, tf, tf-idf"))
    }
}

/// The distinct `features` with their weights, sorted by feature (code-point order).
///
/// A feature is a word or a shingle of words joined by one space; `T` is `features.len()`.
///
/// ```
/// use silhouette_text::{IdfTable, Weighting, weigh};
/// let idf = IdfTable::parse("a 2.0\nb 1.0\nc -1.0\n")?;
/// let words: Vec<String> = ["a", "b", "a", "c"].map(String::from).into();
/// let w = weigh(&words, Weighting::TfIdf, &idf);
/// assert_eq!(w, [("a".into(), 0.5 * 2.0), ("b".into(), 0.25), ("c".into(), 0.0)]);
/// assert_eq!(weigh(&words, Weighting::Equal, &idf)[0], ("a".into(), 2.0));
/// # Ok::<(), silhouette_text::TextError>(())
/// ```
#[must_use]
pub fn weigh<S: AsRef<str>>(
    features: &[S],
    weighting: Weighting,
    idf: &IdfTable,
) -> Vec<(String, f64)> {
    weigh_borrowed(features, weighting, idf)
        .into_iter()
        .map(|(f, w)| (f.to_owned(), w))
        .collect()
}

/// [`weigh`] without copying the features.
pub(crate) fn weigh_borrowed<'a, S: AsRef<str>>(
    features: &'a [S],
    weighting: Weighting,
    idf: &IdfTable,
) -> Vec<(&'a str, f64)> {
    let mut weighted = weigh_unordered(features, weighting, idf);
    weighted.sort_unstable_by(|a, b| a.0.cmp(b.0));
    weighted
}

/// [`weigh_borrowed`] in no particular order (for a selection by a total order, such as
/// [`top_n_by`], that does not depend on it).
pub(crate) fn weigh_unordered<'a, S: AsRef<str>>(
    features: &'a [S],
    weighting: Weighting,
    idf: &IdfTable,
) -> Vec<(&'a str, f64)> {
    #[allow(clippy::cast_precision_loss, reason = "counts far below 2^53")]
    let total = features.len() as f64;
    counted(features)
        .into_iter()
        .map(|(feature, count)| (feature, weight_of(count, total, weighting, feature, idf)))
        .collect()
}

/// Each distinct feature with its count, in no particular order. (A hash map: a tree map
/// compares strings on every insert. The standard one, keyed at random: a page could choose
/// words whose FNV hashes collide, and make counting them quadratic; the map's order never
/// reaches a result.)
pub(crate) fn counted<S: AsRef<str>>(features: &[S]) -> HashMap<&str, u32> {
    let mut map: HashMap<&str, u32> = HashMap::with_capacity(features.len() / 2);
    for f in features {
        *map.entry(f.as_ref()).or_insert(0) += 1;
    }
    map
}

/// A feature's weight, from its count among `total` features.
fn weight_of(count: u32, total: f64, weighting: Weighting, feature: &str, idf: &IdfTable) -> f64 {
    let c = f64::from(count);
    match weighting {
        Weighting::Equal => c,
        Weighting::Tf => c / total,
        Weighting::TfIdf => (c / total * feature_idf(feature, idf)).max(0.0),
    }
}

/// The keyword candidates of a signature's top `n` from words already counted (`total` words
/// in all): the words of 2+ characters, weighed by TF-IDF, those above 0 (what
/// [`keywords`](crate::keywords) selects from).
pub(crate) fn tf_idf_of_counts<'a>(
    counts: impl Iterator<Item = (&'a str, u32)>,
    total: usize,
    idf: &IdfTable,
) -> Vec<(&'a str, f64)> {
    #[allow(clippy::cast_precision_loss, reason = "counts far below 2^53")]
    let total = total as f64;
    // (Most words are candidates: room for all of them at once.)
    let mut weighted = Vec::with_capacity(counts.size_hint().0);
    for (w, c) in counts.filter(|(w, _)| w.chars().nth(1).is_some()) {
        let weight = weight_of(c, total, Weighting::TfIdf, w, idf);
        if weight > 0.0 {
            weighted.push((w, weight));
        }
    }
    weighted
}

/// A word's IDF, or a shingle's: the mean IDF of its words.
fn feature_idf(feature: &str, idf: &IdfTable) -> f64 {
    if !feature.contains(' ') {
        return idf.idf(feature);
    }
    let (sum, n) = feature
        .split(' ')
        .fold((0.0, 0.0), |(s, n), w| (s + idf.idf(w), n + 1.0));
    sum / n
}

/// Keeps the `n` heaviest of `weighted`, ties broken by the feature in code-point order, and
/// returns them sorted by feature (the fold order).
///
/// ```
/// use silhouette_text::top_n;
/// let w = vec![("b".to_string(), 1.0), ("a".to_string(), 1.0), ("c".to_string(), 3.0)];
/// assert_eq!(top_n(w, 2), [("a".to_string(), 1.0), ("c".to_string(), 3.0)]);
/// ```
#[must_use]
pub fn top_n(weighted: Vec<(String, f64)>, n: usize) -> Vec<(String, f64)> {
    top_n_by(weighted, n)
}

/// [`top_n`] over any string-like feature: the n heaviest found by selection (not a full sort),
/// then sorted by feature.
pub(crate) fn top_n_by<S: AsRef<str>>(mut weighted: Vec<(S, f64)>, n: usize) -> Vec<(S, f64)> {
    let order = |a: &(S, f64), b: &(S, f64)| {
        b.1.total_cmp(&a.1)
            .then_with(|| a.0.as_ref().cmp(b.0.as_ref()))
    };
    if weighted.len() > n {
        if n == 0 {
            weighted.clear();
        } else {
            weighted.select_nth_unstable_by(n - 1, order);
            weighted.truncate(n);
        }
    }
    weighted.sort_by(|a, b| a.0.as_ref().cmp(b.0.as_ref()));
    weighted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_owned).collect()
    }

    fn check(text: &str, weighting: Weighting, idf: &str, expected: &[(&str, f64)]) {
        let idf = IdfTable::parse(idf).expect("valid table");
        let got = weigh(&words(text), weighting, &idf);
        let want: Vec<(String, f64)> = expected
            .iter()
            .map(|(w, v)| ((*w).to_owned(), *v))
            .collect();
        assert_eq!(got, want, "{weighting} of {text:?}");
    }

    /// ALGORITHM.md §7 by hand: IDF = ln(N / (df + 1)) over N = 10 documents with
    /// df(crawler) = 1, df(page) = 3, df(the) = 9 (so ln(10/10) = 0), df(spider) = 11 → < 0;
    /// the page "the crawler fetches the page the crawler" has T = 7 words.
    #[test]
    fn tf_idf_by_hand() {
        let (n, table) = (
            10.0f64,
            "crawler 1.6094379124341003\npage 0.9162907318741551\nthe 0\nspider -0.09531017980432493\nfetches 1.0\n",
        );
        assert_eq!((n / 2.0).ln(), 1.609_437_912_434_100_3);
        assert_eq!((n / 4.0).ln(), 0.916_290_731_874_155_1);
        check(
            "the crawler fetches the page the crawler spider",
            Weighting::TfIdf,
            table,
            &[
                ("crawler", 2.0 / 8.0 * 1.609_437_912_434_100_3),
                ("fetches", 1.0 / 8.0),
                ("page", 1.0 / 8.0 * 0.916_290_731_874_155_1),
                ("spider", 0.0),
                ("the", 0.0),
            ],
        );
        check(
            "b a b",
            Weighting::Tf,
            "",
            &[("a", 1.0 / 3.0), ("b", 2.0 / 3.0)],
        );
        check("b a b", Weighting::Equal, "", &[("a", 1.0), ("b", 2.0)]);
        // A shingle's IDF is the mean of its words'; a missing word gets the median (2.0).
        let shingles = vec!["a b".to_owned(), "b zz".to_owned()];
        let idf = IdfTable::parse("a 1\nb 2\nc 3").expect("valid");
        assert_eq!(
            weigh(&shingles, Weighting::TfIdf, &idf),
            [
                ("a b".to_owned(), 0.5 * 1.5),
                ("b zz".to_owned(), 0.5 * 2.0)
            ]
        );
    }

    #[test]
    fn top_n_ties_by_code_point() {
        let w = |pairs: &[(&str, f64)]| -> Vec<(String, f64)> {
            pairs.iter().map(|(a, b)| ((*a).to_owned(), *b)).collect()
        };
        let all = w(&[("中", 1.0), ("z", 1.0), ("a", 1.0), ("b", 0.5)]);
        assert_eq!(top_n(all.clone(), 2), w(&[("a", 1.0), ("z", 1.0)]));
        assert_eq!(
            top_n(all.clone(), 3),
            w(&[("a", 1.0), ("z", 1.0), ("中", 1.0)])
        );
        assert_eq!(
            top_n(all.clone(), 10),
            w(&[("a", 1.0), ("b", 0.5), ("z", 1.0), ("中", 1.0)])
        );
        assert_eq!(top_n(all, 0), w(&[]));
    }

    #[test]
    fn names_round_trip() {
        for w in [Weighting::Equal, Weighting::Tf, Weighting::TfIdf] {
            assert_eq!(w.to_string().parse::<Weighting>(), Ok(w));
        }
        assert!("bm25".parse::<Weighting>().is_err());
    }
}
