//! The tokenizer half of the parse: html5gum's WHATWG tokenizer feeding html5ever's tree
//! builder, carrying only what the tree builder and the link collector can observe.
//!
//! html5ever's own tokenizer builds every character of every text run, attribute name and
//! attribute value into tendrils one character at a time; that was two thirds of a parse.
//! html5gum hands slices of the input to an [`Emitter`], so this bridge can pass the tree
//! builder a token stream that builds the *same tree* at a fraction of the cost:
//!
//! - text: ASCII whitespace is kept as it is (the tree builder treats whitespace and other
//!   characters differently: `<table>` foster parenting, `frameset-ok`, the newline after
//!   `<pre>`), each run of other characters becomes one `x`, NUL in the data state stays a
//!   NUL token. The tree builder never looks at text beyond that.
//! - attributes: only those the tree builder or the link collector read ([`KEPT`]), and all
//!   of them on formatting elements (the "Noah's ark" clause compares their attributes);
//!   first occurrence wins, as in the tokenizer spec; the rest are never allocated.
//! - comments: the token without its text (it still ends "in table text" and so on).
//! - doctypes, tag names, self-closing flags: in full (quirks mode depends on the doctype).
//!
//! The tree builder drives the tokenizer's state (RCDATA, RAWTEXT, script data, PLAINTEXT)
//! through the result of each start tag, as html5ever's own driver does. The guard of
//! ALGORITHM.md §4 is checked after every tag and text run.

use std::borrow::Cow;
use std::cell::RefCell;
use std::time::{Duration, Instant};

use cpu_time::ThreadTime;
use fnv::FnvHashSet;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{Attribute, LocalName, QualName, local_name, ns};
use html5gum::{Emitter, Error, State, Tokenizer};

use crate::config::Limits;
use crate::hasher::Truncation;
use crate::paths::HeaderText;
use crate::sink::ArenaSink;
use crate::tree::{MAX_OWN_WORDS, NodeId, TextSummary, TreeArena};
use crate::words::{HIDDEN, word_char};

/// Attributes that can change the tree or the links: `type` (`<input type=hidden>` in
/// tables), `color`/`face`/`size` (`<font>` breaking out of foreign content), `encoding`
/// (MathML `annotation-xml` integration points), `shadowrootmode` (declarative shadow
/// roots), `form` (form association), `href`/`src`/`rel` (links and `<base>`).
const KEPT: [&[u8]; 10] = [
    b"type",
    b"color",
    b"face",
    b"size",
    b"encoding",
    b"shadowrootmode",
    b"form",
    b"href",
    b"src",
    b"rel",
];

/// Formatting elements: the tree builder compares all their attributes (the "Noah's ark"
/// clause keeps at most three equal ones in the list of active formatting elements).
const FORMATTING: [&[u8]; 14] = [
    b"a", b"b", b"big", b"code", b"em", b"font", b"i", b"nobr", b"s", b"small", b"strike",
    b"strong", b"tt", b"u",
];

/// Up to this many kept attributes, a repeated name is found by a scan; past it, by a set.
const SCAN_ATTRS: usize = 32;

/// Tags and text runs between two readings of the clock.
const CLOCK_EVERY: u32 = 64;

/// The budgets of one parse: deterministic work, and time as a last-resort safety net.
#[derive(Debug)]
pub(crate) struct Budget {
    /// Units of work (tokens + tree changes) allowed.
    pub(crate) work: u64,
    /// The time safety net, if any.
    pub(crate) time: Option<Clock>,
}

/// The CPU-time safety net of one parse, started before decoding.
///
/// CPU time of the parsing thread, not wall time: a loaded machine must not change
/// fingerprints. Reading a thread's CPU clock is a system call (about 1 µs in a VM, 6% of a
/// crawl's CPU when read every 64 tokens), while the wall clock is read in user space. A
/// thread cannot use more CPU time than wall time passes, so the CPU clock is read only once
/// the wall clock is past the budget: an ordinary page never reads it but once, at the start.
#[derive(Debug)]
pub(crate) struct Clock {
    limit: Duration,
    cpu: ThreadTime,
    wall: Instant,
}

