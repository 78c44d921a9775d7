//! The visible text of a page's main content, written as the tree builder builds the tree.
//!
//! The main content is the first `<main>` or `[role=main]` element in document order when
//! there is one, else every `<article>` not inside another, else `<body>` without its `nav`,
//! `header`, `footer` and `aside` (none of them counts inside text that is never shown).
//! Script, style, template, noscript and other non-rendered text is left out. Each block
//! element (p, div, li, h1–h6, td, pre, …) starts and ends a line; whitespace inside a line is
//! collapsed to single spaces; empty lines are dropped. Text comes in the order of the markup
//! (the tree builder moves a table's stray text before the table; here it stays where it was),
//! and on the lines of the blocks it was in when it came: in misnested markup where the
//! adoption agency later moves an element out of a block (`<em><form>a<button>b</form></em>`:
//! `</form>` leaves the button open, `</em>` moves it after the form), its text stays on the
//! block's line (`ab`, where the final tree reads `a`, then `b`).

use std::sync::OnceLock;

use html5ever::LocalName;

/// Elements whose text is never shown (or is only a fallback).
const HIDDEN_NAMES: [&str; 12] = [
    "script", "style", "template", "noscript", "head", "title", "iframe", "noembed", "noframes",
    "object", "select", "textarea",
];

/// Elements left out of `<body>` when it is the main content: the page's chrome.
const CHROME_NAMES: [&str; 4] = ["nav", "header", "footer", "aside"];

/// Elements that start and end a line.
const BLOCK_NAMES: [&str; 44] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "br",
    "caption",
    "dd",
    "details",
    "dialog",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "tr",
    "ul",
];

/// What an element's name says about its text: bits of [`class`].
pub(crate) type Class = u8;
/// Its text is never shown ([`HIDDEN_NAMES`]).
pub(crate) const IS_HIDDEN: Class = 1;
const IS_CHROME: Class = 2;
const IS_BLOCK: Class = 4;
const IS_ARTICLE: Class = 8;
const IS_BODY: Class = 16;

/// The [`Class`] of an element named `name`: one look at a table by the atom's hash
/// (computed once, when the string became an atom), where matching the name's characters
/// against each list cost about a fifth of the text's collection.
///
/// The table has [`CLASS_SLOTS`] slots for the ~60 names, and its slot function is the first
/// of a fixed series of multipliers that gives each name a slot of its own ([`ClassTable`]):
/// a listed name is found at the first slot looked at, and most others end at an empty one,
/// so the look-up seldom loops (a loop of varying length mispredicted about 2,000 branches per
/// python page). Linear probing stays, so the answer never depends on the multiplier found.
pub(crate) fn class(name: &LocalName) -> Class {
    table().get(name)
}

/// [`class`] in one look, with no branch on whether the name is listed: about half the
/// elements of a page are, in no order a predictor could learn (the probe loop mispredicted
/// about 1,100 branches per python page when called for every element inserted). Used where
/// an element is entered for the text, inlined there; [`class`] serves the tag emitter, which
/// asks only when raw text follows a start tag.
#[inline(always)]
fn class_in_one_look(name: &LocalName) -> Class {
    table().get_in_one_look(name)
}

fn table() -> &'static ClassTable {
    static TABLE: OnceLock<ClassTable> = OnceLock::new();
    TABLE.get_or_init(ClassTable::new)
}

/// Slots of the [`class`] table (a power of two).
const CLASS_SLOTS: usize = 1024;

/// The names of [`class`] with their bits, open addressing over `CLASS_SLOTS` slots.
struct ClassTable {
    mul: u64,
    /// Every name is in the slot it starts at (the multiplier gave none two in one).
    perfect: bool,
    slots: Vec<Option<(LocalName, Class)>>,
}

