//! Word features, mfonda/simhash-compatible: the reference vectors of ALGORITHM.md §1.

use std::sync::LazyLock;

use regex::Regex;

use silhouette_simhash::{Fingerprint, fnv1_64, simhash};

/// mfonda/simhash's word regex. Go's `\w` is ASCII-only, so it is here too.
static WORDS: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(
        clippy::expect_used,
        reason = "a constant pattern, covered by the tests"
    )]
    Regex::new(r"(?-u:[\w']+(?:://[\w./]+)?)").expect("the word regex compiles")
});

/// The simhash of a text by its words, as mfonda/simhash computes it: the text is lowercased,
/// every match of `[\w']+(?:\://[\w\./]+){0,1}` is a feature of weight 1 hashed with FNV-1 64.
///
/// ```
/// use silhouette_text::text_simhash;
/// let a = text_simhash("this is a test phrase");
/// assert_eq!(a.to_string(), "8c3a5f7e9ecb3f35");
/// assert_eq!(a.distance(text_simhash("this is a test phrass")), 2);
/// ```
#[must_use]
pub fn text_simhash(text: &str) -> Fingerprint {
    let lower = text.to_lowercase();
    simhash(mfonda_words(&lower).map(|w| (fnv1_64(w.as_bytes()), 1.0)))
}

/// The words of `lower` as mfonda/simhash finds them: the matches of
/// `[\w']+(?:\://[\w\./]+){0,1}` (ASCII `\w`), in text order. Lower-case the text first, as
/// [`text_simhash`] does; the `mfonda` tokenizer is this.
///
/// ```
/// use silhouette_text::mfonda_words;
/// let words: Vec<&str> = mfonda_words("don't see http://a.b/c, ok").collect();
/// assert_eq!(words, ["don't", "see", "http://a.b/c", "ok"]);
/// ```
pub fn mfonda_words(lower: &str) -> impl Iterator<Item = &str> {
    WORDS.find_iter(lower).map(|m| m.as_str())
}

#[cfg(test)]
mod tests {
    use super::text_simhash;

    fn check(text: &str, expected: &str) {
        assert_eq!(text_simhash(text).to_string(), expected, "{text:?}");
    }

    #[test]
    fn mfonda_reference() {
        check("this is a test phrase", "8c3a5f7e9ecb3f35");
        check("this is a test phrass", "8c3a5f7e9ecb3f21");
        check("foo bar", "d8dbe7186bad3db3");
        let a = text_simhash("this is a test phrase");
        assert_eq!(a.distance(text_simhash("this is a test phrass")), 2);
        assert_eq!(a.distance(text_simhash("foo bar")), 29);
    }

    #[test]
    fn case_and_urls() {
        assert_eq!(text_simhash("FOO Bar"), text_simhash("foo bar"));
        // A URL is one feature, so it differs from its parts.
        assert_ne!(
            text_simhash("see http://a.b/c"),
            text_simhash("see http a b c")
        );
    }
}