impl Clock {
    pub(crate) fn start(limit: Duration) -> Self {
        Self {
            limit,
            cpu: ThreadTime::now(),
            wall: Instant::now(),
        }
    }

    fn exceeded(&self) -> bool {
        self.wall.elapsed() > self.limit && self.cpu.elapsed() > self.limit
    }
}

/// Tokenizes `text` into a tree builder over `sink`; returns why it stopped early, if it did.
pub(crate) fn parse(
    sink: ArenaSink<'_>,
    text: &str,
    limits: &Limits,
    budget: Budget,
) -> Option<Truncation> {
    let arena = sink.arena;
    let classes = arena.borrow().labelled();
    let collect = sink.text;
    let builder = TreeBuilder::new(sink, TreeBuilderOpts::default());
    // The tokenizer's `discard_bom`: a byte-order mark left after decoding is not content.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bridge = Bridge {
        builder: &builder,
        guard: Guard {
            arena,
            limits,
            budget,
            tokens: 0,
            since_clock: 0,
        },
        stopped: None,
        tag: TagState {
            classes,
            role: collect || classes,
            ..TagState::default()
        },
        last_start: Vec::new(),
        text: String::new(),
        in_word: false,
        run_end: None,
        collect,
        hidden_raw: false,
        doctype: DoctypeState::default(),
        header: None,
        summary: TextSummary::default(),
        summary_in_word: false,
    };
    let mut tokenizer = Tokenizer::new_with_emitter(text, bridge);
    // The bridge yields a token only to stop: the guard fired.
    match tokenizer.next() {
        Some(Ok(stop)) => Some(stop),
        Some(Err(never)) => match never {},
        None => None,
    }
}

/// The tag being tokenized.
#[derive(Default)]
struct TagState {
    end: bool,
    name: Vec<u8>,
    self_closing: bool,
    attrs: Vec<Attribute>,
    /// The attribute being read: its name, and its value if it is one of [`KEPT`].
    attr_name: Vec<u8>,
    attr_value: String,
    in_attr: bool,
    /// Whether this tag keeps every attribute (a formatting element's start tag).
    all_attrs: bool,
    /// Whether this is a `<meta>` start tag: its `http-equiv` and `content` are kept (a
    /// refresh is a link).
    meta: bool,
    /// The names in `attrs`, once there are too many to scan (hostile pages write 200k).
    names: FnvHashSet<LocalName>,
    /// Whether the arena labels elements with their class tokens: the first `class` value of
    /// a start tag is then read into [`class`](Self::class) (see [`Bridge::emit_current_tag`]).
    classes: bool,
    /// The first `class` value of this start tag (not of a formatting element's, which keeps
    /// every attribute), read from the input without allocating per tag.
    class: String,
    /// Whether `class` holds a complete value (the first `class` attribute has ended).
    has_class: bool,
    /// Whether `role` is kept too (text collection and the `class-paths` walk look for
    /// `role=main`): only a first `role` whose first token is `main`, unless every
    /// attribute is kept.
    role: bool,
    /// Whether this tag's first `role` attribute has been read (a repeated one is dropped).
    role_seen: bool,
}

impl TagState {
    /// Whether the current attribute is one the tree builder may look at.
    fn keeps_attr(&self) -> bool {
        !self.end
            && (self.all_attrs
                || KEPT.contains(&self.attr_name.as_slice())
                || (self.role && self.attr_name == b"role")
                || (self.classes
                    && self.attr_name == b"name"
                    && crate::paths::is_field(&self.name))
                || (self.meta && (self.attr_name == b"http-equiv" || self.attr_name == b"content")))
    }

