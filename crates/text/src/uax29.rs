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
pub(crate) fn each_word<'t>(text: &'t str, f: &mut impl FnMut(&'t str)) {
    if text.is_ascii() {
        return fast_words(text, f);
    }
    let b = text.as_bytes();
    // Runs of whole pieces of one kind (read by the fast path or not): [run, piece) so far.
    let mut run = 0;
    let mut run_fast = true;
    let mut piece = 0;
    let mut piece_fast = true;
    let mut flush = |from: usize, to: usize, fast: bool| {
        if let Some(s) = text.get(from..to) {
            if fast {
                fast_words(s, f);
            } else {
                s.unicode_words().for_each(&mut *f);
            }
        }
    };
    for (p, &c) in b.iter().enumerate() {
        if p > 0 && c < 0x80 && c != b' ' && b[p - 1] == b' ' {
            // A piece ends at `p`.
            if piece_fast != run_fast && piece > run {
                flush(run, piece, run_fast);
                run = piece;
            }
            run_fast = piece_fast;
            piece = p;
            piece_fast = true;
        }
        // (A character's first byte; continuation bytes are 0x80..0xC0.)
        if c >= 0xC0 && piece_fast {
            piece_fast = text
                .get(p..)
                .and_then(|s| s.chars().next())
                .is_some_and(simple);
        }
    }
    if piece_fast != run_fast && piece > run {
        flush(run, piece, run_fast);
        run = piece;
        run_fast = piece_fast;
    }
    flush(run, b.len(), run_fast && piece_fast);
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

/// [`each_word`] of text whose characters are ASCII or [`simple`]. (Bytes of other characters
/// are class 0 here: they break words, as the Other class does.)
fn fast_words<'t>(text: &'t str, f: &mut impl FnMut(&'t str)) {
    let b = text.as_bytes();
    let class = |i: usize| b.get(i).map_or(0, |&c| CLASS[usize::from(c)]);
    let mut i = 0;
    while i < b.len() {
        if class(i) == 0 {
            i += 1;
            continue;
        }
        let start = i;
        // Whether the word holds a letter or a digit (not only `_`).
        let mut alnum = false;
        loop {
            loop {
                let c = class(i);
                if c == 0 {
                    break;
                }
                alnum |= c != UNDERSCORE;
                i += 1;
            }
            // `i` is past the run: join across one middle character when the rules allow.
            let (Some(&prev), Some(&mid)) = (b.get(i.wrapping_sub(1)), b.get(i)) else {
                break;
            };
            // The middle character's length, and whether it may join letters, digits.
            let (len, letters, digits) = match (mid, b.get(i + 1), b.get(i + 2)) {
                (b':', ..) => (1, true, false),
                (b'.' | b'\'', ..) => (1, true, true),
                (b',' | b';', ..) => (1, false, true),
                // U+2018, U+2019 (E2 80 98, E2 80 99): MidNumLet.
                (0xE2, Some(0x80), Some(0x98 | 0x99)) => (3, true, true),
                _ => break,
            };
            let (prev, next) = (CLASS[usize::from(prev)], class(i + len));
            if !(letters && prev == LETTER && next == LETTER
                || digits && prev == DIGIT && next == DIGIT)
            {
                break;
            }
            i += len;
        }
        if alnum {
            f(&text[start..i]);
        }
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

    proptest! {
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
