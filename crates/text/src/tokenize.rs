//! Tokenizers: text → lower-cased words.

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use jieba_rs::Jieba;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

use crate::TextError;
use crate::jieba_small::{SMALL, available as small_dictionary, cut as cut_small, is_jieba_han};
use crate::uax29::each_word;

/// jieba-rs with its default dictionary, loaded once, on first use.
pub(crate) static JIEBA: LazyLock<Jieba> = LazyLock::new(Jieba::new);

/// How text is cut into words. Every tokenizer lower-cases; all but `mfonda` also apply NFKC.
///
/// | name | words |
/// |---|---|
/// | `mfonda` | the matches of `[\w']+(?:\://[\w\./]+){0,1}` (ASCII `\w`) in the lower-cased text: mfonda/simhash's, ALGORITHM.md §1 |
/// | `unicode` | NFKC, lower case, then the UAX #29 words holding a letter or a digit (`unicode-segmentation`'s `unicode_words`): each Han character is a word |
/// | `jieba` | as `unicode`, except that every run of Han characters is cut by jieba-rs (default dictionary, no HMM) |
/// | `auto` | `jieba` when the text holds a Han character, `unicode` otherwise (the same words as `jieba`, without loading its dictionary) |
///
/// ```
/// use silhouette_text::Tokenizer;
/// assert_eq!(Tokenizer::Unicode.tokenize("Ｆｕｌｌ-width TEXT, can't"), ["full", "width", "text", "can't"]);
/// assert_eq!(Tokenizer::Auto.tokenize("我们的网页去重"), ["我们", "的", "网页", "去", "重"]);
/// assert_eq!(Tokenizer::Mfonda.tokenize("See http://a.b/c"), ["see", "http://a.b/c"]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Tokenizer {
    /// mfonda/simhash's regex words (ALGORITHM.md §1).
    Mfonda,
    /// UAX #29 words after NFKC and lower-casing.
    Unicode,
    /// jieba-rs for Han runs, UAX #29 for the rest.
    Jieba,
    /// `jieba` where Han characters appear, `unicode` otherwise.
    #[default]
    Auto,
}

impl Tokenizer {
    /// The words of `text`, in order.
    #[must_use]
    pub fn tokenize(self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.for_each_word(text, |w| out.push(w.to_owned()));
        out
    }

    /// The words of `text`, in order, in one buffer: the same words as [`tokenize`](Self::tokenize)
    /// without an allocation per word.
    #[must_use]
    pub fn words(self, text: &str) -> crate::Words {
        let mut out = crate::Words::with_capacity(text.len());
        self.for_each_word(text, |w| out.push(w));
        out
    }

    /// Calls `f` with every word of `text`, in order, without collecting them.
    pub fn for_each_word(self, text: &str, mut f: impl FnMut(&str)) {
        match self {
            Self::Mfonda => {
                let lower = text.to_lowercase();
                crate::mfonda_words(&lower).for_each(f);
            }
            Self::Jieba => jieba_words(text, &mut f),
            Self::Auto if contains_han(text) => {
                jieba_words(text, &mut f);
            }
            Self::Unicode | Self::Auto => {
                let mut norm = String::new();
                uax29_words(text, &mut norm, f);
            }
        }
    }

    /// [`for_each_word`](Self::for_each_word) without a copy of each word: when the tokenizer
    /// reads the text line by line with UAX #29 (`unicode`, and `auto` on text without Han),
    /// normalises the whole text into `norm` and calls `f` with each word as a slice of it, then
    /// returns whether no word holds a Han character (`Some(true)` when none can: the
    /// normalised text has no byte a Han character starts with); otherwise returns `None` and
    /// calls nothing.
    pub(crate) fn for_each_word_in<'n>(
        self,
        text: &str,
        norm: &'n mut String,
        mut f: impl FnMut(&'n str),
    ) -> Option<bool> {
        match self {
            Self::Unicode => {}
            Self::Auto if !contains_han(text) => {}
            _ => return None,
        }
        // `uax29_words`, with the one look at the normalised text that only this path needs.
        normalize_whole(text, norm);
        let norm: &'n str = norm;
        let han_free = !may_hold_han(norm);
        each_word(norm, &mut f);
        Some(han_free)
    }