    /// Whether the current attribute is the first `class` of a start tag whose element gets
    /// its class tokens through the arena rather than as an attribute: every start tag but a
    /// formatting element's (whose attributes are all kept, since the tree builder clones
    /// them with the element).
    fn reads_class(&self) -> bool {
        self.classes
            && !self.end
            && !self.all_attrs
            && !self.has_class
            && self.attr_name == b"class"
    }
}

#[derive(Default)]
struct DoctypeState {
    name: Vec<u8>,
    public_id: Option<Vec<u8>>,
    system_id: Option<Vec<u8>>,
    force_quirks: bool,
}

/// The guard of ALGORITHM.md §4, read between tokens.
struct Guard<'a> {
    arena: &'a RefCell<TreeArena>,
    limits: &'a Limits,
    budget: Budget,
    /// Tokens handed to the tree builder so far.
    tokens: u64,
    since_clock: u32,
}

impl Guard<'_> {
    fn check(&mut self) -> Option<Truncation> {
        {
            let a = self.arena.borrow();
            if a.max_depth_seen > self.limits.max_depth {
                return Some(Truncation::Depth {
                    limit: self.limits.max_depth,
                });
            }
            if a.created > self.limits.max_nodes {
                return Some(Truncation::Nodes {
                    limit: self.limits.max_nodes,
                });
            }
            self.tokens += 1;
            if self.tokens.saturating_add(a.work) > self.budget.work {
                return Some(Truncation::Work {
                    limit: self.budget.work,
                });
            }
        }
        let budget = self.budget.time.as_ref()?;
        self.since_clock += 1;
        if self.since_clock < CLOCK_EVERY {
            return None;
        }
        self.since_clock = 0;
        budget.exceeded().then_some(Truncation::Time {
            budget: budget.limit,
        })
    }
}

struct Bridge<'a, 'b> {
    builder: &'b TreeBuilder<NodeId, ArenaSink<'a>>,
    guard: Guard<'a>,
    /// Set once the guard fires: nothing more reaches the tree builder.
    stopped: Option<Truncation>,
    tag: TagState,
    /// The name of the last start tag emitted, for "appropriate end tag" in RCDATA and co.
    last_start: Vec<u8>,
    /// Pending text, already reduced (see the module docs).
    text: String,
    /// Whether `text` ends inside a run of non-whitespace characters.
    in_word: bool,
    /// When collecting and a run of words is open ([`push_words`](Self::push_words)): the
    /// length of `text` right after its stand-in. White space after it goes to `text` too, and
    /// is cut back to this length when another word of the run follows.
    run_end: Option<usize>,
    /// Whether the text is collected: its words then go to the arena's word store, and the
    /// reduced text has a stand-in per run of words instead of `x` per word (`words.rs`),
    /// which builds the same tree.
    collect: bool,
    /// The tokenizer is in the raw-text state of an element whose text is never shown
    /// (script, style, title…): its words are not collected.
    hidden_raw: bool,
    doctype: DoctypeState,
    /// When labelling: the text of the header cell (`<th>`) being read, from its start tag
    /// to the tag that ends the cell ([`ends_header_cell`]).
    header: Option<HeaderText>,
    /// What the text being read says so far ([`TextSummary`]), handed to the arena with it.
    summary: TextSummary,
    /// Whether the text being read ends inside a word (for [`summary`](Self::summary)'s count).
    summary_in_word: bool,
}

/// Whether a tag ends a header cell's text: the cell's end tag, another cell or row, or the
/// end of its row group or table (the tree builder closes the cell there too).
fn ends_header_cell(name: &[u8], end: bool) -> bool {
    match name {
        b"th" | b"tr" | b"thead" | b"tbody" | b"tfoot" | b"table" => true,
        b"td" => !end,
        _ => false,
    }
}

/// `bytes` as text, invalid sequences replaced. (`from_utf8` first: its check of valid text,
/// the common case, is faster than the lossy decoder's.)
fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

fn tendril(bytes: &[u8]) -> StrTendril {
    StrTendril::from_slice(&lossy(bytes))
}

