//! IDF tables: jieba's built-in one, one parsed from text, one built from documents.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader, Read};
use std::sync::{Arc, LazyLock};

use md5::{Digest, Md5};

use crate::sorted::SortedLines;
use crate::tokenize::contains_han;
use crate::{TextError, Tokenizer};

/// An inverse-document-frequency table: `word → IDF`, and the IDF of a word it lacks.
///
/// - [`IdfTable::jieba`]: jieba's built-in table (the one jieba-rs ships, 270k words); a
///   missing word gets the table's median (jieba's rule).
/// - [`IdfTable::parse`] / [`IdfTable::from_reader`]: `word idf` lines, as in jieba's `idf.txt`;
///   a missing word gets the median.
/// - [`IdfBuilder`]: built from documents, `IDF = ln(N / (df + 1))` (ALGORITHM.md §7); a missing
///   word gets the median too, so that the table written by [`IdfTable::to_text`] and read back
///   behaves the same.
///
/// An IDF may be negative (a word in nearly every document); the weights clamp `TF × IDF` at 0.
///
/// ```
/// use silhouette_text::IdfTable;
/// let t = IdfTable::parse("crawler 5.5\nthe 0.25\nweb 3.0\n")?;
/// assert_eq!((t.idf("crawler"), t.idf("unknown"), t.len()), (5.5, 3.0, 3));
/// assert!(t.id().starts_with("md5:"));
/// # Ok::<(), silhouette_text::TextError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct IdfTable {
    words: Words,
    missing: f64,
    id: String,
}

/// Where a table's words are.
#[derive(Debug, Clone, PartialEq)]
enum Words {
    /// Its own map.
    Map(HashMap<String, f64>),
    /// jieba's table ([`JIEBA`], searched by bisection in the binary's own copy; every one of
    /// its 270k words has a Han character, so any other word is missing from it without a
    /// search).
    Jieba,
}

/// jieba's table, decoded once (on first use) and shared, as owned words and values (for
/// [`IdfTable::len`] and the like; look-ups search [`JIEBA`]).
static JIEBA_WORDS: LazyLock<HashMap<String, f64>> = LazyLock::new(jieba_words);

/// jieba's IDF table as shipped with this crate (`data/jieba-idf.txt.gz`: jieba-rs 0.11's
/// `idf.txt`, gzip'd; the build script decompresses it and writes its lines sorted by word,
/// with where each starts; a test checks it against jieba-rs's own table). Looked up by
/// bisection, with no map built: a page with a Han word costs a few microseconds, not the
/// tens of milliseconds and megabytes of a map of 270k words.
static JIEBA: SortedLines = SortedLines::new(
    include_str!(concat!(env!("OUT_DIR"), "/jieba-idf.sorted.txt")),
    include_bytes!(concat!(env!("OUT_DIR"), "/jieba-idf.sorted.starts")),
);

/// The median of jieba's table (`sorted[len / 2]` of its 270,132 IDFs): the IDF of a word it
/// lacks. A test checks it against the decoded table.
const JIEBA_MEDIAN: f64 = 11.954_767_502_9;

/// What `params()` records for jieba's table.
const JIEBA_ID: &str = "jieba-rs-0.11";

impl IdfTable {
    /// jieba's built-in IDF table. Cheap: a word is looked up by bisection in the binary's own
    /// sorted copy, with no table built in memory (only [`len`](Self::len),
    /// [`to_text`](Self::to_text) and the like decode it whole).
    #[must_use]
    pub fn jieba() -> Arc<Self> {
        Arc::new(Self {
            words: Words::Jieba,
            missing: JIEBA_MEDIAN,
            id: JIEBA_ID.to_owned(),
        })
    }

    fn map(&self) -> &HashMap<String, f64> {
        match &self.words {
            Words::Map(m) => m,
            Words::Jieba => &JIEBA_WORDS,
        }
    }

