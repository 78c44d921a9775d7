//! Tokenizers: text → lower-cased words.

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use jieba_rs::Jieba;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};
use unicode_segmentation::UnicodeSegmentation;

use crate::TextError;

/// jieba-rs with its default dictionary, loaded once (about 0.2 s) on first use.
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

    /// Calls `f` with every word of `text`, in order, without collecting them.
    pub fn for_each_word(self, text: &str, mut f: impl FnMut(&str)) {
        match self {
            Self::Mfonda => {
                let lower = text.to_lowercase();
                silhouette_simhash::mfonda_words(&lower).for_each(f);
            }
            Self::Unicode => each_line(text, |line| line.unicode_words().for_each(&mut f)),
            Self::Jieba => each_line(text, |line| jieba_words(line, &mut f)),
            Self::Auto if text.chars().any(is_han) => {
                each_line(text, |line| jieba_words(line, &mut f));
            }
            Self::Auto => each_line(text, |line| line.unicode_words().for_each(&mut f)),
        }
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

/// NFKC, then lower case (an ASCII string skips the normalisation, which leaves it unchanged).
pub(crate) fn normalize(s: &str) -> String {
    if s.is_ascii() {
        s.to_ascii_lowercase()
    } else if is_nfkc_quick(s.chars()) == IsNormalized::Yes {
        s.to_lowercase()
    } else {
        s.nfkc().collect::<String>().to_lowercase()
    }
}

/// Calls `f` with each normalised line of `text` (lines are the blocks of the page).
fn each_line(text: &str, mut f: impl FnMut(&str)) {
    for line in text.split('\n') {
        if !line.is_empty() {
            f(&normalize(line));
        }
    }
}

/// The words of one normalised line: jieba for Han runs, UAX #29 for the rest.
fn jieba_words(line: &str, f: &mut impl FnMut(&str)) {
    let mut rest = line;
    while !rest.is_empty() {
        let han = rest.starts_with(is_han);
        let end = rest
            .char_indices()
            .find(|&(_, c)| is_han(c) != han)
            .map_or(rest.len(), |(i, _)| i);
        let (run, tail) = rest.split_at(end);
        if han {
            JIEBA.cut(run, false).iter().for_each(|t| f(t.word));
        } else {
            run.unicode_words().for_each(&mut *f);
        }
        rest = tail;
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
    fn han_ranges() {
        assert!(is_han('中') && is_han('\u{3400}') && is_han('\u{20000}'));
        assert!(!is_han('a') && !is_han('。') && !is_han('か'));
    }
}
