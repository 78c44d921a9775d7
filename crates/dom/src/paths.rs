//! The `class-paths` model: a page is the **set** of its distinct root-to-element paths, each
//! step written as the tag name and the element's class tokens (`html/body/div.content/
//! table.list/tr/td.age`), down to a depth limit.
//!
//! A set, not counts: ten or fifty rows of one table are the same kind of page. Pages of one
//! template share nearly all their paths (Jaccard 0.85–1), pages of two templates of one site
//! share the chrome and little else (0.45–0.65): ALGORITHM.md §3 has the measurements.
//!
//! Exactly, for every element of the walked tree at depth `d` (`<html>` is 1) with `d <=`
//! the depth limit:
//!
//! - its **label** is FNV-1 64 over the ASCII-lowercased tag name, then for each class token
//!   a `.` and the token. Tokens are the `class` attribute split on ASCII whitespace,
//!   ASCII-lowercased, every run of ASCII digits replaced by one `0` (`postid-123` →
//!   `postid-0`: page-unique ids are not structure), and so is every hex id (a run of 8 or
//!   more hex digits with at least two decimal digits and two letters: `btn-8fd2c0e1` →
//!   `btn-0`), and so is all that follows a colon that is neither the token's first nor
//!   its last byte (Doxygen's `memitem:ga8fd2…` and `memitem:group__errors` → `memitem:0`:
//!   what follows names an item; Tailwind's `md:flex` → `md:0`), cut to 48 bytes, sorted, deduplicated,
//!   and at most the first 16 kept; a form field's `name` and `type` follow
//!   ([`field_label`]), and a `<table>` outside the main content whose `<thead>` names its
//!   columns (or, outside a flow of prose too, whose first row is two header cells or more)
//!   has the column headers' letters in its label ([`table_label`]);
//! - its **path** is `mix(parent's path · φ ⊕ label)` (the document's path is 0), with
//!   `mix` the MurmurHash3 64-bit finaliser and φ = `0x9e3779b97f4a7c15`; the path id is the
//!   path's high 32 bits. On a page without a main content, an element with a `<p>` child
//!   (not a form's row, which holds a visible field, nor a wrapper of a layout table)
//!   holds a **flow of prose**, and so does every element at the path of one (a page's
//!   sections are all prose or none): every element below the outermost such element takes its
//!   path with the flow's path in place of its parent's (how an author nests lists,
//!   definitions and listings is not the template's), at its depth plus 2 as its level
//!   (the prose's blocks are its content, lighter than the template's elements), and a path
//!   met at several depths keeps the lowest level. A `<body>` is such an element too, but
//!   its flow keeps the classes and is no prose (a footer's line is no text); where it holds
//!   two bare paragraphs itself, its children from the first to the last are its **text**:
//!   their paths are marked prose and (tables and forms aside) an article's blocks, their
//!   labels and levels as they are, so the fingerprint does not change;
//! - its **level** is its depth `d`, except for the template's blocks among the children of
//!   the page's **main content**, the first element in document order (template contents
//!   left out) that is a `<main>` or has `role=main`. A child that is a sectioning or
//!   grouping container (`div section article aside nav header footer form main details
//!   fieldset`) or has a class token is at level 1, as `<html>` is: the blocks a template
//!   puts in its content area (an index table, a form, the sections of an article) weigh as
//!   much as the page's top level, whatever the chrome around them. A bare `p`, `h2`, `pre`
//!   or `table` there is the article's own markup and, like everything below the blocks,
//!   keeps its depth as its level; so, in a main content that holds paragraphs itself, is a
//!   listing, an element holding a paragraph, and a child between its first and last bare
//!   paragraph but a table or a form (ALGORITHM.md §3, 5.);
//! - an inline element ([`is_phrasing`]) adds its path but nothing below it; inside the main
//!   content it adds no path at all, nor inside a `<p>` of a page without a main content
//!   (the prose's own links, literals and emphasis);
//! - the page's [`PathSet`] is the set of distinct path ids, each with its level, at most
//!   [`MAX_PATHS`] of them (the first met in document order);
//! - the fingerprint folds every path id `i` of the set, in increasing order of `i`, with the
//!   feature hash `mix(seed · 2^32 + i)` and the weight `decay^level` (repeated
//!   multiplication), into the 64-bit simhash of ALGORITHM.md §1 (`>= 0` ties).
//!
//! Each feature weighs the same at decay 1: the simhash then estimates the cosine of the two
//! sets, and [`PathSet::jaccard`] computes their Jaccard similarity exactly, which is what the
//! crawl confirms a near match with.