    /// A table from `word idf` lines (jieba's `idf.txt` format: one word, white space, a
    /// finite number). Blank lines are skipped; anything else is an error naming the line.
    ///
    /// # Errors
    /// [`TextError::IdfLine`] for a line that is not `word idf`.
    pub fn parse(text: &str) -> Result<Self, TextError> {
        let mut idf = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            parse_line(line, i + 1, &mut idf)?;
        }
        Ok(Self::from_map(idf, None))
    }

    /// [`IdfTable::parse`] over a reader, line by line.
    ///
    /// # Errors
    /// [`TextError::IdfRead`] when the reader fails or a line is not UTF-8,
    /// [`TextError::IdfLine`] for a line that is not `word idf`.
    pub fn from_reader(reader: impl Read) -> Result<Self, TextError> {
        let mut idf = HashMap::new();
        let mut buf = String::new();
        let mut reader = BufReader::new(reader);
        let mut line = 0;
        loop {
            buf.clear();
            match reader.read_line(&mut buf) {
                Ok(0) => break,
                Ok(_) => {
                    line += 1;
                    parse_line(buf.trim_end_matches(['\n', '\r']), line, &mut idf)?;
                }
                Err(e) => {
                    return Err(TextError::IdfRead {
                        line,
                        reason: e.to_string(),
                    });
                }
            }
        }
        Ok(Self::from_map(idf, None))
    }

    fn from_map(idf: HashMap<String, f64>, id: Option<String>) -> Self {
        let mut values: Vec<f64> = idf.values().copied().collect();
        values.sort_by(f64::total_cmp);
        // Python jieba: `sorted(idf.values())[len // 2]`.
        let missing = values.get(values.len() / 2).copied().unwrap_or(0.0);
        let mut table = Self {
            words: Words::Map(idf),
            missing,
            id: String::new(),
        };
        table.id =
            id.unwrap_or_else(|| format!("md5:{}", &hex(&Md5::digest(table.to_text()))[..16]));
        table
    }

    /// The IDF of `word`, or the table's value for missing words (its median).
    #[must_use]
    pub fn idf(&self, word: &str) -> f64 {
        match &self.words {
            Words::Map(m) => m.get(word).copied().unwrap_or(self.missing),
            Words::Jieba if !contains_han(word) => self.missing,
            Words::Jieba => JIEBA
                .get(word)
                .and_then(|v| v.parse().ok())
                .unwrap_or(self.missing),
        }
    }

    /// The IDF every word without a Han character gets, when the table gives them all one
    /// (jieba's: each of its words has a Han character, so any other word is missing).
    pub(crate) const fn idf_of_non_han(&self) -> Option<f64> {
        match self.words {
            Words::Jieba => Some(self.missing),
            Words::Map(_) => None,
        }
    }

    /// The IDF a missing word gets: the median of the table (`sorted[len / 2]`, jieba's rule).
    #[must_use]
    pub const fn missing_idf(&self) -> f64 {
        self.missing
    }

    /// The number of words in the table.
    #[must_use]
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Whether the table has no words.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.map().is_empty()
    }

    /// What `params()` records for this table: `jieba-rs-0.11` for jieba's, else `md5:` and the
    /// first 16 hex digits of the MD5 of [`to_text`](Self::to_text).
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The table as `word idf` lines sorted by word (code-point order), each IDF printed so that
    /// it reads back to the same `f64`: the format [`IdfTable::parse`] reads.
    #[must_use]
    pub fn to_text(&self) -> String {
        let sorted: BTreeMap<&str, f64> =
            self.map().iter().map(|(w, v)| (w.as_str(), *v)).collect();
        let mut out = String::with_capacity(sorted.len() * 16);
        for (word, idf) in sorted {
            out.push_str(word);
            out.push(' ');
            out.push_str(&format!("{idf:?}"));
            out.push('\n');
        }
        out
    }
}