/// The tag and attribute names pages use most, as the static atoms they are: no look-up in
/// the atom table's hash (the same atoms `LocalName::from` finds).
fn common_name(bytes: &[u8]) -> Option<LocalName> {
    Some(match bytes {
        b"span" => local_name!("span"),
        b"a" => local_name!("a"),
        b"li" => local_name!("li"),
        b"div" => local_name!("div"),
        b"code" => local_name!("code"),
        b"td" => local_name!("td"),
        b"p" => local_name!("p"),
        b"tr" => local_name!("tr"),
        b"ul" => local_name!("ul"),
        b"em" => local_name!("em"),
        b"script" => local_name!("script"),
        b"dd" => local_name!("dd"),
        b"dt" => local_name!("dt"),
        b"dl" => local_name!("dl"),
        b"table" => local_name!("table"),
        b"h3" => local_name!("h3"),
        b"br" => local_name!("br"),
        b"pre" => local_name!("pre"),
        b"link" => local_name!("link"),
        b"section" => local_name!("section"),
        b"input" => local_name!("input"),
        b"strong" => local_name!("strong"),
        b"h4" => local_name!("h4"),
        b"style" => local_name!("style"),
        b"h2" => local_name!("h2"),
        b"meta" => local_name!("meta"),
        b"form" => local_name!("form"),
        b"tt" => local_name!("tt"),
        b"nav" => local_name!("nav"),
        b"h1" => local_name!("h1"),
        b"img" => local_name!("img"),
        b"th" => local_name!("th"),
        b"tbody" => local_name!("tbody"),
        b"thead" => local_name!("thead"),
        b"ol" => local_name!("ol"),
        b"b" => local_name!("b"),
        b"i" => local_name!("i"),
        b"body" => local_name!("body"),
        b"head" => local_name!("head"),
        b"html" => local_name!("html"),
        b"title" => local_name!("title"),
        b"footer" => local_name!("footer"),
        b"header" => local_name!("header"),
        b"main" => local_name!("main"),
        b"article" => local_name!("article"),
        b"aside" => local_name!("aside"),
        b"button" => local_name!("button"),
        b"label" => local_name!("label"),
        b"option" => local_name!("option"),
        b"select" => local_name!("select"),
        b"small" => local_name!("small"),
        b"sup" => local_name!("sup"),
        b"sub" => local_name!("sub"),
        b"blockquote" => local_name!("blockquote"),
        b"hr" => local_name!("hr"),
        b"iframe" => local_name!("iframe"),
        b"noscript" => local_name!("noscript"),
        b"svg" => local_name!("svg"),
        b"path" => local_name!("path"),
        b"g" => local_name!("g"),
        b"h5" => local_name!("h5"),
        b"h6" => local_name!("h6"),
        b"figure" => local_name!("figure"),
        b"tfoot" => local_name!("tfoot"),
        b"caption" => local_name!("caption"),
        b"col" => local_name!("col"),
        b"colgroup" => local_name!("colgroup"),
        b"abbr" => local_name!("abbr"),
        b"kbd" => local_name!("kbd"),
        b"var" => local_name!("var"),
        b"cite" => local_name!("cite"),
        b"href" => local_name!("href"),
        b"id" => local_name!("id"),
        b"type" => local_name!("type"),
        b"rel" => local_name!("rel"),
        b"src" => local_name!("src"),
        b"name" => local_name!("name"),
        b"role" => local_name!("role"),
        b"colspan" => local_name!("colspan"),
        b"content" => local_name!("content"),
        b"value" => local_name!("value"),
        b"alt" => local_name!("alt"),
        b"width" => local_name!("width"),
        b"height" => local_name!("height"),
        b"charset" => local_name!("charset"),
        b"lang" => local_name!("lang"),
        b"dir" => local_name!("dir"),
        b"rowspan" => local_name!("rowspan"),
        _ => return None,
    })
}