impl ClassTable {
    fn new() -> Self {
        let mut names: Vec<(LocalName, Class)> = Vec::new();
        let lists: [(&[&str], Class); 5] = [
            (&HIDDEN_NAMES, IS_HIDDEN),
            (&CHROME_NAMES, IS_CHROME),
            (&BLOCK_NAMES, IS_BLOCK),
            (&["article"], IS_ARTICLE),
            (&["body"], IS_BODY),
        ];
        for (list, bit) in lists {
            for &n in list {
                let name = LocalName::from(n);
                match names.iter_mut().find(|(m, _)| *m == name) {
                    Some((_, c)) => *c |= bit,
                    None => names.push((name, bit)),
                }
            }
        }
        // Multipliers from a fixed series (odd, well mixed), the first without two names in
        // one slot; the last tried otherwise (probing still finds every name).
        let mut mul = 0;
        let mut perfect = false;
        for k in 1..=10_000u64 {
            mul = k.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            let mut seen = vec![false; CLASS_SLOTS];
            perfect = names
                .iter()
                .all(|(n, _)| !std::mem::replace(&mut seen[Self::slot(mul, n)], true));
            if perfect {
                break;
            }
        }
        let mut slots = vec![None; CLASS_SLOTS];
        for (name, class) in names {
            let mut i = Self::slot(mul, &name);
            while slots[i].is_some() {
                i = (i + 1) % CLASS_SLOTS;
            }
            slots[i] = Some((name, class));
        }
        Self {
            mul,
            perfect,
            slots,
        }
    }

    /// The slot `name` starts at. (Inline atoms, short names outside html5ever's static set,
    /// have their bytes for a hash: mixed before use.)
    fn slot(mul: u64, name: &LocalName) -> usize {
        let h = name.get_hash();
        #[allow(clippy::cast_possible_truncation, reason = "the top 10 bits")]
        let s = ((h ^ (h >> 29)).wrapping_mul(mul) >> (64 - CLASS_SLOTS.trailing_zeros())) as usize;
        s
    }

    fn get(&self, name: &LocalName) -> Class {
        let mut i = Self::slot(self.mul, name);
        // The table is far from full: a probe ends at an empty slot.
        while let Some(Some((m, c))) = self.slots.get(i) {
            if m == name {
                return *c;
            }
            i = (i + 1) % CLASS_SLOTS;
        }
        0
    }

    /// [`get`](Self::get) in one look when every name is in its own slot: a name there is
    /// the one asked for or not listed.
    #[inline(always)]
    fn get_in_one_look(&self, name: &LocalName) -> Class {
        if !self.perfect {
            return self.get(name);
        }
        match self.slots.get(Self::slot(self.mul, name)) {
            Some(Some((m, c))) => *c * Class::from(m == name),
            _ => 0,
        }
    }
}

/// What an element's text is to the main content, from its ancestors and itself: the bits of
/// [`TextWriter::enter`].
pub(crate) type Ctx = u8;

/// Inside `<body>`.
pub(crate) const BODY: Ctx = 1;
/// Inside an element whose text is never shown ([`HIDDEN_NAMES`], or a template's contents).
pub(crate) const HIDDEN: Ctx = 2;
/// Inside the page's chrome ([`CHROME_NAMES`]).
const CHROME: Ctx = 4;
/// Inside an `<article>` (an outermost one, and so every one inside it).
const ARTICLE: Ctx = 8;
/// Inside the main element.
const MAIN: Ctx = 16;
/// The element has `role=main` (set when it is created; its own, not passed to its children).
pub(crate) const ROLE_MAIN: Ctx = 64;
/// The element has been entered once: moving it later (the tree builder's adoption agency
/// does) starts no line.
pub(crate) const ENTERED: Ctx = 128;

/// Writes the main-content text as the tree builder builds the tree, with no text nodes and
/// no walk afterwards: each element gets a [`Ctx`] from its parent when it is first inserted,
/// and each run of text goes, with its parent's, to the one output that can still be chosen.
///
/// The outputs are the three candidates, in the order they win: the text of the main element,
/// of the outermost articles, of `<body>` less its chrome. Once a main element has been
/// inserted, only its text is written; once an article has, body text no longer is. Text is
/// written in the order the parser reads it (foster-parented table text, which the tree holds
/// before its table, comes where it stands in the markup: after the table's line has begun,
/// so on a line of its own just the same).
#[derive(Debug)]
pub(crate) struct TextWriter {
    main: Lines,
    articles: Lines,
    body: Lines,
    main_seen: bool,
    article_seen: bool,
    /// Text has been inserted outside the main element since it was seen: it has left the
    /// tree builder's stack of open elements ([`done_after_text`](Self::done_after_text)).
    main_left: bool,
}

