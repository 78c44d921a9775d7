//! The signature's word counts, kept as the tokenizer hands the words over.
//!
//! Every word is counted, stop words too: whether a word is one is asked once per distinct
//! word, when it gets its slot, and the signature leaves those slots out. So the word loop has
//! no branch on it (a branch that went either way about as often as words are stop words) and
//! keeps no list of the words or of their hashes for a second pass.

/// The most slots [`WordCounts::add`] looks at for one word. A table at most half full of
/// well-spread hashes needs a few; only hashes a page chose to collide need more.
const MAX_PROBE: usize = 256;

/// A slot of the table: a distinct word (its place in [`WordCounts::words`], [`FREE`] for a
/// free slot) and its unit hash.
#[derive(Clone, Copy)]
struct Slot {
    hash: u64,
    word: u32,
}

/// The `word` of a free [`Slot`].
const FREE: u32 = u32::MAX;

impl Default for Slot {
    fn default() -> Self {
        Self {
            hash: 0,
            word: FREE,
        }
    }
}

/// A distinct word with how many times it came, and whether it is a stop word.
#[derive(Clone, Copy)]
struct Entry<'w> {
    word: &'w str,
    count: u32,
    stop: bool,
}

/// Each distinct word once, with its count and whether it is a stop word, in a table probed
/// linearly from the word's hash (given, not computed here) and kept at most half full: it
/// starts with the room it is given and doubles when it would pass that. Two words are one
/// when their hashes and lengths agree and, beyond 8 bytes, their bytes (two different words
/// of up to 8 bytes never share a unit hash, `minhash::unit_hash`).
///
/// Counting gives up ([`counts`](Self::counts) is `None`) past `u32::MAX` words, or once a
/// word's probe passes [`MAX_PROBE`] slots: the hashes are not spread (a hostile page can
/// choose words whose public unit hashes collide), and counting them here would take time
/// quadratic in the words. The caller then counts the words again in a map with a random key.
pub(crate) struct WordCounts<'w> {
    table: Vec<Slot>,
    /// Each distinct word at its first place, with its count and whether it is a stop word
    /// (the signature reads them here, in a dense list, not in the table's slots).
    words: Vec<Entry<'w>>,
    /// Words counted so far.
    total: u64,
    failed: bool,
}

impl<'w> WordCounts<'w> {
    /// Counts with room for about `distinct` distinct words before the table first doubles.
    pub(crate) fn with_room(distinct: usize) -> Self {
        Self {
            table: vec![Slot::default(); (distinct * 2).next_power_of_two().max(16)],
            words: Vec::with_capacity(distinct),
            total: 0,
            failed: false,
        }
    }

    /// Counts `word`, whose unit hash is `hash`; `stop` tells whether it is a stop word, and is
    /// asked only the first time the word comes.
    #[inline(always)]
    pub(crate) fn add(&mut self, word: &'w str, hash: u64, stop: impl FnOnce() -> bool) {
        self.total += 1;
        if self.failed || self.total > u64::from(u32::MAX) {
            self.failed = true;
            return;
        }
        let mask = self.table.len() - 1;
        #[allow(clippy::cast_possible_truncation, reason = "the low bits, masked")]
        let mut at = hash as usize & mask;
        for _ in 0..=MAX_PROBE {
            let slot = &mut self.table[at];
            if slot.word == FREE {
                #[allow(clippy::cast_possible_truncation, reason = "at most u32::MAX words")]
                let index = self.words.len() as u32;
                self.words.push(Entry {
                    word,
                    count: 1,
                    stop: stop(),
                });
                *slot = Slot { hash, word: index };
                if self.words.len() * 2 > self.table.len() {
                    self.table = grown(&self.table);
                }
                return;
            }
            if slot.hash == hash {
                let other = &mut self.words[slot.word as usize];
                if other.word.len() == word.len() && (word.len() <= 8 || other.word == word) {
                    other.count += 1;
                    return;
                }
            }
            at = (at + 1) & mask;
        }
        self.failed = true;
    }

    /// Each distinct word that is no stop word with its count, and how many times such words
    /// came in all; `None` when counting gave up.
    pub(crate) fn counts(&self) -> Option<(Vec<(&'w str, u32)>, usize)> {
        if self.failed {
            return None;
        }
        // Written in place, kept or not, and the place moves on past kept ones only: no
        // branch on whether a word is a stop word (one in several, in no order).
        let mut kept: Vec<(&'w str, u32)> = vec![("", 0); self.words.len()];
        let mut n = 0;
        for e in &self.words {
            kept[n] = (e.word, e.count);
            n += usize::from(!e.stop);
        }
        kept.truncate(n);
        let total = kept.iter().map(|&(_, c)| c as usize).sum();
        Some((kept, total))
    }
}

/// `table`'s words in a table twice its size.
fn grown(table: &[Slot]) -> Vec<Slot> {
    let mut bigger = vec![Slot::default(); table.len() * 2];
    let mask = bigger.len() - 1;
    for slot in table.iter().filter(|s| s.word != FREE) {
        #[allow(clippy::cast_possible_truncation, reason = "the low bits, masked")]
        let mut at = slot.hash as usize & mask;
        while bigger[at].word != FREE {
            at = (at + 1) & mask;
        }
        bigger[at] = *slot;
    }
    bigger
}

#[cfg(test)]
mod tests {
    use crate::minhash::unit_hash;
    use crate::{ContentConfig, ContentHasher, IdfTable, signature};

    /// A page whose words' unit hashes share their low 10 bits (found by trying 8-letter
    /// words, as a hostile page could): the table gives up, the fingerprint counts the words
    /// again from their list, and its word count and signature are still those of `words()`.
    #[test]
    fn a_page_that_defeats_the_table_is_counted_again() {
        let mut chosen = Vec::new();
        let mut n: u64 = 0;
        while chosen.len() < 300 {
            let (mut w, mut x) = ([0u8; 8], n);
            for c in &mut w {
                *c = b'a' + u8::try_from(x % 26).unwrap_or(0);
                x /= 26;
            }
            if unit_hash(&w) & 0x3FF == 0 {
                chosen.push(String::from_utf8_lossy(&w).into_owned());
            }
            n += 1;
        }
        let text: Vec<&str> = chosen
            .iter()
            .enumerate()
            .flat_map(|(i, w)| std::iter::repeat_n(w.as_str(), 1 + i % 3))
            .collect();
        let text = text.join(" ");
        let mut counts = super::WordCounts::with_room(text.len() / 32);
        for w in text.split(' ') {
            counts.add(w, unit_hash(w.as_bytes()), || false);
        }
        assert!(counts.counts().is_none(), "the table should give up");
        let hasher = ContentHasher::new(ContentConfig::default()).expect("valid");
        let words = hasher.words(&text);
        let f = hasher.fingerprint(&text).expect("enough words");
        assert_eq!(f.words, words.len());
        assert_eq!(f.signature, signature(&words, &IdfTable::jieba(), 20));
        assert!(f.signature.is_some());
    }
}