use silhouette_simhash::{Fingerprint, Simhash};

pub(crate) use crate::linked::{
    MIN_NAME_BYTES, link_name_label, link_token_labels, linkable_tokens, token_tails,
};

/// Paths deeper than this are left out by default (but for visible form fields and a table's
/// named columns): past it,
/// depth mostly measures content.
pub const DEFAULT_PATH_DEPTH: u32 = 12;

/// At most this many distinct paths per page (a page with more keeps the first ones met).
pub const MAX_PATHS: usize = 2048;

/// Class tokens per element, after sorting and deduplication.
pub(crate) const MAX_CLASS_TOKENS: usize = 16;

/// Bytes per class token.
pub(crate) const MAX_TOKEN_BYTES: usize = 48;

/// The shortest run of hex digits read as an id (see [`hex_id_len`]).
const HEX_ID_MIN: usize = 8;

pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
const PHI: u64 = 0x9e37_79b9_7f4a_7c15;

/// MurmurHash3's 64-bit finaliser: a bijection that mixes every input bit into every output bit.
#[must_use]
pub(crate) const fn mix(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^= k >> 33;
    k
}

/// The FNV-1 hash of `bytes` as they are (no normalising), for grouping equal strings.
pub(crate) fn bytes_hash(bytes: &[u8]) -> u64 {
    fnv1(FNV_OFFSET, bytes)
}

pub(crate) fn fnv1(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = h.wrapping_mul(FNV_PRIME);
        h ^= u64::from(b);
    }
    h
}

/// A class token, normalised (see the module docs): ASCII-lowercased, each run of ASCII
/// digits, each hex id and what follows an inner colon as one `0`, cut to the longest prefix of whole characters within 48 bytes.
#[derive(Clone, Copy)]
pub(crate) struct Token {
    bytes: [u8; MAX_TOKEN_BYTES],
    /// Bytes used.
    pub(crate) len: usize,
}

impl Token {
    const EMPTY: Self = Self {
        bytes: [0; MAX_TOKEN_BYTES],
        len: 0,
    };

    /// `token` normalised.
    pub(crate) fn new(token: &str) -> Self {
        let mut t = Self::EMPTY;
        normalised(token, |b| {
            if let Some(slot) = t.bytes.get_mut(t.len) {
                *slot = b;
                t.len += 1;
            }
        });
        t
    }

    /// Its normalised bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The token's label as a path of its own under a root element ([`root_class_tokens`]).
    pub(crate) fn root_label(&self) -> u64 {
        fnv1(fnv1(FNV_OFFSET, b"."), self.as_bytes())
    }
}

/// The tokens of `class`'s label (the first [`MAX_CLASS_TOKENS`] distinct normalised ones in
/// normalised order), each as [`Token::root_label`], sorted by that hash.
pub(crate) fn class_token_labels(class: &str) -> Vec<u64> {
    let mut labels: Vec<u64> = class.split_ascii_whitespace().map(token_label).collect();
    labels.sort_unstable();
    labels.dedup();
    if labels.len() > MAX_CLASS_TOKENS {
        // Which 16 a label holds depends on the tokens' order, not their hashes'.
        labels = class_tokens(class)
            .iter()
            .take(MAX_CLASS_TOKENS)
            .map(Token::root_label)
            .collect();
        labels.sort_unstable();
    }
    labels
}

/// A class token's [`Token::root_label`], from the token as written.
pub(crate) fn token_label(token: &str) -> u64 {
    let mut h = fnv1(FNV_OFFSET, b".");
    normalised(token, |b| h = fnv1(h, &[b]));
    h
}