impl TextWriter {
    /// A writer whose text is at most `max_bytes` long.
    pub(crate) fn new(max_bytes: usize) -> Self {
        Self {
            main: Lines::new(max_bytes),
            articles: Lines::new(max_bytes),
            body: Lines::new(max_bytes),
            main_seen: false,
            article_seen: false,
            main_left: false,
        }
    }

    /// Whether no more text can be written: the main element's text has reached the bound,
    /// or the parser has left the main element (once it is seen, nothing outside it is
    /// written). Then the text is complete, and the rest of the page is parsed as without
    /// text: no words stored, no runs decoded, no contexts for the elements that follow.
    pub(crate) fn done(&self) -> bool {
        #[cfg(test)]
        if tests::NEVER_DONE.get() {
            return false;
        }
        self.main_seen && (self.main.full || self.main_left)
    }

    /// [`done`](Self::done) once text has been inserted under an element of context `ctx`:
    /// shown text outside the main element, once it is seen, marks that the parser has left
    /// it. While the main element is on the tree builder's stack of open elements, every text
    /// is inserted inside it: the elements above it on the stack are its descendants (a foster
    /// parent is the parent of a table above it; the adoption agency moves the main element
    /// with its subtree), and text goes to the current node or a foster parent. And once off
    /// the stack, an element never returns to it (reopened formatting elements are new
    /// elements). So text outside it means no text can be inserted into it again. (A
    /// template's contents, and hidden elements, are not evidence: their context has
    /// [`HIDDEN`].)
    pub(crate) fn done_after_text(&mut self, ctx: Ctx) -> bool {
        if self.main_seen && ctx & (MAIN | HIDDEN | ENTERED) == ENTERED {
            self.main_left = true;
        }
        self.done()
    }

    /// Makes room for `bytes` of text in whichever output is written first (most pages write
    /// to one), when it is.
    pub(crate) fn reserve(&mut self, bytes: usize) {
        for out in [&mut self.main, &mut self.articles, &mut self.body] {
            out.room = bytes.min(out.max);
        }
    }

    /// The context of an element named `name` (its own bits so far: `own`; `main`: it can be
    /// the main content, `TreeArena::is_main`) first inserted under a parent of context
    /// `parent`, and whether it is a block; starts a line where it is one. The first such
    /// element not inside hidden text is the main one.
    #[inline(always)]
    pub(crate) fn enter(
        &mut self,
        parent: Ctx,
        name: &LocalName,
        own: Ctx,
        main: bool,
    ) -> (Ctx, bool) {
        let class = class_in_one_look(name);
        let mut ctx = (parent & !ROLE_MAIN) | (own & ROLE_MAIN) | ENTERED;
        if class & IS_HIDDEN != 0 {
            ctx |= HIDDEN;
        } else if ctx & HIDDEN == 0 {
            if main && !self.main_seen {
                self.main_seen = true;
                ctx |= MAIN;
            }
            if class & IS_ARTICLE != 0 {
                self.article_seen = true;
                ctx |= ARTICLE;
            }
        }
        if class & IS_BODY != 0 {
            ctx |= BODY;
        }
        if class & IS_CHROME != 0 {
            ctx |= CHROME;
        }
        let block = class & IS_BLOCK != 0;
        if block {
            self.block(ctx);
        }
        (ctx, block)
    }

    /// The output text in context `ctx` goes to, if any.
    fn out(&mut self, ctx: Ctx) -> Option<&mut Lines> {
        if ctx & HIDDEN != 0 {
            None
        } else if ctx & MAIN != 0 {
            Some(&mut self.main)
        } else if self.main_seen {
            None
        } else if ctx & ARTICLE != 0 {
            Some(&mut self.articles)
        } else if self.article_seen || ctx & (BODY | CHROME) != BODY {
            None
        } else {
            Some(&mut self.body)
        }
    }

    /// A line ends in context `ctx`.
    fn block(&mut self, ctx: Ctx) {
        if let Some(out) = self.out(ctx) {
            out.block();
        }
    }

