//! UAX #29 words, with a fast path for ASCII text and the punctuation of English prose.
//!
//! On ASCII input, UAX #29's word rules reduce to: runs of letters, digits and `_` (WB5, WB8–10,
//! WB13a/b), joined across one `:` `.` `'` between two letters (WB6/7) or one `,` `;` `.` `'`
//! between two digits (WB11/12); everything else breaks. `unicode_words` keeps the words that
//! hold a letter or a digit. The fast path also reads the few non-ASCII characters that prose
//! in English is full of ([`simple`]): `’` and `‘` are MidNumLet, like `.` and `'`; `¶`, `—`,
//! `–`, `“`, `”`, `«`, `»` and `•` are of class Other, which no rule joins to anything but the
//! Extend, Format and ZWJ characters after it (WB4), and those are not read by the fast path.
//!
//! Text with other characters (`é`, Han, emoji…) is cut into pieces at the places where UAX #29
//! always breaks whatever surrounds them: between a space (U+0020) and an ASCII character other
//! than a space. No rule joins there (the space is only joined to another space, WB3d, or to
//! Extend/Format/ZWJ after it, WB4, and no ASCII character is either), and no rule decides a
//! boundary on one side by looking across it: the rules that look one character past a pair
//! (WB6, WB7b, WB12) do so only when the pair's right character is a MidLetter, MidNum,
//! MidNumLet or quote, the ones that look one before it (WB7, WB7c, WB11) only when the pair's
//! left character is one, and a space is none of these; regional indicators (WB15/16) are not
//! ASCII. So the words of the whole text are the words of its pieces: the pieces the fast path
//! reads take it, the others `unicode-segmentation`. Property tests check both against
//! `unicode-segmentation` on random ASCII, prose and mixed-script text.

use unicode_segmentation::UnicodeSegmentation;

/// Calls `f` with each UAX #29 word of `text` that holds a letter or a digit: what
/// `unicode-segmentation`'s `unicode_words` gives, without its state machine on the text the
/// fast path reads.
///
/// Only the pieces (see the module docs) that hold a character the fast path does not read go
/// to `unicode-segmentation`, each on its own; the text between them, however long, to the
/// fast path in one call. Text is searched for such characters eight bytes at a time, so
/// ASCII text costs one look at each word of eight bytes before its words are read.
pub(crate) fn each_word<'t>(text: &'t str, f: &mut impl FnMut(&'t str)) {
    let b = text.as_bytes();
    // `text[..done]` has been handed out; the search for other characters resumes at `at`.
    let (mut done, mut at) = (0, 0);
    while let Some(p) = next_non_ascii(b, at) {
        let Some(c) = text.get(p..).and_then(|s| s.chars().next()) else {
            break;
        };
        if simple(c) {
            at = p + c.len_utf8();
            continue;
        }
        // The piece holding `p`: from the last piece start at or before it (at least `done`,
        // itself a piece start) to the next one after it.
        let start = (done + 1..=p)
            .rev()
            .find(|&q| piece_starts(b, q))
            .unwrap_or(done);
        let end = (p + 1..b.len())
            .find(|&q| piece_starts(b, q))
            .unwrap_or(b.len());
        if start > done {
            fast_words(&text[done..start], f);
        }
        text[start..end].unicode_words().for_each(&mut *f);
        (done, at) = (end, end);
    }
    if done < b.len() {
        fast_words(&text[done..], f);
    }
}

/// Whether a piece starts at byte `q` (`q > 0`): an ASCII character other than a space after
/// a space.
fn piece_starts(b: &[u8], q: usize) -> bool {
    matches!((b.get(q.wrapping_sub(1)), b.get(q)), (Some(b' '), Some(&c)) if c < 0x80 && c != b' ')
}

/// The first byte at or after `from` that is not ASCII (the first byte of a character, when
/// `from` is at one), read eight bytes at a time.
pub(crate) fn next_non_ascii(b: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(word) = b.get(i..i + 8) {
        let mut w = [0; 8];
        w.copy_from_slice(word);
        if u64::from_le_bytes(w) & 0x8080_8080_8080_8080 != 0 {
            break;
        }
        i += 8;
    }
    b.get(i..)?.iter().position(|&c| c >= 0x80).map(|o| i + o)
}

/// The non-ASCII characters the fast path reads: MidNumLet quotes (`’` `‘`) and punctuation of
/// class Other.
const fn simple(c: char) -> bool {
    matches!(
        c,
        '\u{2018}'
            | '\u{2019}'
            | '\u{B6}'
            | '\u{2013}'
            | '\u{2014}'
            | '\u{201C}'
            | '\u{201D}'
            | '\u{AB}'
            | '\u{BB}'
            | '\u{2022}'
    )
}

