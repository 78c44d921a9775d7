//! The words of a page's text, when the caller collects it, kept beside the tree instead of
//! in it.
//!
//! The tree builder does not need the text: it only tells white space from the rest (the
//! reduced text of `tokens.rs`). So the bridge keeps every visible run of words (the words of
//! one text between two tags, with the white space between them as it came, none at either
//! end) in one [`WordStore`] and hands the tree builder
//! a single stand-in character per run, [`word_char`]: a private-use character that carries
//! the run's number modulo [`CODES`]. The tree builder treats it like any other character that
//! is not white space, so the tree is the one the real text builds; when it hands a run of
//! text to the sink, the arena turns the stand-ins back into run numbers ([`WordDecoder`])
//! and copies each run from the store into the main-content text
//! ([`crate::text::TextWriter`], which closes up its white space), with no string per text
//! node and no text node at all.
//!
//! Text the tree builder never shows (script, style, title… in their raw-text states) gets
//! [`HIDDEN`] instead, and nothing in the store.

use crate::text::Lines;

/// The stand-ins are `U+E000 + n % CODES`: the first 4,096 characters of the Basic
/// Multilingual Plane's private-use area (a power of two: no division per run).
pub(crate) const CODES: usize = 0x1000;

/// The stand-in of a run of hidden text: nothing in the store.
pub(crate) const HIDDEN: char = '\u{F8FF}';

/// The stand-in of run number `n`.
pub(crate) fn word_char(n: usize) -> char {
    char::from_u32(0xE000 + u32::try_from(n % CODES).unwrap_or(0)).unwrap_or(HIDDEN)
}

/// Every run of words of the visible text, in the order the tokenizer read them.
#[derive(Debug, Default)]
pub(crate) struct WordStore {
    bytes: Vec<u8>,
    starts: Vec<usize>,
}

impl WordStore {
    /// Starts a new entry; returns its number.
    #[inline(always)]
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
    #[inline(always)]
    pub(crate) fn extend(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// The number of entries.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.starts.len()
    }

    /// The byte range of entry `n` in the store.
    fn range(&self, n: usize) -> Option<(usize, usize)> {
        let start = *self.starts.get(n)?;
        let end = self.starts.get(n + 1).copied().unwrap_or(self.bytes.len());
        Some((start, end))
    }

    /// The bytes of entry `n`.
    pub(crate) fn get_bytes(&self, n: usize) -> Option<&[u8]> {
        let (start, end) = self.range(n)?;
        self.bytes.get(start..end)
    }
}

/// Turns runs of text as the tree builder hands them to the sink, in the order it read them,
/// back into their words, for the [`crate::text::TextWriter`].
#[derive(Debug, Default)]
pub(crate) struct WordDecoder {
    /// The number of the next entry expected.
    next: usize,
    /// Text is real text (html5ever's own tokenizer, in tests), not stand-ins.
    pub(crate) literal: bool,
}

impl WordDecoder {
    /// Writes the words and white space of `text` to `out` (`None`: text no output takes,
    /// whose stand-ins are only counted).
    ///
    /// Most texts the tree builder hands over are one run between two tags, white space
    /// around it: read in one look, with no loop over their bytes.
    pub(crate) fn decode(&mut self, text: &str, store: &WordStore, mut out: Option<&mut Lines>) {
        if self.literal {
            return Self::literal(text, out);
        }
        let bytes = text.as_bytes();
        let lead = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if lead == bytes.len() {
            // White space only (about half the texts, between tags): a space is due.
            if let Some(out) = out
                && lead > 0
            {
                out.space();
            }
            return;
        }
        if let Some(n) = stand_in(bytes, lead)
            && bytes[lead + 3..].iter().all(u8::is_ascii_whitespace)
        {
            let n = self.number(n);
            if let Some(out) = out {
                if lead > 0 {
                    out.space();
                }
                if let Some(words) = store.get_bytes(n) {
                    out.push(words);
                }
                if bytes.len() > lead + 3 {
                    out.space();
                }
            }
            return;
        }
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii_whitespace() {
                if let Some(out) = out.as_deref_mut() {
                    out.space();
                }
                i += 1;
                continue;
            }
            let len = match b {
                0x00..0x80 => 1,
                0xC0..0xE0 => 2,
                0xE0..0xF0 => 3,
                _ => 4,
            };
            if let Some(code) = stand_in(bytes, i) {
                let n = self.number(code);
                if let (Some(out), Some(words)) = (out.as_deref_mut(), store.get_bytes(n)) {
                    out.push(words);
                }
            } else if let (Some(out), Some(c)) = (
                out.as_deref_mut(),
                text.get(i..i + len).and_then(|c| c.chars().next()),
            ) && c != HIDDEN
            {
                // Text the tree builder made itself (U+FFFD for a NUL in foreign content): a
                // piece of a word.
                out.push(&bytes[i..(i + len).min(bytes.len())]);
            }
            i += len;
        }
    }

    /// The entry a stand-in of code `code` (its number modulo [`CODES`]) stands for: the
    /// first at or after `next` with this remainder, since the tree builder hands text on in
    /// the order it read it, and drops some only in rare modes (frameset), never `CODES` runs
    /// at once.
    fn number(&mut self, code: usize) -> usize {
        let n = self.next + (code + CODES - self.next % CODES) % CODES;
        self.next = n + 1;
        n
    }

    fn literal(text: &str, out: Option<&mut Lines>) {
        let Some(out) = out else {
            return;
        };
        for (i, word) in text.split([' ', '\t', '\n', '\x0c', '\r']).enumerate() {
            if i > 0 {
                out.space();
            }
            out.push(word.as_bytes());
        }
    }
}