fn local_name(bytes: &[u8]) -> LocalName {
    if let Some(name) = common_name(bytes) {
        return name;
    }
    LocalName::from(&*lossy(bytes))
}

impl Bridge<'_, '_> {
    /// Hands a token to the tree builder; returns what it asks of the tokenizer.
    fn send(&mut self, token: Token) -> TokenSinkResult<NodeId> {
        if self.stopped.is_some() {
            return TokenSinkResult::Continue;
        }
        let result = self.builder.process_token(token, 1);
        self.stopped = self.guard.check();
        result
    }

    /// Hands over a token other than a tag: only tags change the tokenizer's state, so the
    /// result is always `Continue`.
    fn feed(&mut self, token: Token) {
        let _continue = self.send(token);
    }

    fn flush_text(&mut self) {
        // White space after a run's last word stays in `text`: the tree builder's to see.
        self.run_end = None;
        let summary = std::mem::take(&mut self.summary);
        self.summary_in_word = false;
        if self.text.is_empty() {
            return;
        }
        let text = StrTendril::from_slice(&self.text);
        self.text.clear();
        self.in_word = false;
        self.guard.arena.borrow_mut().text_summary = summary;
        self.feed(Token::CharacterTokens(text));
        self.guard.arena.borrow_mut().text_summary = TextSummary::default();
    }

    /// Adds `s`, a piece of the text being read, to [`summary`](Self::summary): its words
    /// (up to [`MAX_OWN_WORDS`]: runs of bytes other than white space, and each CJK
    /// character) and whether its last visible character ends a sentence.
    fn scan_summary(&mut self, s: &[u8]) {
        let is_space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r');
        let summary = &mut self.summary;
        if summary.words < MAX_OWN_WORDS {
            for &b in s {
                if is_space(b) {
                    self.summary_in_word = false;
                } else if (0xE3..=0xED).contains(&b) {
                    // The first byte of a CJK ideograph, kana or Hangul syllable
                    // (U+3000–U+D7FF): a word of its own, as a text without spaces has them.
                    self.summary_in_word = false;
                    summary.words += 1;
                    if summary.words == MAX_OWN_WORDS {
                        break;
                    }
                } else if !self.summary_in_word {
                    self.summary_in_word = true;
                    summary.words += 1;
                    if summary.words == MAX_OWN_WORDS {
                        break;
                    }
                }
            }
        }
        // Closing quotes and brackets after a sentence's end: `.)`, `."`, `.”`, `.’`.
        let mut end = s.len();
        loop {
            while end > 0 && (is_space(s[end - 1]) || b")]\"'".contains(&s[end - 1])) {
                end -= 1;
            }
            if end >= 3 && matches!(s[end - 3..end], [0xE2, 0x80, 0x9D | 0x99]) {
                end -= 3;
                continue;
            }
            break;
        }
        if end > 0 {
            let s = &s[..end];
            summary.sentence = matches!(s[end - 1], b'.' | b'!' | b'?')
                || (end >= 3
                    && matches!(s[end - 3..], [0xE3, 0x80, 0x82] | [0xEF, 0xBC, 0x81 | 0x9F]));
        }
    }