    /// The output text in context `ctx`, inside block element `block` (the nearest one), goes
    /// to, if any: a line ends first when the output's last text was inside another. (Where a
    /// block starts, [`enter`](Self::enter) ends the line; where one ends, the next text is
    /// outside it, so its nearest block is another. The tree builder does not tell the sink
    /// when it closes an element.) Chosen once for a whole run of text: only entering an
    /// element changes which output a context goes to.
    pub(crate) fn text_out(&mut self, ctx: Ctx, block: u32) -> Option<&mut Lines> {
        let out = self.out(ctx)?;
        if out.last_block != block {
            out.block();
            out.last_block = block;
        }
        Some(out)
    }

    /// The text, and whether it was cut at the bound.
    pub(crate) fn finish(self) -> (String, bool) {
        let out = if self.main_seen {
            self.main
        } else if self.article_seen {
            self.articles
        } else {
            self.body
        };
        let full = out.full;
        let mut text = out.text;
        if text.last() == Some(&b'\n') {
            text.pop();
        }
        let text = String::from_utf8(text)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        (text, full)
    }
}

/// A one in each byte.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of each byte.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// One byte of [`Lines::ascii_words`]' slow path: `b` pushed to `out` unless it is white
/// space after white space (white space as a space); whether it is white space.
#[inline(always)]
fn push_closed(out: &mut Vec<u8>, b: u8, after_space: bool) -> bool {
    let space = matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r');
    if !(space && after_space) {
        out.push(if space { b' ' } else { b });
    }
    space
}

/// Output lines: whitespace collapsed, empty lines dropped, bounded. Bytes, checked as UTF-8
/// once at the end: the runs of the word store are whole characters (`words.rs`), and a
/// character cut at the bound is cut back to its start.
#[derive(Debug)]
pub(crate) struct Lines {
    text: Vec<u8>,
    max: usize,
    /// A space is due before the next word.
    space: bool,
    /// Set once the bound is reached.
    full: bool,
    /// The nearest block element around the last text written ([`TextWriter::text_out`]).
    last_block: u32,
    /// Bytes to make room for when the first text comes ([`TextWriter::reserve`]).
    room: usize,
}

impl Lines {
    const fn new(max: usize) -> Self {
        Self {
            text: Vec::new(),
            max,
            space: false,
            full: false,
            last_block: u32::MAX,
            room: 0,
        }
    }

    /// Ends the current line, if it has anything.
    fn block(&mut self) {
        if !self.full && self.text.last().is_some_and(|&b| b != b'\n') {
            self.text.push(b'\n');
        }
        self.space = false;
    }

    /// White space: a space is due before the next word.
    #[inline(always)]
    pub(crate) const fn space(&mut self) {
        self.space = true;
    }

    /// Words (a run of the store, white space between them, or a piece of a word).
    pub(crate) fn push(&mut self, text: &[u8]) {
        if self.full {
            return;
        }
        if self.text.capacity() == 0 {
            self.text.reserve(self.room);
        }
        // A run of the store (`words.rs`): words with the white space between them as it
        // came, none at either end. Only other characters bring white space of their own
        // (U+00A0, U+3000…): those runs are written word by word.
        if self.ascii_words(text) {
            return;
        }
        let text = String::from_utf8_lossy(text);
        for (i, word) in text.split(char::is_whitespace).enumerate() {
            if i > 0 {
                self.space = true;
            }
            if word.is_empty() {
                continue;
            }
            self.word(word.as_bytes());
            if self.full {
                return;
            }
        }
    }

