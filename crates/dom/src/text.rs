//! The visible text of a page's main content, read from the arena after the parse.
//!
//! The main content is the first `<main>` or `[role=main]` element in document order when
//! there is one, else every `<article>` not inside another, else `<body>` without its `nav`,
//! `header`, `footer` and `aside`. Script, style, template, noscript and other non-rendered
//! text is left out. Each block element (p, div, li, h1–h6, td, pre, …) starts and ends a
//! line; whitespace inside a line is collapsed to single spaces; empty lines are dropped.

use crate::tree::{DOCUMENT, Kind, NONE, NodeId, TreeArena};
use crate::words::SPACE;

/// Elements whose text is never shown (or is only a fallback). (A `match` on the name: a
/// length switch then one comparison, where a list would compare the name with every entry.)
pub(crate) fn is_hidden(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "template"
            | "noscript"
            | "head"
            | "title"
            | "iframe"
            | "noembed"
            | "noframes"
            | "object"
            | "select"
            | "textarea"
    )
}

/// Elements left out of `<body>` when it is the main content: the page's chrome.
pub(crate) fn is_chrome(name: &str) -> bool {
    matches!(name, "nav" | "header" | "footer" | "aside")
}

/// Elements that start and end a line.
pub(crate) fn is_block(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "body"
            | "br"
            | "caption"
            | "dd"
            | "details"
            | "dialog"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "hr"
            | "li"
            | "main"
            | "menu"
            | "nav"
            | "ol"
            | "p"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "tfoot"
            | "th"
            | "thead"
            | "tr"
            | "ul"
    )
}

/// The main-content text, at most `max_bytes` long (cut at a character boundary); the flag
/// says whether it was cut.
pub(crate) fn main_text(arena: &TreeArena, max_bytes: usize) -> (String, bool) {
    let mut out = Lines::new(max_bytes);
    // At most every word and a separator after each: one allocation.
    out.text
        .reserve(max_bytes.min(arena.words.len_bytes() + arena.words.len()));
    let (roots, skip_chrome) = main_roots(arena);
    let all = arena.words.text();
    for root in roots {
        out.block();
        emit(arena, root, skip_chrome, all, &mut out);
        out.block();
        if out.full {
            break;
        }
    }
    let full = out.full;
    let mut text = out.text;
    if text.ends_with('\n') {
        text.pop();
    }
    (text, full)
}

/// The elements whose text is the main content, and whether chrome is to be left out.
fn main_roots(arena: &TreeArena) -> (Vec<NodeId>, bool) {
    let mut main = None;
    let mut articles = Vec::new();
    let mut body = None;
    // Pre-order over elements, each with whether it lies inside an article (template
    // contents are not walked: they are not rendered).
    let mut stack: Vec<(NodeId, bool)> = Vec::new();
    push_children(arena, DOCUMENT, |c| stack.push((c, false)));
    while let Some((id, in_article)) = stack.pop() {
        let Some(node) = arena.node(id) else { continue };
        if node.kind != Kind::Element {
            continue;
        }
        let name = &*node.name;
        if arena.is_main(id, name) {
            main = Some(id);
            break;
        }
        if name == "body" && body.is_none() {
            body = Some(id);
        }
        let article = name == "article";
        if article && !in_article {
            articles.push(id);
        }
        let inside = in_article || article;
        push_children(arena, id, |c| stack.push((c, inside)));
    }
    match (main, articles.is_empty(), body) {
        (Some(main), _, _) => (vec![main], false),
        (None, false, _) => (articles, false),
        (None, true, Some(body)) => (vec![body], true),
        (None, true, None) => (Vec::new(), false),
    }
}

/// Calls `push` with the children of `id`, last first (so that they pop off a stack in
/// document order), without collecting them.
fn push_children(arena: &TreeArena, id: NodeId, mut push: impl FnMut(NodeId)) {
    let mut child = arena.node(id).map_or(NONE, |n| n.last);
    while child != NONE {
        push(child);
        child = arena.node(child).map_or(NONE, |n| n.prev);
    }
}

/// Writes the text under `root` to `out`, iteratively.
/// `all` is the word store's text ([`WordStore::text`](crate::words::WordStore::text)), checked
/// as UTF-8 once rather than word by word.
fn emit(arena: &TreeArena, root: NodeId, skip_chrome: bool, all: Option<&str>, out: &mut Lines) {
    // (node, leaving): a block element is visited twice, to end its line.
    let mut stack = vec![(root, false)];

    while let Some((id, leaving)) = stack.pop() {
        if out.full {
            return;
        }
        if leaving {
            out.block();
            continue;
        }
        let Some(node) = arena.node(id) else { continue };
        match node.kind {
            Kind::Text => {
                for &item in arena.text_items(id) {
                    if item == SPACE {
                        out.space = true;
                    } else if let Some(text) = all {
                        if let Some(word) = arena.words.get_in(text, item as usize) {
                            out.push(word);
                        }
                    } else if let Some(word) = arena.words.get(item as usize) {
                        out.push(&word);
                    }
                }
            }
            Kind::Element => {
                let name = &*node.name;
                if is_hidden(name) || (skip_chrome && is_chrome(name)) {
                    continue;
                }
                if is_block(name) {
                    out.block();
                    stack.push((id, true));
                }
                push_children(arena, id, |c| stack.push((c, false)));
            }
            Kind::Document | Kind::Ignored | Kind::TemplateContents => {}
        }
    }
}

/// Output lines: whitespace collapsed, empty lines dropped, bounded.
struct Lines {
    text: String,
    max: usize,
    /// A space is due before the next word.
    space: bool,
    /// Set once the bound is reached.
    full: bool,
}

impl Lines {
    fn new(max: usize) -> Self {
        Self {
            text: String::new(),
            max,
            space: false,
            full: false,
        }
    }

    /// Ends the current line, if it has anything.
    fn block(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        self.space = false;
    }

    fn push(&mut self, text: &str) {
        if text.is_ascii() {
            // Words one space apart, none at either end (a run of the store, `words.rs`):
            // written as they are. Only other characters bring white space of their own
            // (U+00A0, U+3000…).
            return self.word(text);
        }
        for (i, word) in text.split(char::is_whitespace).enumerate() {
            if i > 0 {
                self.space = true;
            }
            if word.is_empty() {
                continue;
            }
            self.word(word);
            if self.full {
                return;
            }
        }
    }

    /// Adds one word, or ASCII words one space apart, after a space when one is due.
    fn word(&mut self, word: &str) {
        if word.is_empty() {
            return;
        }
        let at_line_start = self.text.is_empty() || self.text.ends_with('\n');
        if self.space && !at_line_start {
            self.add(" ");
        }
        self.space = false;
        self.add(word);
    }

    fn add(&mut self, s: &str) {
        let room = self.max.saturating_sub(self.text.len());
        if s.len() <= room {
            self.text.push_str(s);
            return;
        }
        let mut cut = room;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        self.text.push_str(&s[..cut]);
        self.full = true;
    }
}

#[cfg(test)]
#[path = "text_tests.rs"]
mod tests;