    /// The reduced text of `s` (no NUL), each visible run of words added to the arena's word
    /// store (`words.rs`).
    ///
    /// One stand-in stands for a whole run of words: the words of one text between two tags,
    /// stored with the white space between them as it came, their white space before the
    /// first and after the last passed on to the tree builder. The tree builder only looks at
    /// white space before or after non-white-space characters (to insert it, drop it or split
    /// a token there), never inside a run of them, so it builds the same tree as with a
    /// stand-in per word; the arena then decodes, and the main-content text copies (white
    /// space collapsed), one item per run instead of one per word. So only the white space at
    /// either end of `s` is read byte by byte here: the words between are stored in one
    /// copy. (Inside a `frameset`, which drops every character but white space, the white
    /// space between the words of a run is dropped with them: no text is shown there.)
    fn push_words(&mut self, s: &[u8]) {
        let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r');
        let Some(first) = s.iter().position(|b| !is_space(b)) else {
            // White space only: the tree builder's to see (cut back if a word of the run
            // follows).
            for &b in s {
                self.text.push(b as char);
            }
            self.in_word &= s.is_empty();
            return;
        };
        let last = s.iter().rposition(|b| !is_space(b)).unwrap_or(first);
        let (lead, words, trail) = (&s[..first], &s[first..=last], &s[last + 1..]);
        let cell = self.guard.arena;
        let mut arena = (!self.hidden_raw).then(|| cell.borrow_mut());
        if arena.as_ref().is_some_and(|a| a.text_done()) {
            // No more text can be written (`TextWriter::done`): from here on, the page is
            // read as without text.
            arena = None;
            self.collect = false;
        }
        // (The tokenizer may cut a character in two: `&amp;é` comes as `&`, then each byte of
        // `é`. Words are bytes until they are read.)
        if self.in_word && lead.is_empty() {
            // The word goes on.
        } else if let Some(end) = self.run_end {
            // Another word of the open run: the white space before it is the run's, one space
            // in the store.
            self.text.truncate(end);
            if let Some(a) = &mut arena {
                a.words.extend(b" ");
            }
        } else {
            for &b in lead {
                self.text.push(b as char);
            }
            self.text.push(match &mut arena {
                Some(a) => word_char(a.words.start()),
                None => HIDDEN,
            });
            self.run_end = Some(self.text.len());
        }
        if let Some(a) = &mut arena {
            a.words.extend(words);
        }
        for &b in trail {
            self.text.push(b as char);
        }
        self.in_word = trail.is_empty();
    }

    /// Hands the text of the header cell being read to the arena, for the cell's element.
    fn end_header(&mut self) {
        if let Some(header) = self.header.take() {
            self.guard
                .arena
                .borrow_mut()
                .set_header_text(header.finish());
        }
    }

    fn finish_attribute(&mut self) {
        let tag = &mut self.tag;
        if !std::mem::take(&mut tag.in_attr) {
            return;
        }
        if tag.reads_class() {
            tag.has_class = true;
            return;
        }
        let value = std::mem::take(&mut tag.attr_value);
        if !tag.keeps_attr() {
            return;
        }
        // Only `role=main` is looked at: no attribute for any other role (the first `role`
        // wins, as in the tokenizer; a formatting element keeps every attribute anyway).
        if !tag.all_attrs
            && tag.attr_name == b"role"
            && (std::mem::replace(&mut tag.role_seen, true) || !crate::tree::is_main_role(&value))
        {
            return;
        }
        let name = local_name(&tag.attr_name);
        // The tokenizer drops a repeated attribute: the first one wins.
        if tag.attrs.len() < SCAN_ATTRS {
            if tag.attrs.iter().any(|a| a.name.local == name) {
                return;
            }
        } else {
            if tag.names.is_empty() {
                tag.names
                    .extend(tag.attrs.iter().map(|a| a.name.local.clone()));
            }
            if !tag.names.insert(name.clone()) {
                return;
            }
        }
        tag.attrs.push(Attribute {
            name: QualName::new(None, ns!(), name),
            value: StrTendril::from(value),
        });
    }
}