/// The class tokens a label reads, as text (`explain.rs`): [`class_tokens`], joined by `.`.
pub(crate) fn class_names(class: &str) -> String {
    let tokens = class_tokens(class);
    let mut out = String::new();
    for token in tokens.iter().take(MAX_CLASS_TOKENS) {
        out.push('.');
        out.push_str(&String::from_utf8_lossy(token.as_bytes()));
    }
    out
}

/// The distinct normalised tokens of `class`, sorted.
pub(crate) fn class_tokens(class: &str) -> Vec<Token> {
    let mut tokens: Vec<Token> = class.split_ascii_whitespace().map(Token::new).collect();
    tokens.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    tokens.dedup_by(|a, b| a.as_bytes() == b.as_bytes());
    tokens
}

/// The label of an element named `name` whose class has the distinct normalised tokens
/// `tokens`, sorted: [`label`] of a class with those tokens.
pub(crate) fn label_of_tokens(name: &str, tokens: &[Token]) -> u64 {
    let mut h = FNV_OFFSET;
    for b in name.bytes() {
        h = fnv1(h, &[b.to_ascii_lowercase()]);
    }
    for t in tokens.iter().take(MAX_CLASS_TOKENS) {
        h = fnv1(h, b".");
        h = fnv1(h, t.as_bytes());
    }
    h
}

/// The length of the hexadecimal id that starts `bytes`, if one does: a run of at least
/// [`HEX_ID_MIN`] ASCII hex digits with at least two decimal digits and two letters among them
/// (a hash or an anchor id, such as Doxygen's `memitem:ga8fd2…`); else 0.
fn hex_id_len(bytes: &[u8]) -> usize {
    let run = bytes.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if run < HEX_ID_MIN {
        return 0;
    }
    let digits = bytes[..run].iter().filter(|b| b.is_ascii_digit()).count();
    if digits >= 2 && run - digits >= 2 {
        run
    } else {
        0
    }
}

/// Calls `out` with each byte of class token `token` normalised as [`Token`] keeps it.
fn normalised(token: &str, out: impl FnMut(u8)) {
    normalised_with(token, true, out);
}

/// Calls `out` with each byte of `token` normalised: runs of digits and hex ids as one `0`;
/// with `ids_after_colon` (a class token), everything after a colon that is neither its
/// first nor its last byte as one `0` as well (a form field's name keeps it: JSF's
/// `login:user` and `login:password` are two fields).
fn normalised_with(token: &str, ids_after_colon: bool, mut out: impl FnMut(u8)) {
    let src = token.as_bytes();
    let (mut i, mut len, mut in_digits) = (0, 0, false);
    while i < src.len() {
        let b = src[i];
        // A hex id counts as one run of digits. It starts a run of hex digits only: inside
        // one (`ab12cdef34` seen from its `b`) it would start anywhere.
        let starts_run = i == 0 || !src[i - 1].is_ascii_hexdigit();
        let id = if starts_run { hex_id_len(&src[i..]) } else { 0 };
        if id > 0 || b.is_ascii_digit() {
            i += id.max(1);
            if in_digits {
                continue;
            }
            in_digits = true;
            if len == MAX_TOKEN_BYTES {
                break;
            }
            out(b'0');
            len += 1;
            continue;
        }
        in_digits = false;
        if b == b':' && i > 0 && i + 1 < src.len() && ids_after_colon {
            // `memitem:group__errors`: what follows the colon names an item, as an id's
            // digits do.
            if len + 2 <= MAX_TOKEN_BYTES {
                out(b':');
                out(b'0');
            }
            break;
        }
        if b < 0x80 {
            if len == MAX_TOKEN_BYTES {
                break;
            }
            out(b.to_ascii_lowercase());
            len += 1;
            i += 1;
            continue;
        }
        // The length of the character `b` starts (the input is a `str`).
        let n = match b {
            0xf0.. => 4,
            0xe0.. => 3,
            _ => 2,
        };
        if len + n > MAX_TOKEN_BYTES || i + n > src.len() {
            break;
        }
        for &c in &src[i..i + n] {
            out(c);
        }
        len += n;
        i += n;
    }
}