    /// The name `FromStr` reads and `params()` records.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Mfonda => "mfonda",
            Self::Unicode => "unicode",
            Self::Jieba => "jieba",
            Self::Auto => "auto",
        }
    }
}

impl fmt::Display for Tokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Tokenizer {
    type Err = TextError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Self::Mfonda, Self::Unicode, Self::Jieba, Self::Auto]
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| TextError::config("tokenizer", s, "one of mfonda, unicode, jieba, auto"))
    }
}

/// NFKC, then lower case.
///
/// Fast path for most text: when every character is ASCII, one that NFKC and lower-casing
/// leave alone wherever it stands (NFKC_QC = Yes, canonical combining class 0, its own lower
/// case: CJK ideographs, most punctuation, lower-case letters such as `é`), an upper-case
/// letter of that kind (lower-cased on its own), a no-break space or `…` (which NFKC maps to a
/// space and `...`) or a full-width ASCII form (U+FF01..U+FF5E, which NFKC maps to ASCII), the
/// result is built in one pass: none of these compose or reorder. Anything else (combining
/// marks, compatibility characters, `Σ`, whose lower case depends on its neighbours) takes
/// `unicode-normalization`'s NFKC. Tests check the fast path against it on every character.
pub(crate) fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    normalize_into(s, &mut out);
    out
}

/// [`normalize`], appended to `out`.
fn normalize_into(s: &str, out: &mut String) {
    if !normalize_fast(s, out) {
        out.push_str(&normalize_slow(s));
    }
}

/// [`normalize`] of text whose characters the fast path reads (see there), appended to `out`;
/// `false`, with `out` as it was, for any other text.
///
/// The text is copied and its ASCII lower-cased in one go; characters that NFKC and
/// lower-casing leave as they are (most of the text's few others) are only looked at. From the
/// first character that changes, the text is rewritten character by character.
fn normalize_fast(s: &str, out: &mut String) -> bool {
    let start = out.len();
    out.push_str(s);
    out[start..].make_ascii_lowercase();
    let mut at = 0;
    while let Some(p) = crate::uax29::next_non_ascii(s.as_bytes(), at) {
        let Some(c) = s.get(p..).and_then(|r| r.chars().next()) else {
            break;
        };
        if !stays(c) {
            out.truncate(start + p);
            if rewrite(&s[p..], out) {
                return true;
            }
            out.truncate(start);
            return false;
        }
        at = p + c.len_utf8();
    }
    true
}

/// Whether NFKC and lower-casing leave `c` as it is, whatever surrounds it (for a character
/// that is not ASCII): [`stable`] and its own lower case. The list first is only a quick
/// answer for the commonest such characters (CJK ideographs, punctuation of prose), which
/// skips the rule's table look-ups; the rule decides every other character.
fn stays(c: char) -> bool {
    matches!(c,
        '\u{4E00}'..='\u{9FFF}'
        | '\u{3001}'..='\u{3029}'
        | '\u{3030}'..='\u{3035}'
        | '\u{2013}'..='\u{2014}'
        | '\u{2018}'..='\u{201F}'
        | '\u{2190}'..='\u{2199}'
        | '\u{AB}'
        | '\u{B6}'
        | '\u{B7}'
        | '\u{BB}'
        | '\u{D7}'
        | '\u{F7}'
        | '\u{2022}')
        || (stable(c) && {
            let mut lower = c.to_lowercase();
            lower.next() == Some(c) && lower.next().is_none()
        })
}

/// Whether NFKC leaves `c` as it is wherever it stands: NFKC_QC = Yes (it never composes with
/// the character before it) and canonical combining class 0 (nothing is reordered around
/// it), so a text of such characters is its own NFKC. `Σ` is left out: its lower case depends
/// on the letters around it.
fn stable(c: char) -> bool {
    c != '\u{3A3}'
        && unicode_normalization::char::canonical_combining_class(c) == 0
        && is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes
}

