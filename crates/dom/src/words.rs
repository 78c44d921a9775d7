//! The words of a page's text, when the caller collects it, kept beside the tree instead of
//! in it.
//!
//! The tree builder does not need the text: it only tells white space from the rest (the
//! reduced text of `tokens.rs`). So the bridge keeps every visible run of words (the words of
//! one text between two tags, one space apart) in one [`WordStore`] and hands the tree builder
//! a single stand-in character per run, [`word_char`]: a private-use character that carries
//! the run's number modulo [`CODES`]. The tree builder treats it like any other character that
//! is not white space, so the tree is the one the real text builds; when it hands a run of
//! text to the sink, the arena turns the stand-ins back into run numbers ([`WordDecoder`]) and
//! keeps, per text node, a list of [`Item`]s. The main-content text is then written from those
//! items and the store, with no string per text node and no second copy of the text.
//!
//! Text the tree builder never shows (script, style, title… in their raw-text states) gets
//! [`HIDDEN`] instead, and nothing in the store.

use std::borrow::Cow;

/// The stand-ins are `U+E000 + n % CODES`: the Basic Multilingual Plane's private-use area,
/// less its last character.
pub(crate) const CODES: usize = 0xF8FF - 0xE000;

/// The stand-in of a run of hidden text: nothing in the store.
pub(crate) const HIDDEN: char = '\u{F8FF}';

/// The stand-in of run number `n`.
pub(crate) fn word_char(n: usize) -> char {
    char::from_u32(0xE000 + u32::try_from(n % CODES).unwrap_or(0)).unwrap_or(HIDDEN)
}

/// Every run of words of the visible text, in the order the tokenizer read them (an entry
/// may also be one word the tree builder made itself: see [`WordDecoder`]).
#[derive(Debug, Default)]
pub(crate) struct WordStore {
    bytes: Vec<u8>,
    starts: Vec<usize>,
}

impl WordStore {
    /// Starts a new entry; returns its number.
    pub(crate) fn start(&mut self) -> usize {
        self.starts.push(self.bytes.len());
        self.starts.len() - 1
    }

    /// Makes room for `bytes` bytes in `entries` entries.
    pub(crate) fn reserve(&mut self, bytes: usize, entries: usize) {
        self.bytes.reserve(bytes);
        self.starts.reserve(entries);
    }

    /// Adds bytes to the last entry (a character may come in pieces).
    pub(crate) fn extend(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.starts.len()
    }

    /// The bytes of all the entries.
    pub(crate) fn len_bytes(&self) -> usize {
        self.bytes.len()
    }

    /// The byte range of entry `n` in the store.
    fn range(&self, n: usize) -> Option<(usize, usize)> {
        let start = *self.starts.get(n)?;
        let end = self.starts.get(n + 1).copied().unwrap_or(self.bytes.len());
        Some((start, end))
    }

    /// The whole store as one string, when it is UTF-8 (always, from the bridge: words end
    /// at ASCII white space, so no character is cut), checked once for all its entries.
    pub(crate) fn text(&self) -> Option<&str> {
        std::str::from_utf8(&self.bytes).ok()
    }

    /// Entry `n` of `text`, the store's [`text`](Self::text).
    pub(crate) fn get_in<'t>(&self, text: &'t str, n: usize) -> Option<&'t str> {
        let (start, end) = self.range(n)?;
        text.get(start..end)
    }

    /// Entry `n` (replacement characters for bytes that are not UTF-8; none from the bridge).
    pub(crate) fn get(&self, n: usize) -> Option<Cow<'_, str>> {
        let (start, end) = self.range(n)?;
        let bytes = self.bytes.get(start..end)?;
        Some(
            std::str::from_utf8(bytes)
                .map_or_else(|_| String::from_utf8_lossy(bytes), Cow::Borrowed),
        )
    }
}

/// One piece of a text node: an entry of the store, or white space.
pub(crate) type Item = u32;

/// The [`Item`] for white space (one or more characters).
pub(crate) const SPACE: Item = Item::MAX;

/// Turns runs of text as the tree builder hands them to the sink, in the order it read them,
/// into [`Item`]s.
#[derive(Debug, Default)]
pub(crate) struct WordDecoder {
    /// The number of the next entry expected.
    next: usize,
    /// Text is real text (html5ever's own tokenizer, in tests), not stand-ins: its words go
    /// into the store here.
    pub(crate) literal: bool,
}