/// Whether a child of the main content is one of the template's blocks, which weigh at level
/// 1: a sectioning or grouping container (`div`, `section`, `article`, `aside`, `nav`,
/// `header`, `footer`, `form`, `main`, `details`, `fieldset`) or any element with a class
/// token. A bare `p`, `h2`, `pre`, `ul` or `table` right in the main content is the article's
/// own markup (a Markdown page's paragraphs and headings): it keeps its depth as its level.
pub(crate) fn is_template_block(name: &str, label: u64) -> bool {
    matches!(
        name,
        "div"
            | "section"
            | "article"
            | "aside"
            | "nav"
            | "header"
            | "footer"
            | "form"
            | "main"
            | "details"
            | "fieldset"
    ) || label != self::label(name, None)
}

/// Form fields (`input`, `select`, `textarea`, `button`): what a user fills in tells one form
/// from another, so a field's `name` and `type` are part of its label ([`field_label`]).
pub(crate) fn is_field(name: &[u8]) -> bool {
    matches!(name, b"input" | b"select" | b"textarea" | b"button")
}

/// The label of a form field ([`is_field`]): its `label` (tag and classes), then `|n=` and
/// its `name`, `|t=` and its `type`, each normalised as a class token (so `row-12` and
/// `row-13` are one name), an absent attribute as empty. A login form (`user`, `password`)
/// and an account form (`user`, `email`, `password`) then differ in their paths although
/// their markup is the same.
pub(crate) fn field_label(label: u64, name: Option<&str>, kind: Option<&str>) -> u64 {
    let mut h = fnv1(label, b"|n=");
    normalised_with(name.unwrap_or("").trim_ascii(), false, |b| {
        h = fnv1(h, &[b])
    });
    h = fnv1(h, b"|t=");
    normalised_with(kind.unwrap_or("").trim_ascii(), false, |b| {
        h = fnv1(h, &[b])
    });
    h
}

/// Letters of a header cell's text kept ([`HeaderText`]).
const MAX_HEADER_LETTERS: usize = 32;

/// Bytes of a header cell's text read at most (alphanumeric and non-ASCII bytes, one space
/// for any run of others).
const MAX_HEADER_BYTES: usize = 128;

/// The text of a table's header cell (`<th>`), read as the tokenizer hands it over: the
/// letters of its words, lowercased, the first [`MAX_HEADER_LETTERS`] of them, hashed with
/// FNV-1 64 over their UTF-8 bytes. A word is a run of alphanumeric characters of any
/// script; a word with a digit in it is an id, a date, a count or a revision (`1001:4c74e7`,
/// `2026-11`, `(3)`): data, left out, as digits are in class tokens. White space and
/// punctuation (a no-break space too) only end words: `Age (days)` reads `agedays`.
#[derive(Clone, Debug, Default)]
pub(crate) struct HeaderText {
    /// The alphanumeric and non-ASCII bytes read so far (a character may come in pieces),
    /// one space for each run of other bytes.
    bytes: Vec<u8>,
}

impl HeaderText {
    /// Reads more of the cell's text.
    pub(crate) fn push(&mut self, text: &[u8]) {
        for &b in text {
            if self.bytes.len() >= MAX_HEADER_BYTES {
                return;
            }
            if b.is_ascii_alphanumeric() || !b.is_ascii() {
                self.bytes.push(b);
            } else if self.bytes.last().is_some_and(|&l| l != b' ') {
                self.bytes.push(b' ');
            }
        }
    }

    /// The hash of the cell's text, `None` without a letter in a word without digits.
    pub(crate) fn finish(self) -> Option<u64> {
        let text = String::from_utf8_lossy(&self.bytes);
        let mut h = FNV_OFFSET;
        let mut buf = [0u8; 4];
        let mut letters = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.chars().any(char::is_numeric))
            .flat_map(str::chars)
            .flat_map(char::to_lowercase)
            .take(MAX_HEADER_LETTERS)
            .peekable();
        letters.peek()?;
        for c in letters {
            h = fnv1(h, c.encode_utf8(&mut buf).as_bytes());
        }
        Some(h)
    }
}