/// [`normalize_fast`]'s character by character part, appended to `out`; `false` (with `out`
/// partly written) at a character it does not read.
fn rewrite(s: &str, out: &mut String) -> bool {
    let mut rest = s;
    while let Some(&b) = rest.as_bytes().first() {
        if b < 0x80 {
            // A run of ASCII, in one copy.
            let len = rest.bytes().position(|b| b >= 0x80).unwrap_or(rest.len());
            let (run, tail) = rest.split_at(len);
            let at = out.len();
            out.push_str(run);
            out[at..].make_ascii_lowercase();
            rest = tail;
            continue;
        }
        let mut chars = rest.chars();
        let Some(c) = chars.next() else { break };
        rest = chars.as_str();
        match c {
            '\u{A0}' => out.push(' '),
            '\u{2026}' => out.push_str("..."),
            '\u{FF01}'..='\u{FF5E}' => {
                let ascii = char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c);
                out.push(ascii.to_ascii_lowercase());
            }
            c if stays(c) => out.push(c),
            c if stable(c) => out.extend(c.to_lowercase()),
            _ => return false,
        }
    }
    true
}

fn normalize_slow(s: &str) -> String {
    if is_nfkc_quick(s.chars()) == IsNormalized::Yes {
        s.to_lowercase()
    } else {
        s.nfkc().collect::<String>().to_lowercase()
    }
}

/// Normalises `text` line by line (lines are the blocks of the page) into `norm`, each line
/// ended by a line break; empty lines are left out. (No normalised line holds a line break:
/// NFKC and lower-casing never make one.)
fn normalize_lines(text: &str, norm: &mut String) {
    norm.reserve(text.len() + 1);
    for line in text.split('\n').filter(|l| !l.is_empty()) {
        normalize_into(line, norm);
        norm.push('\n');
    }
}

/// The UAX #29 words of `text`, each a slice of `norm`, the normalised text.
///
/// Text the fast normalisation reads is normalised and cut as a whole; other text line by line
/// (NFKC and lower-casing of the whole text would give the same, but the slow path is slow).
/// Either way the words are those of each line on its own: UAX #29 always breaks before and
/// after a line break (WB3a, WB3b; a mark after one starts a word, WB4), and NFKC and
/// lower-casing never join across one (a line break is a starter that composes with nothing,
/// and it ends the context of a final sigma).
fn uax29_words<'n>(text: &str, norm: &'n mut String, mut f: impl FnMut(&'n str)) {
    normalize_whole(text, norm);
    let norm: &'n str = norm;
    each_word(norm, &mut f);
}

/// `text` normalised into `norm` as [`uax29_words`] cuts it: in one pass when it can.
fn normalize_whole(text: &str, norm: &mut String) {
    norm.reserve(text.len() + 1);
    if !normalize_fast(text, norm) {
        normalize_lines(text, norm);
    }
}