/// A byte's class for [`fast_words`]: a letter, a digit, `_`, or anything else (0).
const LETTER: u8 = 1;
const DIGIT: u8 = 2;
const UNDERSCORE: u8 = 4;
const CLASS: [u8; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        #[allow(clippy::cast_possible_truncation, reason = "i < 256")]
        let c = i as u8;
        t[i] = if c.is_ascii_alphabetic() {
            LETTER
        } else if c.is_ascii_digit() {
            DIGIT
        } else if c == b'_' {
            UNDERSCORE
        } else {
            0
        };
        i += 1;
    }
    t
};

/// Bit `j`: byte `j` of `block` is a letter, a digit or `_` (a word byte of [`fast_words`]).
/// Each byte is tested on its own, which the compiler does 16 or 32 at a time, then the eight
/// 0-or-1 bytes of each 8 are gathered into 8 bits by one multiplication: byte `i` of `w`
/// times byte `j` of the constant (`0x80 >> j`) lands on bit `56 + i` when `i + j = 7`, and no
/// two products meet or carry there.
#[inline(always)]
fn word_bits(block: &[u8; 64]) -> u64 {
    let mut is_word = [0u8; 64];
    for (o, &c) in is_word.iter_mut().zip(block) {
        *o = u8::from((c | 0x20).wrapping_sub(b'a') < 26 || c.wrapping_sub(b'0') < 10 || c == b'_');
    }
    let mut bits = 0;
    for (k, eight) in is_word.chunks_exact(8).enumerate() {
        let mut w = [0; 8];
        w.copy_from_slice(eight);
        bits |= (u64::from_le_bytes(w).wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    bits
}

/// [`word_bits`] of the 64 bytes of `b` from `at` (bytes past the end count as none).
#[inline(always)]
fn block_bits(b: &[u8], at: usize) -> u64 {
    let mut block = [0; 64];
    match b.get(at..at + 64) {
        Some(s) => block.copy_from_slice(s),
        None => {
            let s = b.get(at..).unwrap_or_default();
            block[..s.len()].copy_from_slice(s);
        }
    }
    word_bits(&block)
}

/// The first bytes of the characters that may join two word runs: `:` `.` `'` `,` `;` and
/// `E2` (of U+2018, U+2019).
const MAY_JOIN: [bool; 256] = {
    let mut t = [false; 256];
    t[b':' as usize] = true;
    t[b'.' as usize] = true;
    t[b'\'' as usize] = true;
    t[b',' as usize] = true;
    t[b';' as usize] = true;
    t[0xE2] = true;
    t
};

/// The length of the character at `b[at]` when it joins the word run before it (ending with
/// byte `prev`) to the one after it.
#[inline(always)]
fn join(b: &[u8], at: usize, prev: u8) -> Option<usize> {
    let (len, letters, digits) = match (b.get(at)?, b.get(at + 1), b.get(at + 2)) {
        (b':', ..) => (1, true, false),
        (b'.' | b'\'', ..) => (1, true, true),
        (b',' | b';', ..) => (1, false, true),
        // U+2018, U+2019 (E2 80 98, E2 80 99): MidNumLet.
        (0xE2, Some(0x80), Some(0x98 | 0x99)) => (3, true, true),
        _ => return None,
    };
    let prev = CLASS[usize::from(prev)];
    let next = b.get(at + len).map_or(0, |&c| CLASS[usize::from(c)]);
    (letters && prev == LETTER && next == LETTER || digits && prev == DIGIT && next == DIGIT)
        .then_some(len)
}

/// [`each_word`] of text whose characters are ASCII or [`simple`]. (Bytes of other characters
/// are class 0 here: they break words, as the Other class does.)
///
/// A word is a run of word bytes (letters, digits, `_`), joined across one middle character
/// when [`join`] allows, that holds a letter or a digit. The runs are found 64 bytes at a
/// time, in a mask of the word bytes ([`word_bits`]): a word's start and end are the next set
/// and the next clear bit, with no branch per byte.
fn fast_words<'t>(text: &'t str, f: &mut impl FnMut(&'t str)) {
    let b = text.as_bytes();
    let n = b.len();
    // The block of 64 bytes from `base`, and its mask.
    let mut base = 0;
    let mut mask = block_bits(b, 0);
    // Everything before `at` (in the block, or at its end) has been read.
    let mut at = 0;
    loop {
        let mut rest = mask & (u64::MAX << (at - base));
        while rest == 0 {
            base += 64;
            if base >= n {
                return;
            }
            mask = block_bits(b, base);
            rest = mask;
        }
        let start = base + rest.trailing_zeros() as usize;
        let mut from = start;
        let end = loop {
            let mut gaps = !mask & (u64::MAX << (from - base));
            while gaps == 0 {
                base += 64;
                mask = block_bits(b, base);
                gaps = !mask;
            }
            let end = (base + gaps.trailing_zeros() as usize).min(n);
            if !b.get(end).is_some_and(|&c| MAY_JOIN[usize::from(c)]) {
                break end;
            }
            let Some(len) = join(b, end, b[end - 1]) else {
                break end;
            };
            // The run goes on after the middle character (in this block or the next).
            from = end + len;
            if from - base >= 64 {
                base += 64;
                mask = block_bits(b, base);
            }
        };
        // A word counts when it holds a letter or a digit: only one starting with `_` may not.
        if b[start] != b'_'
            || b[start..end]
                .iter()
                .any(|&c| CLASS[usize::from(c)] & (LETTER | DIGIT) != 0)
        {
            f(&text[start..end]);
        }
        // (`end` is in the block: the next run is looked for from there.)
        at = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(text: &str) {
        let mut fast = Vec::new();
        each_word(text, &mut |w| fast.push(w));
        let slow: Vec<&str> = text.unicode_words().collect();
        assert_eq!(fast, slow, "{text:?}");
    }

    #[test]
    fn the_rules() {
        for text in [
            "can't stop: a.b.c 1,000.5 3;4 x_y __ _a a_ a:1 1:a a.1 1.a a'1 1'2 .a. ,1, a::b",
            "http://x.y/z?q=1&r=2 e.g. i.e., 12.5.2 user_ID apt-get --help",
            "",
            "_",
            "a",
            "1",
            "'a'",
            "a'",
            "...",
            "a.b.",
            "x.y:z'w",
        ] {
            check(text);
        }
    }

    /// The mask's arithmetic test of a word byte is the class table's, for every byte.
    #[test]
    fn word_bits_are_the_classes() {
        for first in (0..256).step_by(64) {
            let block: [u8; 64] = std::array::from_fn(|i| u8::try_from(first + i).unwrap_or(0));
            let want = (0..64)
                .filter(|&i| CLASS[first + i] != 0)
                .fold(0u64, |m, i| m | 1 << i);
            assert_eq!(word_bits(&block), want, "bytes {first}..{}", first + 64);
        }
    }

    /// Words that start, end or join across the edges of the 64-byte blocks the fast path
    /// reads its masks in, and a text of one long word.
    #[test]
    fn words_across_blocks() {
        for pad in 0..140 {
            for word in ["ab.cd", "x’y", "1,000.5", "__a", "a_b:c", "can’t", "e.g."] {
                check(&format!("{}{word} {word}.{word}", " ".repeat(pad)));
                check(&format!("{}{word}", "q".repeat(pad)));
            }
        }
        check(&"word".repeat(100));
        check(&"a.".repeat(100));
    }

    proptest! {
        #[test]
        fn long_text_is_unicode_words(text in "([a-c0-2_:.',; ]|’){0,400}") {
            check(&text);
        }

        #[test]
        fn fast_path_is_unicode_words(text in "[a-cA-C0-2_:.',; \\-/\"!@#%&*()\t]{0,60}") {
            check(&text);
        }

        #[test]
        fn prose_is_unicode_words(text in "[a-bA-B0-1_:.',; \"!]{0,2}([a-b0-1 _:.',;]|[’‘¶–—“”«»•]){0,40}") {
            check(&text);
        }

        #[test]
        fn mixed_text_is_unicode_words(text in MIXED) {
            check(&text);
        }
    }

    /// ASCII letters, digits, spaces and the punctuation the rules name, with characters of
    /// every word class UAX #29 distinguishes: letters with marks, combining marks (one
    /// alphabetic), Format, ZWJ, Hebrew letters and quotes, Katakana, Han, emoji, regional
    /// indicators, other spaces, MidLetter and MidNum characters, ExtendNumLet.
    const MIXED: &str = "[a-cA-C0-2_:.',;\\- \"!\t\n\r]{0,3}([a-b0-1 _:.',]|[éß’‘“”¶—–·…×\u{301}\u{93E}\u{AD}\u{200D}\u{200B}\u{2060}\u{5D0}\u{5F4}\u{5F3}\u{30AB}\u{30FC}\u{4E2D}\u{6587}\u{3001}\u{3000}\u{A0}\u{2028}\u{1F600}\u{1F1EB}\u{1F1F7}\u{FF21}\u{FF10}\u{203F}\u{FE13}\u{37E}\u{2044}\u{FE50}\u{660}\u{E0}\u{1100}]){0,40}";

    #[test]
    fn mixed_cases() {
        for text in [
            "can’t stop ¶ a’b a ’b a’ b é.b 1,٠ ٠,1",
            "x \u{301}a a \u{301}b \u{93E} \u{93E}a a\u{200D} \u{200D}😀 x",
            "\u{5D0}\"\u{5D0} \u{5D0}\" a \"\u{5D0} 🇫🇷🇫 a 🇫🇷 b",
            "a  b\u{A0}c \u{3000}d ‘e’ “f” g—h i–j k…l",
            "中文 text 中文text text中文 カタカナ ｶﾀｶﾅ ＡＢＣ",
            "can’t a‘b 1’2 1‘2 a’1 ’a a’ a’’b a’.b ¶a a¶ “a” «b» c—d e–f •g 1¶2 1.2’3 a’b’c é’a",
            "Title¶ it’s “quoted” — done «x» • item a\u{301}’b ’\u{301}a ¶\u{301}a",
        ] {
            check(text);
        }
    }
}