/// The label of a `<table>` whose header row names its columns (`table_rows.rs` `header_row`: the
/// first row of its `<thead>`, or without one its first row, all header cells): `label` with the cells' texts ([`HeaderText`]; `None`,
/// a cell without letters, as 0) mixed in, in column order. A list of tags and a list of
/// branches are then two kinds of table, and every path below them differs, although their
/// markup is the same: a table's column headers are what a user reads as another page.
pub(crate) fn table_label(label: u64, columns: impl IntoIterator<Item = Option<u64>>) -> u64 {
    let mut h = fnv1(label, b"|cols");
    for column in columns {
        h = mix(h.wrapping_mul(PHI) ^ column.unwrap_or(0));
    }
    h
}

/// The label of a header cell `th_label` (its tag alone: a sort class is no column's name)
/// of a table whose label reads its column headers ([`table_label`]), with the cell's
/// [`HeaderText`] `text` (0 without letters): the column's name, labelled under the table's
/// parent, so that two tables of one kind share the columns they both show.
pub(crate) fn column_label(th_label: u64, text: u64) -> u64 {
    mix(fnv1(th_label, b"|column").wrapping_mul(PHI) ^ text)
}

/// Phrasing content (HTML's inline elements): what lies inside them is the text's markup.
pub(crate) fn is_phrasing(name: &str) -> bool {
    matches!(
        name,
        "a" | "abbr"
            | "b"
            | "bdi"
            | "bdo"
            | "big"
            | "br"
            | "cite"
            | "code"
            | "data"
            | "del"
            | "dfn"
            | "em"
            | "font"
            | "i"
            | "ins"
            | "kbd"
            | "mark"
            | "nobr"
            | "q"
            | "s"
            | "samp"
            | "small"
            | "span"
            | "strike"
            | "strong"
            | "sub"
            | "sup"
            | "time"
            | "tt"
            | "u"
            | "var"
            | "wbr"
    )
}

/// An element's label by its tag name alone (its classes left out): how an element below a
/// flow of prose is labelled.
#[must_use]
pub(crate) fn tag_label(name: &str) -> u64 {
    label(name, None)
}

/// An element's label: its tag name and normalised class tokens, hashed.
#[must_use]
pub(crate) fn label(name: &str, class: Option<&str>) -> u64 {
    let mut h = FNV_OFFSET;
    for b in name.bytes() {
        h = fnv1(h, &[b.to_ascii_lowercase()]);
    }
    let Some(class) = class else { return h };
    // One token (the most common list): no list to keep sorted. Most other lists are short:
    // a small array to keep sorted, not 16 tokens' worth of zeroed bytes for every element
    // (the same labels either way).
    let mut tokens = class.split_ascii_whitespace();
    match (tokens.next(), tokens.next()) {
        (None, _) => return h,
        (Some(only), None) => {
            let mut h = fnv1(h, b".");
            normalised(only, |b| h = fnv1(h, &[b]));
            return h;
        }
        _ => {}
    }
    // (Two tokens read: the third after them is the list's fifth.)
    if tokens.nth(2).is_none() {
        with_tokens::<4>(h, class)
    } else {
        with_tokens::<MAX_CLASS_TOKENS>(h, class)
    }
}

/// `h` followed by the first `N` (at most [`MAX_CLASS_TOKENS`]) distinct tokens of `class`
/// in normalised order.
fn with_tokens<const N: usize>(mut h: u64, class: &str) -> u64 {
    // The first distinct tokens in normalised order, kept sorted: no allocation, whatever
    // the length of the list.
    let mut kept = [Token::EMPTY; N];
    let mut n = 0;
    for token in class.split_ascii_whitespace() {
        let t = Token::new(token);
        if n == N && t.as_bytes() >= kept[n - 1].as_bytes() {
            continue;
        }
        let Err(at) = kept[..n].binary_search_by(|k| k.as_bytes().cmp(t.as_bytes())) else {
            continue;
        };
        if n < N {
            n += 1;
        }
        kept.copy_within(at..n - 1, at + 1);
        kept[at] = t;
    }
    for t in &kept[..n] {
        h = fnv1(h, b".");
        h = fnv1(h, t.as_bytes());
    }
    h
}