impl Emitter for Bridge<'_, '_> {
    type Token = Truncation;

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.last_start.clear();
        self.last_start
            .extend_from_slice(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {
        self.flush_text();
        self.end_header();
        if self.stopped.is_none() {
            let _continue = self.builder.process_token(Token::EOFToken, 1);
            self.builder.end();
        }
    }

    fn emit_error(&mut self, _error: Error) {}

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn pop_token(&mut self) -> Option<Truncation> {
        self.stopped
    }

    fn emit_string(&mut self, s: &[u8]) {
        self.scan_summary(s);
        if let Some(header) = &mut self.header {
            header.push(s);
        }
        if self.collect {
            let mut rest = s;
            // Only the data state emits NUL: a token of its own (see below).
            while let Some(nul) = rest.iter().position(|&b| b == 0) {
                self.push_words(&rest[..nul]);
                self.flush_text();
                self.feed(Token::NullCharacterToken);
                rest = &rest[nul + 1..];
            }
            self.push_words(rest);
            return;
        }
        for &b in s {
            match b {
                b' ' | b'\t' | b'\n' | b'\x0c' | b'\r' => {
                    self.text.push(b as char);
                    self.in_word = false;
                }
                0 => {
                    // Only the data state emits NUL (the others emit U+FFFD): a token of its
                    // own, as html5ever's tokenizer makes it.
                    self.flush_text();
                    self.feed(Token::NullCharacterToken);
                }
                _ => {
                    if !self.in_word {
                        self.text.push('x');
                        self.in_word = true;
                    }
                }
            }
        }
    }

    fn init_start_tag(&mut self) {
        self.tag.end = false;
        self.tag.name.clear();
        self.tag.self_closing = false;
        self.tag.attrs.clear();
        self.tag.names.clear();
        self.tag.in_attr = false;
        self.tag.all_attrs = false;
        self.tag.meta = false;
        self.tag.class.clear();
        self.tag.has_class = false;
        self.tag.role_seen = false;
    }

    fn init_end_tag(&mut self) {
        self.init_start_tag();
        self.tag.end = true;
    }

    fn init_comment(&mut self) {}

    fn emit_current_tag(&mut self) -> Option<State> {
        self.finish_attribute();
        self.flush_text();
        let name = local_name(&self.tag.name);
        let end = self.tag.end;
        if !end {
            self.last_start.clear();
            self.last_start.extend_from_slice(&self.tag.name);
        }
        let token = Token::TagToken(Tag {
            kind: if end {
                TagKind::EndTag
            } else {
                TagKind::StartTag
            },
            name,
            self_closing: self.tag.self_closing,
            attrs: std::mem::take(&mut self.tag.attrs),
            had_duplicate_attributes: false,
        });
        // The element the tree builder creates for this tag takes its class tokens from the
        // arena (`TreeArena::create_element`); they are dropped once the tag is processed.
        if self.header.is_some() && ends_header_cell(&self.tag.name, end) {
            self.end_header();
        }
        let class = self.tag.has_class && self.stopped.is_none();
        if class {
            self.guard
                .arena
                .borrow_mut()
                .pending_class
                .set(&self.tag.name, &self.tag.class);
        }
        let result = self.send(token);
        if class {
            self.guard.arena.borrow_mut().pending_class.clear();
        }
        if self.tag.classes && !end && self.tag.name == b"th" && self.stopped.is_none() {
            self.header = Some(HeaderText::default());
        }
        // The raw text that follows a script, style, title… start tag is never shown. (The
        // name is looked up only then: a few tags a page, where every start tag cost a look-up.)
        self.hidden_raw = matches!(result, TokenSinkResult::RawData(_))
            && self.collect
            && !end
            && crate::text::class(&local_name(&self.tag.name)) & crate::text::IS_HIDDEN != 0;
        match result {
            TokenSinkResult::Plaintext => Some(State::PlainText),
            TokenSinkResult::RawData(RawKind::Rcdata) => Some(State::RcData),
            TokenSinkResult::RawData(RawKind::Rawtext) => Some(State::RawText),
            TokenSinkResult::RawData(RawKind::ScriptData | RawKind::ScriptDataEscaped(_)) => {
                Some(State::ScriptData)
            }
            TokenSinkResult::Continue
            | TokenSinkResult::Script(_)
            | TokenSinkResult::EncodingIndicator(_) => None,
        }
    }

    fn emit_current_comment(&mut self) {
        self.flush_text();
        self.feed(Token::CommentToken(StrTendril::new()));
    }

    fn emit_current_doctype(&mut self) {
        self.flush_text();
        let d = std::mem::take(&mut self.doctype);
        let token = Token::DoctypeToken(Doctype {
            name: Some(d.name).filter(|n| !n.is_empty()).map(|n| tendril(&n)),
            public_id: d.public_id.map(|p| tendril(&p)),
            system_id: d.system_id.map(|s| tendril(&s)),
            force_quirks: d.force_quirks,
        });
        self.feed(token);
    }

    fn set_self_closing(&mut self) {
        self.tag.self_closing = true;
    }

    fn set_force_quirks(&mut self) {
        self.doctype.force_quirks = true;
    }

    #[inline(always)]
    fn push_tag_name(&mut self, s: &[u8]) {
        push_name(&mut self.tag.name, s);
    }

    fn push_comment(&mut self, _s: &[u8]) {}

    fn push_doctype_name(&mut self, s: &[u8]) {
        self.doctype.name.extend_from_slice(s);
    }

    fn init_doctype(&mut self) {
        self.doctype = DoctypeState::default();
    }

    fn init_attribute(&mut self) {
        self.finish_attribute();
        // The tag's name is complete once attributes start.
        self.tag.all_attrs = FORMATTING.contains(&self.tag.name.as_slice());
        self.tag.meta = self.tag.name == b"meta";
        self.tag.in_attr = true;
        self.tag.attr_name.clear();
        self.tag.attr_value.clear();
    }

    #[inline(always)]
    fn push_attribute_name(&mut self, s: &[u8]) {
        push_name(&mut self.tag.attr_name, s);
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        if self.tag.reads_class() {
            self.tag.class.push_str(&lossy(s));
        } else if self.tag.keeps_attr() {
            self.tag.attr_value.push_str(&lossy(s));
        }
    }

    fn set_doctype_public_identifier(&mut self, value: &[u8]) {
        self.doctype.public_id = Some(value.to_vec());
    }

    fn set_doctype_system_identifier(&mut self, value: &[u8]) {
        self.doctype.system_id = Some(value.to_vec());
    }

    fn push_doctype_public_identifier(&mut self, s: &[u8]) {
        if let Some(p) = &mut self.doctype.public_id {
            p.extend_from_slice(s);
        }
    }

    fn push_doctype_system_identifier(&mut self, s: &[u8]) {
        if let Some(p) = &mut self.doctype.system_id {
            p.extend_from_slice(s);
        }
    }

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        self.tag.end && !self.last_start.is_empty() && self.tag.name == self.last_start
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&mut self) -> bool {
        // The text before `<![CDATA[` first: it may reopen a formatting element in the HTML
        // namespace (`<math><mi><select><b></select>a<![CDATA[`: the `a` reopens the `<b>`),
        // and html5ever's own tokenizer has handed it over by then.
        self.flush_text();
        self.stopped.is_none()
            && self
                .builder
                .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// Appends part of a tag or attribute name: a byte at a time when html5gum hands over one
/// (most of its calls), else the slice.
#[inline(always)]
fn push_name(name: &mut Vec<u8>, s: &[u8]) {
    if let [b] = s {
        name.push(*b);
    } else {
        name.extend_from_slice(s);
    }
}

/// Parses `html` through the bridge into `arena`, collecting its text, with the default limits
/// and no time budget (for the tests of the text's pieces).
#[cfg(test)]
pub(crate) fn parse_text(mut arena: TreeArena, html: &str) -> TreeArena {
    if arena.text.is_none() {
        arena.collect_text(html.len(), 1 << 20);
    }
    let arena = RefCell::new(arena);
    let limits = Limits {
        time_budget: None,
        ..Limits::default()
    };
    let budget = Budget {
        work: limits.work_budget.for_len(html.len()),
        time: None,
    };
    let sink = ArenaSink {
        arena: &arena,
        links: None,
        text: true,
    };
    let stop = parse(sink, html, &limits, budget);
    assert_eq!(stop, None, "no guard fires on test inputs");
    arena.into_inner()
}

#[cfg(test)]
#[path = "tokens_tests.rs"]
mod tests;