/// The words of `text`: jieba for Han runs, UAX #29 for the rest.
///
/// The text is normalised line by line; its Han runs are copied into one buffer, each ended by
/// a line break (where jieba always cuts), and cut by a single `cut` call; the words are then
/// handed out in text order, each Han run's from the buffer, each other run's by UAX #29.
fn jieba_words(text: &str, f: &mut impl FnMut(&str)) {
    let mut norm = String::new();
    normalize_lines(text, &mut norm);
    let mut han = String::new();
    // (is Han, byte range: in `han` for a Han run, in `norm` otherwise)
    let mut runs: Vec<(bool, usize, usize)> = Vec::new();
    let mut rest = norm.as_str();
    let mut offset = 0;
    while !rest.is_empty() {
        let is = starts_with_han(rest);
        let end = rest
            .char_indices()
            .find(|&(_, c)| is_han(c) != is)
            .map_or(rest.len(), |(i, _)| i);
        if is {
            runs.push((true, han.len(), han.len() + end));
            han.push_str(&rest[..end]);
            han.push('\n');
        } else {
            runs.push((false, offset, offset + end));
        }
        offset += end;
        rest = &rest[end..];
    }
    // (byte range in `han`) of every word of the Han runs, in order (other tokens may be
    // among them: they fall outside the runs and are skipped below).
    let mut tokens: Vec<(usize, usize)> = Vec::new();
    if han.is_empty() {
    } else if han.chars().filter(|&c| c != '\n').take(SMALL + 1).count() <= SMALL
        && han.chars().all(|c| c == '\n' || is_jieba_han(c))
        && small_dictionary()
    {
        // A little Han text: cut without building jieba-rs (the same words).
        let mut at = 0;
        for run in han.split_inclusive('\n') {
            let text = run.strip_suffix('\n').unwrap_or(run);
            let first = tokens.len();
            cut_small(text, &mut tokens);
            for t in &mut tokens[first..] {
                *t = (t.0 + at, t.1 + at);
            }
            at += run.len();
        }
    } else {
        tokens.extend(
            JIEBA
                .cut(&han, false)
                .iter()
                .map(|t| (t.byte_start, t.byte_end)),
        );
    }
    let mut next = 0;
    for (is, start, end) in runs {
        if is {
            while let Some(&(a, b)) = tokens.get(next).filter(|t| t.0 < end) {
                if a >= start {
                    f(&han[a..b]);
                }
                next += 1;
            }
        } else {
            let run = &norm[start..end];
            // Runs of ASCII punctuation and spaces between Han runs hold no word.
            if !run.is_ascii() || run.bytes().any(|b| b.is_ascii_alphanumeric()) {
                each_word(run, f);
            }
        }
    }
}

/// Whether `c` is a Han ideograph: the CJK Unified Ideographs blocks (base, extensions A–H)
/// and the compatibility ideographs.
#[must_use]
pub fn is_han(c: char) -> bool {
    matches!(c,
        '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2FA1F}'
        | '\u{30000}'..='\u{323AF}')
}

/// The lowest first byte of a [Han](is_han) character's UTF-8 (U+3400 is `E3 90 80`): text
/// without such a byte (ASCII, Latin, Greek, Cyrillic, the punctuation and symbols below
/// U+3000) holds no Han character.
const HAN_LEAD: u8 = 0xE3;

/// Whether `text` may hold a Han character: 64 bytes at a time, without branching inside a
/// block, before any character is decoded.
fn may_hold_han(text: &str) -> bool {
    if text.len() < 64 {
        // A word: one pass, without setting up blocks.
        return text.bytes().any(|b| b >= HAN_LEAD);
    }
    text.as_bytes()
        .chunks(64)
        .any(|block| block.iter().fold(false, |any, &b| any | (b >= HAN_LEAD)))
}

/// Whether `text` holds a Han character (most text is ruled out by its bytes alone).
pub(crate) fn contains_han(text: &str) -> bool {
    may_hold_han(text) && text.chars().any(is_han)
}