/// Whether an element's class tokens stay out of its label and its descendants' paths, each
/// token being a path of its own under it instead ([`root_class_tokens`]): `<html>` and
/// `<body>`, whose classes often name the page itself (MediaWiki's `page-Main_Page`,
/// WordPress's `category-news`). In a label, one such token would make every path of the
/// page unique to it.
pub(crate) fn is_root(name: &str) -> bool {
    matches!(name, "html" | "body")
}

/// The labels of the class tokens of a root element ([`is_root`]), each a path of its own
/// under the element: FNV-1 64 over `.` and the token normalised as in labels, at most the
/// first [`MAX_CLASS_TOKENS`] distinct ones in normalised order. (No element's label starts
/// with `.`.)
pub(crate) fn root_class_tokens(class: &str) -> Vec<u64> {
    class_tokens(class)
        .iter()
        .take(MAX_CLASS_TOKENS)
        .map(Token::root_label)
        .collect()
}

/// The path of a child with `label` under a parent whose path is `parent`.
#[must_use]
pub(crate) const fn child_path(parent: u64, label: u64) -> u64 {
    mix(parent.wrapping_mul(PHI) ^ label)
}

/// A page's structure for the `class-paths` model: its distinct path ids, each with its
/// level (its depth, or 1 for a child of the main content: see the module docs), and the
/// hash seed. Decay-free: [`fingerprint`](Self::fingerprint) recomputes the
/// page's fingerprint at any decay, bit for bit, and [`jaccard`](Self::jaccard) compares two
/// pages exactly.
///
/// ```
/// use silhouette_dom::{FeatureSet, HasherConfig, StructureHasher};
///
/// let hasher = StructureHasher::new(HasherConfig::for_model(FeatureSet::ClassPaths))?;
/// let a = hasher.hash(b"<table class=list><tr><td class=age>1<tr><td class=age>2</table>")?;
/// let b = hasher.hash(b"<table class=list><tr><td class=age>3</table>")?;
/// let (a, b) = (a.profile.paths().expect("class-paths"), b.profile.paths().expect("class-paths"));
/// assert_eq!(a.len(), 7); // html, head, body, table.list, tbody, tr, td.age
/// assert_eq!(a.jaccard(b), 1.0); // one row or two: the same set
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathSet {
    seed: u32,
    /// Path ids, sorted, distinct.
    ids: Vec<u32>,
    /// The level of each path in `ids`: the exponent of its weight, with [`Self::PROSE`]
    /// set for a path below a flow of prose, [`Self::FIELD`] for a visible form field and
    /// [`Self::TABLE`] for a table's column.
    levels: Vec<u8>,
    /// The ids (sorted, a subset of `ids`) of an article's blocks: paths below an element of
    /// the main content (or of a flow of prose) that holds a bare paragraph itself, but for
    /// the main content's own template blocks ([`Self::is_article_block`]).
    article: Vec<u32>,
}

impl PathSet {
    /// The bit of a stored level that marks a path below a flow of prose: the page's
    /// content, which the crawl never counts as a host's frame.
    pub const PROSE: u8 = 0x80;

    /// The bit of a stored level that marks the path of a form field a user sees (any but
    /// `type=hidden`), at any depth: what the crawl compares form by form (two pages whose
    /// own forms share less than half their fields are two kinds of page).
    pub const FIELD: u8 = 0x40;

    /// The bit of a stored level that marks a table's column: a header cell of a `<table>`
    /// outside the main content whose header row names its columns, at the table's place
    /// under its name: what the crawl compares table by table (two pages whose own tables
    /// share less than half their columns are two kinds of page). Levels stay below this bit
    /// (a deeper path weighs as level 31).
    pub const TABLE: u8 = 0x20;

    /// Every mark a stored level may carry.
    const MARKS: u8 = Self::PROSE | Self::FIELD | Self::TABLE;

    /// Builds a set from `(path id, level)` pairs in any order (the first level of a repeated
    /// id wins); a level may carry [`Self::PROSE`], [`Self::FIELD`] and [`Self::TABLE`].
    #[must_use]
    pub fn from_paths(seed: u32, mut paths: Vec<(u32, u8)>) -> Self {
        paths.sort_by_key(|&(id, _)| id);
        paths.dedup_by_key(|&mut (id, _)| id);
        let (ids, levels) = paths.into_iter().unzip();
        Self {
            seed,
            ids,
            levels,
            article: Vec::new(),
        }
    }