    /// Adds `text` when it is ASCII words with white space between them (none at either end),
    /// each stretch of white space written as one space, and returns `true`; returns `false`,
    /// with nothing written, at the first byte that is not ASCII.
    ///
    /// One pass, eight bytes at a time: a chunk whose white space is all single characters
    /// (most of prose) is written at once with its tabs and line breaks turned into spaces;
    /// the others byte by byte. This is also the test for ASCII, so the text is read once and
    /// copied with no `memcpy` call of a varying length. The text is cut at the bound only
    /// at the end, as words written one by one would be.
    fn ascii_words(&mut self, text: &[u8]) -> bool {
        if text.is_empty() {
            return true;
        }
        let before = self.text.len();
        // (Taken only once the run is known to be ASCII: the word-by-word path takes it too.)
        if self.space_due() {
            self.text.push(b' ');
        }
        self.text.reserve(text.len() + 8);
        let mut after_space = false;
        let mut chunks = text.chunks_exact(8);
        for chunk in &mut chunks {
            let mut bytes = [0; 8];
            bytes.copy_from_slice(chunk);
            if !self.ascii_chunk(u64::from_le_bytes(bytes), &mut after_space) {
                self.text.truncate(before);
                return false;
            }
        }
        // The last bytes as one more chunk, with no loop over them: read from the text's last
        // eight (or, in a text shorter than that, byte by byte), the bytes past the text as
        // `a` (ASCII, no white space: nothing closes up across them), and cut back after.
        let tail = chunks.remainder();
        let n = tail.len();
        if n > 0 {
            let x = match text.last_chunk::<8>() {
                Some(&last) => u64::from_le_bytes(last) >> (8 * (8 - n)),
                None => tail.iter().rev().fold(0, |x, &b| (x << 8) | u64::from(b)),
            };
            let pad = (u64::MAX << (8 * n)) & (u64::from(b'a') * ONES);
            if !self.ascii_chunk(x | pad, &mut after_space) {
                self.text.truncate(before);
                return false;
            }
            self.text.truncate(self.text.len() - (8 - n));
        }
        self.space = false;
        if self.text.len() > self.max {
            self.text.truncate(self.max);
            self.full = true;
        }
        true
    }

    /// Writes the eight bytes of `x` (little-endian) as [`ascii_words`](Self::ascii_words)
    /// does, `after_space` telling whether white space came just before them; `false`, with
    /// nothing written, when one is not ASCII.
    #[inline(always)]
    fn ascii_chunk(&mut self, x: u64, after_space: &mut bool) -> bool {
        if x & HIGH != 0 {
            return false;
        }
        let bytes = x.to_le_bytes();
        // A high bit per space, and per byte below 0x20: exact for ASCII.
        let y = x ^ (0x20 * ONES);
        let spaces = !(((y & !HIGH) + !HIGH) | y) & HIGH;
        let controls = !(((x & !HIGH) + 0x60 * ONES) | x) & HIGH;
        let white = spaces | controls;
        let single = white & (white << 8) == 0 && !(*after_space && white & 0x80 != 0);
        if single && Self::all_white(&bytes, controls) {
            // Each white byte becomes a space: its high bit spread to the whole byte.
            let mask = (white >> 7) * 0xFF;
            let out = (x & !mask) | (0x20 * (white >> 7));
            self.text.extend_from_slice(&out.to_le_bytes());
            *after_space = white >> 63 != 0;
        } else {
            for b in bytes {
                *after_space = push_closed(&mut self.text, b, *after_space);
            }
        }
        true
    }

    /// Whether every byte of `bytes` flagged in `controls` (a high bit per byte) is white space
    /// (tab, line feed, form feed, carriage return), not another control character.
    fn all_white(bytes: &[u8; 8], controls: u64) -> bool {
        let mut c = controls;
        while c != 0 {
            let i = (c.trailing_zeros() / 8) as usize;
            if !matches!(bytes.get(i), Some(b'\t' | b'\n' | b'\x0c' | b'\r')) {
                return false;
            }
            c &= c - 1;
        }
        true
    }

    /// Adds one word, after a space when one is due.
    fn word(&mut self, word: &[u8]) {
        if word.is_empty() {
            return;
        }
        if self.take_space() {
            self.add(b" ");
        }
        self.add(word);
    }

    /// Whether a space goes before the next word (one is due, and the line has begun); no
    /// longer due once asked.
    fn take_space(&mut self) -> bool {
        let due = self.space_due();
        self.space = false;
        due
    }

    /// Whether a space goes before the next word: one is due, and the line has begun.
    fn space_due(&self) -> bool {
        self.space && self.text.last().is_some_and(|&b| b != b'\n')
    }

    fn add(&mut self, s: &[u8]) {
        let room = self.max.saturating_sub(self.text.len());
        if s.len() <= room {
            self.text.extend_from_slice(s);
            return;
        }
        // Cut before the first byte that starts no character (a continuation byte).
        let mut cut = room;
        while cut > 0 && s.get(cut).is_some_and(|&b| b & 0xC0 == 0x80) {
            cut -= 1;
        }
        self.text.extend_from_slice(&s[..cut]);
        self.full = true;
    }
}

#[cfg(test)]
#[path = "text_tests.rs"]
mod tests;
