//! UAX #29 words, with a fast path for ASCII text.
//!
//! On ASCII input, UAX #29's word rules reduce to: runs of letters, digits and `_` (WB5, WB8–10,
//! WB13a/b), joined across one `:` `.` `'` between two letters (WB6/7) or one `,` `;` `.` `'`
//! between two digits (WB11/12); everything else breaks. `unicode_words` keeps the words that
//! hold a letter or a digit. A property test checks the fast path against
//! `unicode-segmentation` on random ASCII text.

use unicode_segmentation::UnicodeSegmentation;

/// Calls `f` with each UAX #29 word of `text` that holds a letter or a digit: what
/// `unicode-segmentation`'s `unicode_words` gives, without its state machine on ASCII text.
pub(crate) fn each_word<'t>(text: &'t str, f: &mut impl FnMut(&'t str)) {
    if !text.is_ascii() {
        text.unicode_words().for_each(f);
        return;
    }
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        if !word(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let mut alnum = false;
        loop {
            while i < b.len() && word(b[i]) {
                alnum |= b[i] != b'_';
                i += 1;
            }
            // `i` is past the run: join across one middle character when the rules allow.
            let (Some(&prev), Some(&mid), Some(&next)) = (b.get(i - 1), b.get(i), b.get(i + 1))
            else {
                break;
            };
            let letters = prev.is_ascii_alphabetic()
                && next.is_ascii_alphabetic()
                && matches!(mid, b':' | b'.' | b'\'');
            let digits = prev.is_ascii_digit()
                && next.is_ascii_digit()
                && matches!(mid, b',' | b';' | b'.' | b'\'');
            if !(letters || digits) {
                break;
            }
            i += 1;
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
    }
}