    /// The set with the paths `article` (ids of the set, in any order; others are ignored)
    /// marked as an article's blocks ([`Self::is_article_block`]).
    #[must_use]
    pub fn with_article_blocks(mut self, mut article: Vec<u32>) -> Self {
        article.retain(|id| self.ids.binary_search(id).is_ok());
        article.sort_unstable();
        article.dedup();
        self.article = article;
        self
    }

    /// Whether path `id` is one of an article's blocks: below an element of the main content
    /// (or of a flow of prose) that holds a bare paragraph itself (a Sphinx section, a wiki's
    /// parsed text, a Markdown page's main), other than the main content's own template
    /// blocks. What an author puts between paragraphs (a definition list, a nested section,
    /// a listing, a table) is there; a template's blocks beside the text (a diff table, a
    /// sidebar, a form) are not. The crawl compares two articles without them
    /// (ALGORITHM.md §3, "Session 59"). Not read by the fingerprint, and no part of a path's
    /// id in the summary ([`Self::summary`]).
    #[must_use]
    pub fn is_article_block(&self, id: u32) -> bool {
        self.article.binary_search(&id).is_ok()
    }

    /// The ids of the paths marked as an article's blocks, increasing.
    pub(crate) fn article_blocks(&self) -> &[u32] {
        &self.article
    }

    /// The hash seed the fingerprint is computed with.
    #[must_use]
    pub const fn seed(&self) -> u32 {
        self.seed
    }

    /// Distinct paths.
    #[must_use]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether the page had no element at all within the depth limit.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The path ids, increasing: the page's structure summary, compared by
    /// [`jaccard`](silhouette_simhash::jaccard).
    #[must_use]
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// `(path id, level)` pairs, by increasing id.
    pub fn paths(&self) -> impl Iterator<Item = (u32, u8)> + '_ {
        self.stored().map(|(id, level)| (id, level & !Self::MARKS))
    }

    /// `(path id, level)` pairs as stored: the level with [`Self::PROSE`], [`Self::FIELD`]
    /// and [`Self::TABLE`].
    pub(crate) fn stored(&self) -> impl Iterator<Item = (u32, u8)> + '_ {
        self.ids.iter().copied().zip(self.levels.iter().copied())
    }

    /// The page's structure summary as a crawl compares it: each path id with its lowest
    /// bit replaced by whether the path is below a flow of prose (1) or not (0), its next bit
    /// by whether it is a visible form field (2) or not (0), the next by whether it is a
    /// table's column (4) or not (0), and its fourth bit clear; and for each of an article's
    /// blocks ([`Self::is_article_block`]) the same id with its fourth bit set (8) beside it.
    /// Increasing, distinct. A scope's frame then tells a page's prose from its template, the
    /// crawl a page's forms and tables from the rest, and two articles' blocks from their
    /// template, while a path is one id on every page, marked or not: a crawl matches two
    /// pages' paths without their marks (what two pages share is compared as [`Self::ids`]
    /// are, but for one pair of ids in 2^28 that the bits merge).
    #[must_use]
    pub fn summary(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = Vec::with_capacity(self.ids.len() + self.article.len());
        for (id, level) in self.stored() {
            let summary = (id & !15)
                | u32::from(level & Self::PROSE != 0)
                | (u32::from(level & Self::FIELD != 0) << 1)
                | (u32::from(level & Self::TABLE != 0) << 2);
            ids.push(summary);
            if self.is_article_block(id) {
                ids.push(summary | 8);
            }
        }
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The fingerprint at `decay` (see the module docs).
    #[must_use]
    pub fn fingerprint(&self, decay: f64) -> Fingerprint {
        let mut powers = vec![1.0f64];
        let mut acc = Simhash::new();
        for (id, level) in self.paths() {
            // (`paths` leaves `PROSE` out of the level.)
            while powers.len() <= usize::from(level) {
                let last = powers[powers.len() - 1];
                powers.push(last * decay);
            }
            acc.add(
                mix((u64::from(self.seed) << 32) | u64::from(id)),
                powers[usize::from(level)],
            );
        }
        acc.finish()
    }

    /// Jaccard similarity of the two sets of paths, `|A ∩ B| / |A ∪ B|` (1 for two empty sets).
    #[must_use]
    pub fn jaccard(&self, other: &Self) -> f64 {
        silhouette_simhash::jaccard(&self.ids, &other.ids)
    }
}

