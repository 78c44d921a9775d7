//! Stop words: NLTK's English and Chinese lists.

use std::collections::HashSet;
use std::sync::LazyLock;

/// The union of NLTK's English and Chinese stop-word lists, lower-cased and
/// NFKC-normalised like the tokens they are compared with.
static STOP_WORDS: LazyLock<HashSet<String>> = LazyLock::new(|| {
    ["en", "zh"]
        .into_iter()
        .filter_map(stop_words::lookup)
        .flatten()
        .map(|w| crate::tokenize::normalize(w))
        .collect()
});

/// Whether `word` (a token, already lower-cased) is an English or Chinese stop word.
///
/// The lists are NLTK's `english` (198 words) and `chinese` (841 words) stop-word corpora, as
/// the `stop-words` crate ships them: published lists, not grown from any evaluation set.
///
/// ```
/// use silhouette_text::is_stop_word;
/// assert!(is_stop_word("the") && is_stop_word("的"));
/// assert!(!is_stop_word("simhash"));
/// ```
#[must_use]
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.contains(word)
}

#[cfg(test)]
mod tests {
    use super::is_stop_word;

    fn check(word: &str, expected: bool) {
        assert_eq!(is_stop_word(word), expected, "{word:?}");
    }

    #[test]
    fn both_languages() {
        check("the", true);
        check("and", true);
        check("的", true);
        check("了", true);
        check("crawler", false);
        check("网页", false);
        check("", false);
    }
}