/// Whether `word` starts with a Han character (most words are ruled out by their first byte).
pub(crate) fn starts_with_han(word: &str) -> bool {
    word.as_bytes().first().is_some_and(|&b| b >= HAN_LEAD) && word.starts_with(is_han)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(tokenizer: Tokenizer, text: &str, expected: &[&str]) {
        assert_eq!(
            tokenizer.tokenize(text),
            expected,
            "{tokenizer} on {text:?}"
        );
    }

    #[test]
    fn tokenizers() {
        check(
            Tokenizer::Mfonda,
            "This is a TEST phrase",
            &["this", "is", "a", "test", "phrase"],
        );
        check(
            Tokenizer::Mfonda,
            "don't: ftp://x.y/z!",
            &["don't", "ftp://x.y/z"],
        );
        check(
            Tokenizer::Unicode,
            "Ｈｅｌｌｏ, World! 3.14",
            &["hello", "world", "3.14"],
        );
        check(Tokenizer::Unicode, "ﬁne straße", &["fine", "straße"]);
        check(Tokenizer::Unicode, "网页去重", &["网", "页", "去", "重"]);
        check(
            Tokenizer::Jieba,
            "用Rust写爬虫\n第二行",
            &["用", "rust", "写", "爬虫", "第二行"],
        );
        check(
            Tokenizer::Auto,
            "plain English, no Han",
            &["plain", "english", "no", "han"],
        );
        check(Tokenizer::Auto, "中文网页", &["中文", "网页"]);
        for t in [
            Tokenizer::Mfonda,
            Tokenizer::Unicode,
            Tokenizer::Jieba,
            Tokenizer::Auto,
        ] {
            check(t, "", &[]);
            check(t, " \n\n\t ,.;", &[]);
        }
    }

    #[test]
    fn auto_equals_jieba() {
        for text in [
            "Mixed 中文 and English",
            "only english here",
            "日本語とかな",
        ] {
            assert_eq!(
                Tokenizer::Auto.tokenize(text),
                Tokenizer::Jieba.tokenize(text)
            );
        }
    }

    #[test]
    fn names_round_trip() {
        for t in [
            Tokenizer::Mfonda,
            Tokenizer::Unicode,
            Tokenizer::Jieba,
            Tokenizer::Auto,
        ] {
            assert_eq!(t.to_string().parse::<Tokenizer>(), Ok(t));
        }
        let err = "icu".parse::<Tokenizer>().expect_err("unknown name");
        assert!(err.to_string().contains("one of mfonda"), "{err}");
    }

    #[test]
    fn fast_normalisation_is_nfkc() {
        let ranges = [
            (0x20, 0x7f),
            (0xab, 0xab),
            (0xb6, 0xb7),
            (0xbb, 0xbb),
            (0xd7, 0xd7),
            (0x2022, 0x2022),
            (0xf7, 0xf7),
            (0x2013, 0x2014),
            (0x2018, 0x201f),
            (0x4e00, 0x9fff),
            (0x3001, 0x3035),
            (0xff01, 0xff5e),
            (0xa0, 0xa0),
            (0x2026, 0x2026),
            (0x2190, 0x2199),
        ];
        for (lo, hi) in ranges {
            for c in (lo..=hi).filter_map(char::from_u32) {
                let s = format!("中{c}A");
                assert_eq!(normalize(&s), normalize_slow(&s), "U+{:04X}", u32::from(c));
            }
        }
        check_norm("Ｈｅｌｌｏ，世界。", "hello,世界。");
        check_norm("ﬁ 中", "fi 中"); // slow path
        check_norm("\u{3000}中", " 中"); // ideographic space: slow path
    }

    /// Every character of the first two planes, between letters, after an upper-case one and
    /// before a combining mark: the fast path gives NFKC and lower case.
    #[test]
    fn fast_normalisation_is_nfkc_everywhere() {
        let mut fast_ones = 0;
        for c in '\u{80}'..='\u{2FFFF}' {
            for s in [
                format!("a{c}b"),
                format!("Ａ{c}{c}É"),
                format!("{c}\u{301}x"),
            ] {
                let mut fast = String::new();
                if normalize_fast(&s, &mut fast) {
                    assert_eq!(fast, normalize_slow(&s), "U+{:04X}", u32::from(c));
                    fast_ones += 1;
                } else {
                    assert!(fast.is_empty());
                }
            }
        }
        // (Most characters take the fast path; none with a combining mark after it.)
        assert!(fast_ones > 200_000, "{fast_ones}");
    }

    fn check_norm(input: &str, expected: &str) {
        assert_eq!(normalize(input), expected, "{input:?}");
    }

    #[test]
    fn han_ranges() {
        assert!(is_han('中') && is_han('\u{3400}') && is_han('\u{20000}'));
        assert!(!is_han('a') && !is_han('。') && !is_han('か'));
    }

    #[test]
    fn han_prefilter_never_misses() {
        // Every Han character leads with a byte the prefilter sees, anywhere in a text.
        for c in ('\u{3000}'..='\u{3_23AF}').filter(|&c| is_han(c)) {
            let text = format!("{}{c}", "¶ café".repeat(13));
            assert!(may_hold_han(&text), "{c:?}");
        }
        assert!(!may_hold_han(&"a ¶ café – ‘q’ … € ✓ ".repeat(20)));
        assert!(!may_hold_han(""));
        assert!(starts_with_han("中文") && !starts_with_han("a中") && !starts_with_han(""));
        assert!(contains_han("a中") && !contains_han("a ¶ か"));
    }
    proptest::proptest! {
        /// The words read without copies are the words of `for_each_word`, line breaks and
        /// characters of every normalisation path included (fast, slow, `…` that grows).
        #[test]
        fn words_in_norm_are_the_words(text in "([a-cA-C0-2 .,'\n]|[’¶—…\u{a0}é\u{301}ﬁＡ\u{3000}Σσ]){0,60}") {
            for tokenizer in [Tokenizer::Unicode, Tokenizer::Auto] {
                let mut expected = Vec::new();
                tokenizer.for_each_word(&text, |w| expected.push(w.to_owned()));
                let mut norm = String::new();
                let mut got = Vec::new();
                proptest::prop_assert!(tokenizer.for_each_word_in(&text, &mut norm, |w| got.push(w)).is_some());
                proptest::prop_assert_eq!(got, expected);
            }
        }
    }

    proptest::proptest! {
        /// The words of the whole text, read at once, are the UAX #29 words of each line
        /// normalised on its own: line breaks, marks after them, final sigmas, characters of
        /// the fast and the slow normalisation.
        #[test]
        fn text_at_once_is_line_by_line(text in "([a-bA-B0-1 .,'\n]|[’¶—…\u{a0}é\u{301}ﬁＡ\u{3000}Σσ\u{200D}\u{5D0}😀]){0,60}") {
            use unicode_segmentation::UnicodeSegmentation;
            let expected: Vec<String> = text
                .split('\n')
                .flat_map(|line| {
                    let norm = normalize(line);
                    norm.unicode_words().map(str::to_owned).collect::<Vec<_>>()
                })
                .collect();
            let mut norm = String::new();
            let mut got = Vec::new();
            uax29_words(&text, &mut norm, |w| got.push(w.to_owned()));
            proptest::prop_assert_eq!(got, expected);
        }
    }

    #[test]
    fn words_in_norm_only_line_by_line() {
        let mut norm = String::new();
        for tokenizer in [Tokenizer::Mfonda, Tokenizer::Jieba] {
            assert!(
                tokenizer
                    .for_each_word_in("a b", &mut norm, |_| {})
                    .is_none()
            );
        }
        assert!(
            Tokenizer::Auto
                .for_each_word_in("中文", &mut norm, |_| {})
                .is_none()
        );
        assert!(norm.is_empty());
    }

    /// Where the words are cut in place, the tokenizer tells whether none of them can hold a
    /// Han character, from the normalised text: U+2F00 is Han only after NFKC, and the
    /// `unicode` tokenizer cuts Han text too.
    #[test]
    fn words_in_norm_say_whether_they_hold_han() {
        let check = |tokenizer: Tokenizer, text: &str, han_free: bool| {
            let mut norm = String::new();
            let mut words = Vec::new();
            let got = tokenizer.for_each_word_in(text, &mut norm, |w| words.push(w));
            assert_eq!(got, Some(han_free), "{tokenizer} on {text:?}");
            assert_eq!(han_free, !words.iter().any(|w| contains_han(w)), "{text:?}");
        };
        check(Tokenizer::Auto, "plain text, “quoted” and … ¶", true);
        check(Tokenizer::Auto, "a \u{2f00}\u{301} b", false);
        check(Tokenizer::Unicode, "网页 去重", false);
        check(Tokenizer::Unicode, "", true);
    }
}