/// Collects the paths of one page during the walk.
#[derive(Debug)]
pub(crate) struct PathCollector {
    pub(crate) max_depth: u32,
    /// Path id → its index in `paths`.
    seen: fnv::FnvHashMap<u32, usize>,
    paths: Vec<(u32, u8)>,
    /// The paths' names, when explaining ([`crate::StructureHasher::explain`]).
    pub(crate) names: Option<crate::explain::Names>,
    /// Paths met as an article's block, and met elsewhere: a path is an article's block
    /// only if it always was ([`PathSet::is_article_block`]).
    article: fnv::FnvHashSet<u32>,
    not_article: fnv::FnvHashSet<u32>,
}

impl PathCollector {
    pub(crate) fn new(max_depth: u32) -> Self {
        Self {
            max_depth,
            seen: fnv::FnvHashMap::default(),
            paths: Vec::new(),
            names: None,
            article: fnv::FnvHashSet::default(),
            not_article: fnv::FnvHashSet::default(),
        }
    }

    /// Notes an element's path at `depth` (held to the depth limit, but for a visible form
    /// field and a table's column: a widget toolkit nests a form's fields, and an
    /// application's frame its lists, a dozen levels deep, and what a form asks for and what
    /// a list's columns name is what tells its page from another), with its `level` and its
    /// `marks`:
    /// [`PathSet::PROSE`] below a flow of prose, [`PathSet::FIELD`] for a visible form field,
    /// [`PathSet::TABLE`] for a table's column. A path met
    /// again keeps the lowest level it was met at (in a flow of prose one path stands for
    /// blocks at several depths), so the order of the blocks does not matter, and is prose
    /// only if it always was (a field's label holds its type, so a path is a field's every
    /// time or never; a path is a column's if it ever was).
    pub(crate) fn add(&mut self, path: u64, depth: u32, level: u32, marks: u8) {
        if depth > self.max_depth && marks & (PathSet::FIELD | PathSet::TABLE) == 0 {
            return;
        }
        let id = (path >> 32) as u32;
        let flags = PathSet::MARKS;
        let level = u8::try_from(level).unwrap_or(u8::MAX).min(!flags);
        let flag = marks & flags;
        let next = self.paths.len();
        match self.seen.entry(id) {
            std::collections::hash_map::Entry::Occupied(at) => {
                if let Some(slot) = self.paths.get_mut(*at.get()) {
                    let was = slot.1;
                    slot.1 = (was & !flags).min(level)
                        | (was & flag & PathSet::PROSE)
                        | ((was | flag) & (PathSet::FIELD | PathSet::TABLE));
                }
            }
            std::collections::hash_map::Entry::Vacant(slot) if next < MAX_PATHS => {
                slot.insert(next);
                self.paths.push((id, level | flag));
            }
            std::collections::hash_map::Entry::Vacant(_) => {}
        }
    }

    /// Notes whether an element at `path` (already [`Self::add`]ed) is one of an article's
    /// blocks ([`PathSet::is_article_block`]).
    pub(crate) fn note_article(&mut self, path: u64, article: bool) {
        let id = (path >> 32) as u32;
        if article {
            self.article.insert(id);
        } else {
            self.not_article.insert(id);
        }
    }

    pub(crate) fn finish(self, seed: u32) -> PathSet {
        let article = self
            .article
            .iter()
            .copied()
            .filter(|id| !self.not_article.contains(id))
            .collect();
        PathSet::from_paths(seed, self.paths).with_article_blocks(article)
    }
}

#[cfg(test)]
#[path = "paths_tests.rs"]
mod tests;