fn parse_line(line: &str, number: usize, idf: &mut HashMap<String, f64>) -> Result<(), TextError> {
    let bad = |reason| TextError::IdfLine {
        line: number,
        text: line.chars().take(80).collect(),
        reason,
    };
    let mut parts = line.split_whitespace();
    let Some(word) = parts.next() else {
        return Ok(());
    };
    let value = parts.next().ok_or_else(|| bad("no IDF after the word"))?;
    if parts.next().is_some() {
        return Err(bad("more than two fields"));
    }
    let value: f64 = value.parse().map_err(|_| bad("the IDF is not a number"))?;
    if !value.is_finite() {
        return Err(bad("the IDF is not finite"));
    }
    idf.insert(word.to_owned(), value);
    Ok(())
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// [`JIEBA`] as a map; a line that does not parse (impossible: the text is part of the build
/// and tested) gives an empty table, not a panic.
fn jieba_words() -> HashMap<String, f64> {
    let mut idf = HashMap::with_capacity(280_000);
    for i in 0..JIEBA.len() {
        let Some((word, value)) = JIEBA.entry(i) else {
            return HashMap::new();
        };
        if parse_line(&format!("{word} {value}"), i + 1, &mut idf).is_err() {
            return HashMap::new();
        }
    }
    idf
}

/// jieba-rs's own table, read from its `Debug` output (`idf_dict: {"word": 1.5, ...}`, the one
/// way to read it): the test's reference for the shipped copy.
#[cfg(test)]
fn jieba_rs_words() -> HashMap<String, f64> {
    let debug = format!("{:?}", jieba_rs::TfIdf::default());
    let mut idf = HashMap::with_capacity(280_000);
    if let Some(start) = debug.find("idf_dict: {") {
        let mut rest = &debug[start + "idf_dict: {".len()..];
        while let Some(body) = rest.strip_prefix('"') {
            let Some((word, after)) = debug_string(body) else {
                break;
            };
            let after = after.trim_start_matches(": ");
            let end = after.find([',', '}']).unwrap_or(after.len());
            if let Ok(v) = after[..end].parse::<f64>() {
                idf.insert(word, v);
            }
            rest = after[end..].trim_start_matches(", ");
        }
    }
    idf
}

#[cfg(test)]
/// Reads a Rust `Debug` string body (after its opening quote): (the string, the text after its
/// closing quote).
fn debug_string(s: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &s[i + 1..])),
            '\\' => match chars.next()?.1 {
                'u' => {
                    let rest = &s[i + 2..];
                    let close = rest.find('}')?;
                    let code = u32::from_str_radix(rest.get(1..close)?, 16).ok()?;
                    out.push(char::from_u32(code)?);
                    for _ in 0..=close {
                        chars.next();
                    }
                }
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                '0' => out.push('\0'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// Builds an [`IdfTable`] from documents: `IDF(w) = ln(N / (df(w) + 1))` over the `N`
/// documents added, `df(w)` the number of them that contain `w` (ALGORITHM.md §7).
///
/// The table depends only on the set of documents, never on their order.
///
/// ```
/// use silhouette_text::{IdfBuilder, Tokenizer};
/// let mut b = IdfBuilder::new(Tokenizer::Unicode);
/// for doc in ["the crawler", "the index", "the crawler and the index", "a page"] {
///     b.add_document(doc);
/// }
/// let t = b.build();
/// assert_eq!(b.documents(), 4);
/// assert_eq!(t.idf("crawler"), (4.0f64 / 3.0).ln()); // in 2 of 4 documents
/// assert_eq!(t.idf("the"), 0.0);                     // in 3 of 4: ln(4/4)
/// # let _ = t;
/// ```
#[derive(Debug, Clone)]
pub struct IdfBuilder {
    tokenizer: Tokenizer,
    df: HashMap<String, u64>,
    documents: u64,
}

impl IdfBuilder {
    /// An empty builder whose documents are cut by `tokenizer`.
    #[must_use]
    pub fn new(tokenizer: Tokenizer) -> Self {
        Self {
            tokenizer,
            df: HashMap::new(),
            documents: 0,
        }
    }

    /// Counts one document.
    pub fn add_document(&mut self, text: &str) {
        let mut seen = HashSet::new();
        self.tokenizer.for_each_word(text, |w| {
            if !seen.contains(w) {
                seen.insert(w.to_owned());
            }
        });
        for word in seen {
            *self.df.entry(word).or_insert(0) += 1;
        }
        self.documents += 1;
    }

    /// The number of documents added.
    #[must_use]
    pub const fn documents(&self) -> u64 {
        self.documents
    }

    /// The table (the builder can go on counting).
    #[must_use]
    pub fn build(&self) -> IdfTable {
        #[allow(clippy::cast_precision_loss, reason = "document counts far below 2^53")]
        let n = self.documents as f64;
        let idf = self
            .df
            .iter()
            .map(|(w, &df)| {
                #[allow(clippy::cast_precision_loss, reason = "counts far below 2^53")]
                let v = (n / (df as f64 + 1.0)).ln();
                (w.clone(), v)
            })
            .collect();
        IdfTable::from_map(idf, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: Result<&[(&str, f64)], &str>) {
        match (IdfTable::parse(text), expected) {
            (Ok(t), Ok(pairs)) => {
                assert_eq!(t.len(), pairs.len(), "{text:?}");
                for (w, v) in pairs {
                    assert_eq!(t.idf(w), *v, "{w} in {text:?}");
                }
                let again = IdfTable::from_reader(text.as_bytes()).expect("same text");
                assert_eq!(again, t);
            }
            (Err(e), Err(fragment)) => {
                assert!(e.to_string().contains(fragment), "{text:?}: {e}");
                let again = IdfTable::from_reader(text.as_bytes()).expect_err("same text");
                assert_eq!(again, e);
            }
            (got, want) => panic!("{text:?}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn parsing() {
        check(
            "a 1.5\nb 2\n\n  c\t-0.5  \n",
            Ok(&[("a", 1.5), ("b", 2.0), ("c", -0.5)]),
        );
        check("", Ok(&[]));
        check("a 1\nb\n", Err("line 2: no IDF after the word"));
        check("a 1 2", Err("line 1: more than two fields"));
        check("a x", Err("not a number"));
        check("a NaN", Err("not finite"));
        check("a inf", Err("not finite"));
    }

    #[test]
    fn median_is_jiebas_rule() {
        let t = IdfTable::parse("a 1\nb 2\nc 3\nd 4\n").expect("valid");
        assert_eq!(t.missing_idf(), 3.0, "sorted[len / 2]");
        assert_eq!(IdfTable::parse("").expect("valid").idf("x"), 0.0);
    }

    #[test]
    fn text_round_trips() {
        let t = IdfTable::parse("b 0.1\na 2.000000000000001\n中 -1e-300\n").expect("valid");
        assert_eq!(t.to_text(), "a 2.000000000000001\nb 0.1\n中 -1e-300\n");
        assert_eq!(IdfTable::parse(&t.to_text()).expect("valid"), t);
    }

    #[test]
    fn unreadable_reader_is_an_error() {
        let err = IdfTable::from_reader(&b"a 1\n\xff\xfe 2\n"[..]).expect_err("not UTF-8");
        assert!(matches!(err, TextError::IdfRead { line: 1, .. }), "{err}");
    }

    #[test]
    fn jieba_table_is_read_whole() {
        let t = IdfTable::jieba();
        assert!(t.len() > 250_000, "{}", t.len());
        assert_eq!(t.id(), "jieba-rs-0.11");
        // First lines of jieba's idf.txt.
        assert_eq!(t.idf("劳动防护"), 13.900677652);
        assert_eq!(t.idf("生化学"), 13.900677652);
        let m = t.missing_idf();
        assert!(m > 5.0 && m < 14.0, "median {m}");
        assert_eq!(t.idf("not-a-word-in-jieba"), m);
        // The shortcuts of the lazy table hold for the decoded one: its median is the
        // constant, and every word has a Han character (so others need no look-up).
        assert!(
            *JIEBA_WORDS == jieba_rs_words(),
            "the shipped table differs from jieba-rs's"
        );
        assert_eq!(JIEBA.len(), JIEBA_WORDS.len());
        assert!(
            JIEBA_WORDS
                .iter()
                .all(
                    |(w, v)| JIEBA.get(w.as_str()).and_then(|x| x.parse::<f64>().ok()) == Some(*v)
                ),
            "the look-up table's values differ from the decoded table's"
        );
        assert!(
            (1..JIEBA.len()).all(|i| JIEBA.entry(i - 1).map(|e| e.0) < JIEBA.entry(i).map(|e| e.0)),
            "not sorted, or a word twice"
        );
        let decoded = IdfTable::from_map(JIEBA_WORDS.clone(), None);
        assert_eq!(decoded.missing_idf(), JIEBA_MEDIAN);
        assert_eq!(decoded.len(), 270_132);
        assert_eq!(
            JIEBA_WORDS.keys().find(|w| !contains_han(w)),
            None,
            "a word of jieba's table without a Han character"
        );
    }

    #[test]
    fn builder_is_order_independent() {
        let docs = ["a b c", "b c d", "c d e", "x"];
        let build = |order: &[usize]| {
            let mut b = IdfBuilder::new(Tokenizer::Unicode);
            for &i in order {
                b.add_document(docs[i]);
            }
            b.build()
        };
        let t = build(&[0, 1, 2, 3]);
        assert_eq!(t, build(&[3, 2, 1, 0]));
        assert_eq!(t.idf("c"), (4.0f64 / 4.0).ln());
        assert_eq!(t.idf("a"), (4.0f64 / 2.0).ln());
        assert_eq!(IdfBuilder::new(Tokenizer::Unicode).build().len(), 0);
    }

    #[test]
    fn debug_strings() {
        assert_eq!(
            debug_string(r#"a\"b\\c\u{200b}d": 1"#),
            Some(("a\"b\\c\u{200b}d".to_owned(), ": 1"))
        );
        assert_eq!(debug_string("unterminated"), None);
    }
}