impl WordDecoder {
    /// Appends the items of `text` to `items`.
    pub(crate) fn decode(&mut self, text: &str, store: &mut WordStore, items: &mut Vec<Item>) {
        if self.literal {
            return Self::literal(text, store, items);
        }
        let mut space = false;
        // Inside a word of real text: one the tree builder made itself (U+FFFD for a NUL in
        // foreign content).
        let mut own_word = false;
        let bytes = text.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r') {
                space = true;
                own_word = false;
                i += 1;
                continue;
            }
            // A character of three bytes from U+E000 (EE 80 80) to U+F8FF (EF A3 BF): the
            // stand-ins, read without decoding every character.
            let len = match b {
                0x00..0x80 => 1,
                0xC0..0xE0 => 2,
                0xE0..0xF0 => 3,
                _ => 4,
            };
            let ch = match (b, bytes.get(i + 1), bytes.get(i + 2)) {
                (0xEE | 0xEF, Some(&b1), Some(&b2)) => char::from_u32(
                    (u32::from(b & 0x0F) << 12)
                        | (u32::from(b1 & 0x3F) << 6)
                        | u32::from(b2 & 0x3F),
                ),
                _ => text.get(i..i + len).and_then(|c| c.chars().next()),
            };
            i += len;
            match ch {
                Some(HIDDEN) => own_word = false,
                Some(c @ '\u{E000}'..'\u{F8FF}') => {
                    own_word = false;
                    if space {
                        items.push(SPACE);
                        space = false;
                    }
                    // The first entry at or after `next` with this remainder: the tree builder
                    // hands text on in the order it read it, and drops some only in rare
                    // modes (frameset), never `CODES` runs at once.
                    let code = (c as usize) - 0xE000;
                    let n = self.next + (code + CODES - self.next % CODES) % CODES;
                    self.next = n + 1;
                    items.push(Item::try_from(n).unwrap_or(SPACE - 1));
                }
                Some(c) => {
                    if !own_word {
                        if space {
                            items.push(SPACE);
                            space = false;
                        }
                        let n = store.start();
                        self.next = self.next.max(n + 1);
                        items.push(Item::try_from(n).unwrap_or(SPACE - 1));
                        own_word = true;
                    }
                    store.extend(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                None => {}
            }
        }
        if space {
            items.push(SPACE);
        }
    }

    fn literal(text: &str, store: &mut WordStore, items: &mut Vec<Item>) {
        for (i, word) in text.split([' ', '\t', '\n', '\x0c', '\r']).enumerate() {
            if i > 0 && items.last() != Some(&SPACE) {
                items.push(SPACE);
            }
            if !word.is_empty() {
                let n = store.start();
                store.extend(word.as_bytes());
                items.push(Item::try_from(n).unwrap_or(SPACE - 1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words 0.. of `words` in the store, `reduced` decoded: the items shown as words and `_`.
    fn check(words: &[&str], reduced: &str, expected: &str) {
        let mut store = WordStore::default();
        for w in words {
            store.start();
            store.extend(w.as_bytes());
        }
        let mut items = Vec::new();
        WordDecoder::default().decode(reduced, &mut store, &mut items);
        let shown: Vec<String> = items
            .iter()
            .map(|&i| {
                if i == SPACE {
                    "_".to_owned()
                } else {
                    store.get(i as usize).map_or("?".into(), Cow::into_owned)
                }
            })
            .collect();
        assert_eq!(shown.join(""), expected, "{reduced:?}");
    }

    #[test]
    fn stand_ins_decode_to_their_words() {
        let (a, b, c) = (word_char(0), word_char(1), word_char(2));
        check(
            &["foo", "bar", "baz"],
            &format!("{a} {b}\n\n{c} "),
            "foo_bar_baz_",
        );
        check(&["foo", "bar"], &format!("{a}{b}"), "foobar");
        // A word the tree builder dropped: the next stand-in still finds its own.
        check(&["foo", "bar", "baz"], &format!("{a} {c}"), "foo_baz");
        check(&["foo"], &format!("{HIDDEN} {a}"), "_foo");
        // Text the tree builder made itself is a word of its own.
        check(&["foo"], &format!("{a} \u{fffd}"), "foo_\u{fffd}");
    }

    #[test]
    fn numbers_wrap_around_the_codes() {
        let words: Vec<String> = (0..CODES + 3).map(|i| format!("w{i}")).collect();
        let refs: Vec<&str> = words.iter().map(String::as_str).collect();
        let mut store = WordStore::default();
        for w in &refs {
            store.start();
            store.extend(w.as_bytes());
        }
        let text: String = (0..CODES + 3).map(word_char).collect();
        let mut items = Vec::new();
        WordDecoder::default().decode(&text, &mut store, &mut items);
        assert_eq!(items.len(), CODES + 3);
        assert_eq!(items[CODES + 2], Item::try_from(CODES + 2).expect("small"));
    }

    #[test]
    fn literal_text_fills_the_store() {
        let mut store = WordStore::default();
        let mut items = Vec::new();
        let mut decoder = WordDecoder {
            literal: true,
            ..WordDecoder::default()
        };
        decoder.decode(" a  b\u{a0}c ", &mut store, &mut items);
        assert_eq!(items, [SPACE, 0, SPACE, 1, SPACE]);
        assert_eq!(store.get(1).as_deref(), Some("b\u{a0}c"));
        assert_eq!(store.get(2), None);
    }
}
