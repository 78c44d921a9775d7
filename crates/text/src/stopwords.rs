//! Stop words: NLTK's English and Chinese lists.

use std::sync::LazyLock;

use fnv::FnvHashSet;

/// The union of NLTK's English and Chinese stop-word lists, lower-cased and
/// NFKC-normalised like the tokens they are compared with, and the length in bytes of the
/// longest (a longer word is no stop word: most words of a text are rejected without a hash).
/// FNV: the words are short, and SipHash's resistance to chosen keys is not needed for a
/// fixed set.
static STOP_WORDS: LazyLock<(FnvHashSet<String>, usize)> = LazyLock::new(|| {
    let set: FnvHashSet<String> = ["en", "zh"]
        .into_iter()
        .filter_map(stop_words::lookup)
        .flatten()
        .map(|w| crate::tokenize::normalize(w))
        .collect();
    let longest = set.iter().map(String::len).max().unwrap_or(0);
    (set, longest)
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
    let (set, longest) = &*STOP_WORDS;
    word.len() <= *longest && set.contains(word)
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
