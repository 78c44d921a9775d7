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

/// The stop words' unit hashes (`minhash::unit_hash`, 64 bits) in an open-addressing table of
/// [`SLOTS`] (a power of two, over twice the number of words), hash 0 for an empty slot, and
/// beside it each slot's word: a word whose hash is not in the table is no stop word, found
/// with one or two probes and no hashing of its own; one with a matching hash is confirmed by
/// the word's length, and beyond 8 bytes by comparing it with the word beside it. (The hashes
/// alone are 32 KB, where slots of hash and word took 96 KB: the word loop asks once per
/// distinct word, about a thousand times per page, each at a slot of its own.)
const SLOTS: usize = 4096;
struct StopTable {
    hashes: Vec<u64>,
    words: Vec<&'static str>,
}
static STOP_HASHES: LazyLock<StopTable> = LazyLock::new(|| {
    let mut table = StopTable {
        hashes: vec![0; SLOTS],
        words: vec![""; SLOTS],
    };
    for w in &STOP_WORDS.0 {
        let h = crate::minhash::unit_hash(w.as_bytes()).max(1);
        let mut slot = slot_of(h);
        while table.hashes[slot] != 0 {
            slot = (slot + 1) % SLOTS;
        }
        table.hashes[slot] = h;
        table.words[slot] = w.as_str();
    }
    table
});

#[allow(
    clippy::cast_possible_truncation,
    reason = "the low bits pick the slot"
)]
const fn slot_of(h: u64) -> usize {
    (h as usize) % SLOTS
}

/// [`is_stop_word`] of a word whose unit hash is `hash` (computed anyway for the
/// minhash): the hash table rules out almost every word, the word beside a matching hash
/// confirms the others.
#[inline(always)]
pub(crate) fn is_stop_word_hashed(word: &str, hash: u64) -> bool {
    let h = hash.max(1);
    let table = &*STOP_HASHES;
    let mut slot = slot_of(h);
    loop {
        match table.hashes[slot] {
            0 => return false,
            // Two different words of up to 8 bytes and one length never share a unit hash
            // (`unit_hash`; `h` is the hash itself unless it was 0): no bytes to compare.
            x if x == h && {
                let w = table.words[slot];
                w.len() == word.len() && ((h > 1 && w.len() <= 8) || w == word)
            } =>
            {
                return true;
            }
            _ => slot = (slot + 1) % SLOTS,
        }
    }
}

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
    fn hashed_agrees() {
        for w in [
            "the",
            "and",
            "的",
            "了",
            "crawler",
            "网页",
            "",
            "themselves",
            "a",
        ] {
            let h = crate::minhash::unit_hash(w.as_bytes());
            assert_eq!(super::is_stop_word_hashed(w, h), is_stop_word(w), "{w:?}");
        }
        for w in &super::STOP_WORDS.0 {
            let h = crate::minhash::unit_hash(w.as_bytes());
            assert!(super::is_stop_word_hashed(w, h), "{w:?}");
        }
    }

    proptest::proptest! {
        /// Short words over the letters of English stop words (many are stop words, or one
        /// letter off one): the hashed check, which compares no bytes for words of up to 8
        /// bytes, agrees with the set.
        #[test]
        fn hashed_agrees_on_short_words(w in "[a-z'的了是在]{0,10}") {
            let h = crate::minhash::unit_hash(w.as_bytes());
            proptest::prop_assert_eq!(super::is_stop_word_hashed(&w, h), is_stop_word(&w));
        }
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
