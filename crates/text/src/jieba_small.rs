//! jieba-rs's cut (no HMM) of a little Han text, without building jieba-rs's dictionary.
//!
//! Building `Jieba::new()` costs about 0.1 s of CPU and 33 MB, once per process: a crawl of
//! English pages pays it for the first page that quotes three Han characters. For a text of at
//! most [`SMALL`] Han characters, this module computes the same cut from a sorted copy of the
//! same dictionary (`data/jieba-dict.txt.gz`: jieba-rs 0.11's `dict.txt`, word and frequency),
//! decompressed once (a few ms, 4 MB) and searched by bisection: jieba-rs's DAG of dictionary
//! words, its route of the largest sum of `ln(freq) − ln(total)` (ties to the longer step),
//! and a lone character wherever no word starts. A property test checks it against jieba-rs
//! on random text made of dictionary words and characters.

use crate::sorted::SortedLines;

/// Han texts of at most this many characters are cut here; longer ones by jieba-rs.
pub(crate) const SMALL: usize = 256;

/// The sum of the dictionary's frequencies (jieba-rs's `total`; a test checks it).
const TOTAL: usize = 60_101_964;

/// The longest word of the dictionary, in characters (a test checks it).
const LONGEST: usize = 16;

/// The dictionary (`word freq` lines, sorted by bytes; `data/jieba-dict.txt.gz`, decompressed
/// by the build script, with where each line starts).
static DICT: SortedLines = SortedLines::new(
    include_str!(concat!(env!("OUT_DIR"), "/jieba-dict.txt")),
    include_bytes!(concat!(env!("OUT_DIR"), "/jieba-dict.starts")),
);

/// Whether the dictionary was read (always: its bytes are part of the build; an unreadable
/// copy would leave the cut to jieba-rs rather than cut every character apart).
pub(crate) fn available() -> bool {
    DICT.len() > 0
}

/// Line `i` of the dictionary: (word, frequency).
fn entry(i: usize) -> Option<(&'static str, usize)> {
    let (word, freq) = DICT.entry(i)?;
    Some((word, freq.parse().ok()?))
}

/// `word`'s frequency if it is in the dictionary, and whether a longer word starts with it.
fn lookup(word: &str) -> (Option<usize>, bool) {
    let lo = DICT.lower_bound(word);
    match entry(lo) {
        Some((w, f)) if w == word => {
            let longer = entry(lo + 1).is_some_and(|(next, _)| next.starts_with(word));
            (Some(f), longer)
        }
        Some((w, _)) => (None, w.starts_with(word)),
        None => (None, false),
    }
}

/// Whether jieba-rs cuts `c` by its dictionary (its CJK class; other characters take other
/// paths there).
pub(crate) fn is_jieba_han(c: char) -> bool {
    matches!(c,
        '\u{4E00}'..='\u{9FFF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2A6DF}'
        | '\u{2A700}'..='\u{2B73F}'
        | '\u{2B740}'..='\u{2B81F}'
        | '\u{2B820}'..='\u{2CEAF}'
        | '\u{2CEB0}'..='\u{2EBEF}'
        | '\u{2F800}'..='\u{2FA1F}')
}

/// The words of `run` (only [`is_jieba_han`] characters) as jieba-rs's `cut(run, false)` gives
/// them: their byte ranges in `run`, in order.
pub(crate) fn cut(run: &str, out: &mut Vec<(usize, usize)>) {
    let chars: Vec<usize> = run.char_indices().map(|(i, _)| i).collect();
    let n = chars.len();
    let at = |i: usize| chars.get(i).copied().unwrap_or(run.len());
    #[allow(clippy::cast_precision_loss, reason = "jieba-rs's own conversion")]
    let log_total = (TOTAL as f64).ln();
    // The DAG: from each character, the ends of the dictionary words starting there, with
    // ln(freq).
    let mut edges: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for (i, list) in edges.iter_mut().enumerate() {
        for j in i + 1..=n.min(i + LONGEST) {
            let (freq, longer) = lookup(&run[at(i)..at(j)]);
            if let Some(f) = freq {
                #[allow(clippy::cast_precision_loss, reason = "jieba-rs's own conversion")]
                list.push((j, (f as f64).ln()));
            }
            if !longer {
                break;
            }
        }
    }
    // The route, from the end (jieba-rs's `calc`).
    let mut route = vec![(0.0f64, 0usize); n + 1];
    route[n] = (0.0, n);
    for idx in (0..n).rev() {
        let mut best: Option<(f64, usize)> = None;
        for &(end, log_freq) in &edges[idx] {
            let prob = log_freq - log_total + route[end].0;
            if best.is_none_or(|(p, e)| prob > p || (prob == p && end > e)) {
                best = Some((prob, end));
            }
        }
        route[idx] = best.unwrap_or((0.0 - log_total + route[idx + 1].0, idx + 1));
    }
    let mut x = 0;
    while x < n {
        let y = route[x].1;
        out.push((at(x), at(y)));
        x = y;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn jieba_words(text: &str) -> Vec<&str> {
        crate::tokenize::JIEBA
            .cut(text, false)
            .into_iter()
            .map(|t| t.word)
            .collect()
    }

    pub(super) fn check(text: &str) {
        let mut ranges = Vec::new();
        cut(text, &mut ranges);
        let ours: Vec<&str> = ranges.iter().map(|&(a, b)| &text[a..b]).collect();
        assert_eq!(ours, jieba_words(text), "{text:?}");
    }

    #[test]
    fn the_constants() {
        let (mut total, mut longest, mut lines) = (0, 0, 0);
        let mut last = "";
        while let Some((w, f)) = entry(lines) {
            assert!(last < w, "not sorted at {w:?}");
            total += f;
            longest = longest.max(w.chars().count());
            assert!(crate::tokenize::JIEBA.has_word(w), "{w:?}");
            last = w;
            lines += 1;
        }
        assert_eq!(lines, DICT.len());
        assert_eq!((total, longest), (TOTAL, LONGEST));
    }

    #[test]
    fn cases() {
        for text in [
            "我们的网页去重",
            "景太郎",
            "五十二",
            "平成",
            "中华人民共和国成立了",
            "结婚的和尚未结婚的",
            "他来到了网易杭研大厦",
            "一",
            "龘龘龘",
            "𠀀𠀁中文",
        ] {
            check(text);
        }
    }

    /// Text made of dictionary words (from a fixed sample) and single characters.
    fn sample_words() -> Vec<&'static str> {
        let n = DICT.len();
        (0..400)
            .filter_map(|i| entry(i * n / 400 + i % 7).map(|(w, _)| w))
            .chain([
                "中", "国", "人", "的", "一", "是", "了", "和", "尚", "未", "结", "婚", "龘",
            ])
            .collect()
    }

    proptest! {
        #[test]
        fn agrees_with_jieba_rs(picks in proptest::collection::vec(0usize..10_000, 1..12)) {
            let words = sample_words();
            let text: String = picks.iter().map(|&i| words[i % words.len()]).collect();
            if text.chars().all(is_jieba_han) {
                check(&text);
            }
        }
    }
}