/// The code of the run stand-in at byte `i` of `bytes` (a character of three bytes from
/// U+E000, EE 80 80, to U+EFFF, EE BF BF), read without decoding every character; `None`
/// for anything else, [`HIDDEN`] (U+F8FF) included.
fn stand_in(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes.get(i..i + 3)? {
        &[0xEE, b1, b2] if b1 & 0xC0 == 0x80 && b2 & 0xC0 == 0x80 => {
            Some((usize::from(b1 & 0x3F) << 6) | usize::from(b2 & 0x3F))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{BODY, TextWriter};

    /// `words` as entries 0.. of the store, then `text` decoded: the text written.
    fn decoded(words: &[&str], text: &str, literal: bool) -> String {
        let mut store = WordStore::default();
        for w in words {
            store.start();
            store.extend(w.as_bytes());
        }
        let mut out = TextWriter::new(1 << 20);
        let mut decoder = WordDecoder {
            literal,
            ..WordDecoder::default()
        };
        decoder.decode(text, &store, out.text_out(BODY, 0));
        out.finish().0
    }

    fn check(words: &[&str], reduced: &str, expected: &str) {
        assert_eq!(decoded(words, reduced, false), expected, "{reduced:?}");
    }

    #[test]
    fn stand_ins_decode_to_their_words() {
        let (a, b, c) = (word_char(0), word_char(1), word_char(2));
        check(
            &["foo", "bar", "baz"],
            &format!("{a} {b}\n\n{c} "),
            "foo bar baz",
        );
        check(&["foo", "bar"], &format!("{a}{b}"), "foobar");
        // A run the tree builder dropped: the next stand-in still finds its own.
        check(&["foo", "bar", "baz"], &format!("{a} {c}"), "foo baz");
        check(&["foo"], &format!("{HIDDEN} {a}"), "foo");
        check(&["foo", "bar"], &format!("{a}{HIDDEN}{b}"), "foobar");
        // Text the tree builder made itself is part of a word.
        check(&["foo"], &format!("{a} \u{fffd}"), "foo \u{fffd}");
        check(
            &["foo"],
            &format!("{a}\u{fffd}\u{fffd}"),
            "foo\u{fffd}\u{fffd}",
        );
    }

    /// Texts of one run with white space around it (read in one look) keep the white space
    /// between runs, and hidden text (no output) still counts its stand-ins.
    #[test]
    fn one_run_with_white_space_around_it() {
        let (a, b, c) = (word_char(0), word_char(1), word_char(2));
        let mut store = WordStore::default();
        for w in ["foo", "bar", "baz"] {
            store.start();
            store.extend(w.as_bytes());
        }
        let run = |texts: &[(String, bool)]| {
            let mut out = TextWriter::new(1 << 20);
            let mut decoder = WordDecoder::default();
            for (text, shown) in texts {
                let to = if *shown { BODY } else { crate::text::HIDDEN };
                decoder.decode(text, &store, out.text_out(to, 0));
            }
            out.finish().0
        };
        let t = |s: String| (s, true);
        assert_eq!(run(&[t(format!("{a}")), t(format!(" {b}\n"))]), "foo bar");
        assert_eq!(run(&[t(format!("{a}\t")), t(format!("{b}"))]), "foo bar");
        assert_eq!(run(&[t(format!("{a}")), t(format!("{b}"))]), "foobar");
        assert_eq!(
            run(&[
                t(format!("  {a} ")),
                (format!(" {b} "), false),
                t(format!("{c}"))
            ]),
            "foo baz"
        );
    }

    #[test]
    fn numbers_wrap_around_the_codes() {
        let words: Vec<String> = (0..CODES + 3).map(|i| format!("w{i}")).collect();
        let refs: Vec<&str> = words.iter().map(String::as_str).collect();
        let text: String = (0..CODES + 3)
            .map(word_char)
            .collect::<Vec<_>>()
            .iter()
            .map(|c| format!("{c} "))
            .collect();
        let out = decoded(&refs, &text, false);
        assert_eq!(out.split(' ').count(), CODES + 3);
        assert_eq!(
            out.split(' ').nth(CODES + 2),
            Some(format!("w{}", CODES + 2).as_str())
        );
    }

    #[test]
    fn literal_text_is_written_as_it_comes() {
        assert_eq!(decoded(&[], " a  b\u{a0}c ", true), "a b c");
        assert_eq!(decoded(&[], "", true), "");
    }
}
