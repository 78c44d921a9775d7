//! The lean arena the parser builds: elements only, linked by `u32` handles.
//!
//! html5ever's tree builder drives [`TreeArena`] through the `TreeSink` in `sink.rs`. Comments,
//! doctypes, attributes and text are never stored: the structure fingerprint reads tag names
//! and tree shape only, and the main-content text, when the caller collects it, is written as
//! the tree is built (`text.rs`). A node costs 32 bytes.

use html5ever::{LocalName, Namespace, ns};

use crate::text::{Ctx, ENTERED, HIDDEN, ROLE_MAIN, TextWriter};
use crate::words::{WordDecoder, WordStore};

/// A node handle: an index into the arena.
pub(crate) type NodeId = u32;

/// "No node" in a link field.
pub(crate) const NONE: NodeId = u32::MAX;
/// The document node.
pub(crate) const DOCUMENT: NodeId = 0;
/// The label slot of an element whose label is made on demand ([`TreeArena::label`]).
const DEFERRED: u64 = u64::MAX;
/// The one node that stands for every comment and processing instruction: never linked.
pub(crate) const IGNORED: NodeId = 1;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Document,
    /// A comment or processing instruction: handed out, never linked into the tree.
    Ignored,
    Element,
    /// The contents of a `<template>`: always the node right after its element.
    TemplateContents,
}

/// The namespace of an element, in one byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ns {
    Html,
    Svg,
    MathMl,
}

impl Ns {
    pub(crate) fn from_namespace(ns: &Namespace) -> Self {
        if *ns == ns!(svg) {
            Self::Svg
        } else if *ns == ns!(mathml) {
            Self::MathMl
        } else {
            // The HTML tree builder creates elements in these three namespaces only.
            Self::Html
        }
    }

    pub(crate) fn namespace(self) -> &'static Namespace {
        static HTML: Namespace = ns!(html);
        static SVG: Namespace = ns!(svg);
        static MATHML: Namespace = ns!(mathml);
        match self {
            Self::Html => &HTML,
            Self::Svg => &SVG,
            Self::MathMl => &MATHML,
        }
    }
}

/// One node of the arena.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) name: LocalName,
    pub(crate) parent: NodeId,
    pub(crate) prev: NodeId,
    pub(crate) next: NodeId,
    /// The first and last child.
    pub(crate) first: NodeId,
    pub(crate) last: NodeId,
    pub(crate) kind: Kind,
    pub(crate) ns: Ns,
    /// A MathML `annotation-xml` that is an HTML integration point.
    pub(crate) integration_point: bool,
    /// What the element's text is to the main content, when text is collected (`text.rs`).
    pub(crate) ctx: Ctx,
    /// Whether text other than white space was appended to the element itself
    /// ([`TreeArena::note_text`]): a `<p>` with neither text nor a child is no paragraph
    /// (`flow::is_prose_paragraph`).
    pub(crate) text: bool,
    /// The words of the element's own text, counted up to [`MAX_OWN_WORDS`], and whether
    /// the last of its own text ends a sentence ([`TextSummary`]): what tells a `<div>` of
    /// prose (`flow::find_paragraphs`).
    pub(crate) words: u8,
    /// See [`words`](Self::words).
    pub(crate) sentence: bool,
}

/// The most words of an element's own text [`Node::words`] counts.
pub(crate) const MAX_OWN_WORDS: u8 = 8;

/// What the tokenizer bridge read of a text it hands the tree builder, from the text itself
/// (the tree builder only sees stand-ins): its words (runs of bytes other than ASCII white
/// space, and each CJK character, counted up to [`MAX_OWN_WORDS`]) and whether its last visible character ends a
/// sentence (`.`, `!`, `?`, `。`, `！`, `？`, closing quotes and brackets after it). The same
/// whether the page's text is collected or not.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TextSummary {
    pub(crate) words: u8,
    pub(crate) sentence: bool,
}

impl Node {
    fn new(kind: Kind, ns: Ns, name: LocalName) -> Self {
        Self {
            name,
            parent: NONE,
            prev: NONE,
            next: NONE,
            first: NONE,
            last: NONE,
            kind,
            ns,
            integration_point: false,
            ctx: 0,
            text: false,
            words: 0,
            sentence: false,
        }
    }
}

/// The tree: a flat vector of nodes, with the document at index 0.
/// Whether a `role` attribute's value makes its element the main content: its first token is
/// `main` (ASCII case-insensitive), as ARIA reads a role list.
pub(crate) fn is_main_role(value: &str) -> bool {
    value
        .split_ascii_whitespace()
        .next()
        .is_some_and(|r| r.eq_ignore_ascii_case("main"))
}

#[derive(Debug)]
pub(crate) struct TreeArena {
    pub(crate) nodes: Vec<Node>,
    /// Elements created so far (moved or not, in the tree or not).
    pub(crate) created: usize,
    /// Depth of the deepest element appended so far, measured at append time (a guard
    /// signal only: the final depths are measured by the walk).
    pub(crate) max_depth_seen: u32,
    depth: Vec<u32>,
    /// Each node's label (`paths.rs`: tag name and class tokens), when the model needs them;
    /// empty otherwise.
    pub(crate) labels: Vec<u64>,
    labelled: bool,
    /// Tree changes so far (elements created, appended, inserted, detached): the guard's
    /// deterministic measure of work, with the tokens.
    pub(crate) work: u64,
    /// The visible words of the page, when collecting text (`words.rs`).
    pub(crate) words: WordStore,
    decoder: WordDecoder,
    /// The main-content text, when the caller collects it.
    pub(crate) text: Option<TextWriter>,
    /// Each node's nearest block element, itself included, when text is collected (`text.rs`).
    blocks: Vec<NodeId>,
    /// The `class` of the start tag being processed, for the element created for it.
    pub(crate) pending_class: PendingClass,
    /// What the bridge read of the text the tree builder is appending now ([`TextSummary`];
    /// set around each text token it feeds).
    pub(crate) text_summary: TextSummary,
    /// The class tokens of `<html>` and `<body>` elements, when labelling: not in their
    /// labels, each a path of its own (`paths::root_class_tokens`).
    pub(crate) root_classes: Vec<(NodeId, Vec<u64>)>,
    /// The class tokens of `<html>` and `<body>` that a link could spell, and their
    /// prefixes (`paths::linkable_tokens`), when labelling: `items.rs` leaves those the
    /// page's links spell out of [`root_classes`](Self::root_classes).
    pub(crate) root_linkable: (Vec<u64>, Vec<u64>),
    /// The last `<th>` element created, when labelling: the header cell whose text the
    /// tokenizer is reading ([`set_header_text`](Self::set_header_text)).
    last_th: NodeId,
    /// The text of header cells, when labelling: `(th, hash)` in creation order
    /// (`paths::header_text`), read by the walk for a table's header row.
    pub(crate) header_texts: Vec<(NodeId, u64)>,
    /// The `class` of each classed HTML element other than a root, an inline element or a
    /// form field, when labelling: `(element, start, end)` into [`class_text`](Self::class_text), in creation
    /// order, for the labels a list's items share (`items.rs`).
    pub(crate) classes: Vec<(NodeId, u32, u32)>,
    /// The class values [`classes`](Self::classes) and [`deferred`](Self::deferred) point
    /// into.
    pub(crate) class_text: String,
    /// The `class` of each classed inline element (`paths::is_phrasing`), when labelling:
    /// `(element, start, end)` into [`class_text`](Self::class_text), in creation order. Its
    /// label is made when the walk asks for it ([`label`](Self::label)): most inline
    /// elements are in a main content or a paragraph, where they add no path (a
    /// highlighter's spans), and hashing their classes was a fifth of a page's labelling.
    deferred: Vec<(NodeId, u32, u32)>,
    /// The `href` of each link (`<a>`, `<area>`), when labelling: `(element, start, end)`
    /// into [`link_text`](Self::link_text), for the tokens a page links to (`items.rs`).
    pub(crate) links: Vec<(NodeId, u32, u32)>,
    /// The hrefs [`links`](Self::links) points into.
    pub(crate) link_text: String,
    /// The visible form fields, when labelling, in creation order (so increasing): what a
    /// user fills in, which the walk marks ([`crate::PathSet::FIELD`]); a field with
    /// `type=hidden` is state a form carries and is not among them.
    pub(crate) fields: Vec<NodeId>,
    /// The `<p>` elements that hold one of [`fields`](Self::fields), increasing, once
    /// [`find_form_rows`](Self::find_form_rows) has run: a form's rows, not paragraphs of
    /// prose (`flow.rs`).
    pub(crate) form_rows: Vec<NodeId>,
    /// Once [`flow::find_paragraphs`](crate::flow::find_paragraphs) has run: the `<div>`s of
    /// prose that are paragraphs (ALGORITHM.md §3, 3.), sorted.
    pub(crate) div_paragraphs: Vec<NodeId>,
    /// Once [`flow::find_paragraphs`](crate::flow::find_paragraphs) has run: the
    /// `<p>`s without a word, no paragraphs (ALGORITHM.md §3, 3.), sorted.
    pub(crate) wordless: Vec<NodeId>,
    /// Whether an element that [`is_main`](Self::is_main) may be in the tree: one named
    /// `main` or with `role=main` was created. Without one, `walk::main_content` is `None`
    /// with no walk.
    pub(crate) main_marked: bool,
    /// The labels of classed block elements made so far, by a hash of their tag name and
    /// class as written: `(start, end)` of that class's first copy in
    /// [`class_text`](Self::class_text), the name, the label ([`class_label`]).
    class_labels: fnv::FnvHashMap<u64, (u32, u32, LocalName, u64)>,
}

/// The most labels [`class_label`] remembers on one page (a page whose every
/// element has a class of its own makes each label anew past them).
const MAX_CLASS_LABELS: usize = 4096;

/// The `name` and `type` of a form field ([`crate::paths::is_field`]) whose label they join.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Field<'a> {
    /// Its `name` attribute.
    pub(crate) name: Option<&'a str>,
    /// Its `type` attribute.
    pub(crate) kind: Option<&'a str>,
}

/// The `class` value of the start tag the tree builder is processing, set by the tokenizer
/// bridge (`tokens.rs`) instead of a `class` attribute: no attribute list, tendril or string
/// per element. The first element created with the tag's name (ASCII case aside; `<image>`
/// becomes `img`) takes it: the elements the tree builder creates before it for the same
/// token are implied ones (`tbody`, `tr`, `colgroup`, `html`, `head`, `body`) or clones of
/// formatting elements, never of the tag's name, and formatting elements keep their `class`
/// as an attribute.
#[derive(Debug, Default)]
pub(crate) struct PendingClass {
    name: Vec<u8>,
    class: String,
    active: bool,
}

impl PendingClass {
    /// Notes the class value of a start tag named `name`.
    pub(crate) fn set(&mut self, name: &[u8], class: &str) {
        self.name.clear();
        self.name.extend_from_slice(name);
        self.class.clear();
        self.class.push_str(class);
        self.active = true;
    }

    /// Forgets it (the tag has been processed).
    pub(crate) const fn clear(&mut self) {
        self.active = false;
    }

    /// Whether an element named `name` is the one created for the pending tag.
    fn matches(&self, name: &str) -> bool {
        self.active
            && (name.as_bytes().eq_ignore_ascii_case(&self.name)
                || (name == "img" && self.name == b"image"))
    }
}

impl TreeArena {
    /// An arena that also labels each element with its tag name and class tokens.
    pub(crate) fn new(nodes: usize, labelled: bool) -> Self {
        let mut arena = Self {
            nodes: Vec::with_capacity(nodes.max(2)),
            created: 0,
            max_depth_seen: 0,
            depth: Vec::with_capacity(nodes.max(2)),
            labels: Vec::with_capacity(if labelled { nodes.max(2) } else { 0 }),
            labelled,
            work: 0,
            words: WordStore::default(),
            decoder: WordDecoder::default(),
            text: None,
            blocks: Vec::new(),
            pending_class: PendingClass::default(),
            text_summary: TextSummary::default(),
            root_classes: Vec::new(),
            root_linkable: (Vec::new(), Vec::new()),
            last_th: NONE,
            header_texts: Vec::new(),
            classes: Vec::new(),
            class_text: String::new(),
            deferred: Vec::new(),
            links: Vec::new(),
            link_text: String::new(),
            fields: Vec::new(),
            form_rows: Vec::new(),
            div_paragraphs: Vec::new(),
            wordless: Vec::new(),
            main_marked: false,
            class_labels: fnv::FnvHashMap::default(),
        };
        arena.push(Node::new(Kind::Document, Ns::Html, LocalName::from("")));
        arena.push(Node::new(Kind::Ignored, Ns::Html, LocalName::from("")));
        arena
    }

    /// Collects the main-content text, at most `max_bytes` of it, of a page of `input`
    /// bytes. (Measured on documentation pages: the words' bytes are about a fifth of the
    /// HTML, and most of them go to one output.)
    pub(crate) fn collect_text(&mut self, input: usize, max_bytes: usize) {
        let mut writer = TextWriter::new(max_bytes);
        writer.reserve(input / 4);
        self.text = Some(writer);
        self.words.reserve(input / 4, input / 48);
        self.blocks.reserve(input / 48);
        self.blocks.resize(self.nodes.len(), NONE);
    }

    /// The main-content text, and whether it was cut at its bound (`None`: not collected).
    pub(crate) fn take_text(&mut self) -> Option<(String, bool)> {
        #[cfg(test)]
        STORE_LEN.set(self.words.len());
        self.text.take().map(TextWriter::finish)
    }

    fn push(&mut self, node: Node) -> NodeId {
        let id = NodeId::try_from(self.nodes.len()).unwrap_or(NONE);
        self.work += 1;
        self.nodes.push(node);
        self.depth.push(0);
        if self.labelled {
            self.labels.push(0);
        }
        if self.text.is_some() {
            self.blocks.push(NONE);
        }
        id
    }

    /// Whether elements are labelled (and so want their `class` attribute).
    pub(crate) const fn labelled(&self) -> bool {
        self.labelled
    }

    /// Creates an element (and, for an HTML `<template>`, its contents right after it).
    /// `class` is its `class` attribute, if it came as one; otherwise the pending class of
    /// its start tag ([`PendingClass`]) is taken.
    pub(crate) fn create_element(
        &mut self,
        ns: Ns,
        name: LocalName,
        template: bool,
        class: Option<&str>,
        field: Option<Field<'_>>,
    ) -> NodeId {
        self.created += 1;
        if name == html5ever::local_name!("main") {
            self.main_marked = true;
        }
        let mut root_tokens = None;
        let mut item_class = None;
        let mut deferred = None;
        let label = self.labelled.then(|| {
            let pending = class.is_none() && self.pending_class.matches(&name);
            let class = class.or_else(|| pending.then_some(self.pending_class.class.as_str()));
            let label = if ns == Ns::Html && crate::paths::is_root(&name) {
                root_tokens = class.map(crate::paths::root_class_tokens);
                if let Some(class) = class {
                    let (tokens, prefixes) = &mut self.root_linkable;
                    crate::paths::linkable_tokens(class, tokens, prefixes);
                }
                crate::paths::label(&name, None)
            } else {
                // A classed HTML element other than a form field keeps its class: a block's
                // for the labels a list's items share, an inline element's to be labelled
                // on demand.
                let kept = class.filter(|c| {
                    ns == Ns::Html && field.is_none() && c.bytes().any(|b| !b.is_ascii_whitespace())
                });
                match kept {
                    Some(class) => {
                        let start = u32::try_from(self.class_text.len()).unwrap_or(u32::MAX);
                        self.class_text.push_str(class);
                        let end = u32::try_from(self.class_text.len()).unwrap_or(u32::MAX);
                        if crate::paths::is_phrasing(&name) {
                            deferred = Some((start, end));
                            DEFERRED
                        } else {
                            item_class = Some((start, end));
                            class_label(
                                &mut self.class_labels,
                                &self.class_text,
                                &name,
                                class,
                                (start, end),
                            )
                        }
                    }
                    None => crate::paths::label(&name, class),
                }
            };
            let label = match field {
                Some(f) => crate::paths::field_label(label, f.name, f.kind),
                None => label,
            };
            if pending {
                self.pending_class.clear();
            }
            label
        });
        let is_th = self.labelled && ns == Ns::Html && name == html5ever::local_name!("th");
        let visible = self.labelled
            && field.is_some_and(|f| {
                !f.kind
                    .is_some_and(|k| k.trim_ascii().eq_ignore_ascii_case("hidden"))
            });
        let id = self.push(Node::new(Kind::Element, ns, name));
        if visible {
            self.fields.push(id);
        }
        if is_th {
            self.last_th = id;
        }
        if let Some(tokens) = root_tokens.filter(|t| !t.is_empty()) {
            self.root_classes.push((id, tokens));
        }
        if let Some((start, end)) = item_class {
            self.classes.push((id, start, end));
        }
        if let Some((start, end)) = deferred {
            self.deferred.push((id, start, end));
        }
        if let Some(label) = label
            && let Some(slot) = self.labels.get_mut(id as usize)
        {
            *slot = label;
        }
        if template {
            let mut contents = Node::new(Kind::TemplateContents, Ns::Html, LocalName::from(""));
            contents.ctx = ENTERED | HIDDEN;
            self.push(contents);
        }
        id
    }

    /// Finds the [`form_rows`](Self::form_rows): each visible field's nearest `<p>`
    /// ancestor, in the tree as it is (call it once the tree's shape is final). Every
    /// element is climbed through at most once, so a deep tree with many fields costs one
    /// pass.
    pub(crate) fn find_form_rows(&mut self) {
        let mut climbed = fnv::FnvHashSet::default();
        let mut rows = Vec::new();
        for &field in &self.fields {
            let mut at = self.node(field).map_or(NONE, |n| n.parent);
            while let Some(node) = self.node(at) {
                if !climbed.insert(at) {
                    break;
                }
                if node.kind == Kind::Element
                    && node.ns == Ns::Html
                    && node.name == html5ever::local_name!("p")
                {
                    rows.push(at);
                    break;
                }
                at = node.parent;
            }
        }
        rows.sort_unstable();
        self.form_rows = rows;
    }

    /// Element `id`'s label: its tag name and class tokens (`paths::label`), made now for
    /// a classed inline element ([`deferred`](Self::deferred)); 0 when not labelling.
    pub(crate) fn label(&self, id: NodeId) -> u64 {
        let label = self.labels.get(id as usize).copied().unwrap_or_default();
        if label != DEFERRED {
            return label;
        }
        match self.inline_class(id) {
            Some(class) => self
                .node(id)
                .map_or(label, |n| crate::paths::label(&n.name, Some(class))),
            // A label that happens to equal the mark.
            None => label,
        }
    }

    /// The `class` of classed inline element `id`, as written ([`deferred`](Self::deferred)).
    pub(crate) fn inline_class(&self, id: NodeId) -> Option<&str> {
        let at = self.deferred.binary_search_by_key(&id, |d| d.0).ok()?;
        let (_, start, end) = self.deferred[at];
        self.class_text.get(start as usize..end as usize)
    }

    /// Notes the `href` of the link element created next, when labelling, if it can name a
    /// token: one with a path of segments or a query parameter (`paths::link_token_labels`),
    /// or a page's name (`paths::link_name_label`).
    pub(crate) fn add_link(&mut self, href: &str) {
        // A link within the page (`#…`) names nothing.
        if self.labelled
            && !href.trim_ascii_start().starts_with('#')
            && href.bytes().any(|b| b == b'/' || b == b'=' || b == b'.')
        {
            // `create_element` gives the element the next id.
            let id = NodeId::try_from(self.nodes.len()).unwrap_or(NONE);
            let start = u32::try_from(self.link_text.len()).unwrap_or(u32::MAX);
            self.link_text.push_str(href);
            let end = u32::try_from(self.link_text.len()).unwrap_or(u32::MAX);
            self.links.push((id, start, end));
        }
    }

    /// Notes `hash`, the text of a header cell the tokenizer has read to its end (`None`:
    /// no letters in it), for the last `<th>` created, once: a `<th>` tag the tree builder
    /// ignored leaves no text to an earlier cell.
    pub(crate) fn set_header_text(&mut self, hash: Option<u64>) {
        let th = std::mem::replace(&mut self.last_th, NONE);
        if let Some(hash) = hash
            && th != NONE
        {
            self.header_texts.push((th, hash));
        }
    }

    /// The text hash of header cell `id` (`None`: none read, or no letters in it).
    pub(crate) fn header_text(&self, id: NodeId) -> Option<u64> {
        self.header_texts
            .binary_search_by_key(&id, |&(th, _)| th)
            .ok()
            .map(|i| self.header_texts[i].1)
    }

    /// Whether element `id` can be the page's main content: a `<main>` or an element with
    /// `role=main` ([`ROLE_MAIN`], set by the sink when it creates the element, whenever text
    /// is collected or elements labelled). The first such element in document order is;
    /// `text.rs` and the `class-paths` walk both ask.
    pub(crate) fn is_main(&self, id: NodeId) -> bool {
        self.node(id)
            .is_some_and(|n| n.ctx & ROLE_MAIN != 0 || n.name == html5ever::local_name!("main"))
    }

    pub(crate) fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    fn is_linkable(&self, id: NodeId) -> bool {
        self.node(id).is_some_and(|n| n.kind != Kind::Ignored)
    }

    /// Unlinks `id` from its parent, if it has one.
    pub(crate) fn detach(&mut self, id: NodeId) {
        let Some(node) = self.nodes.get(id as usize) else {
            return;
        };
        let (parent, prev, next) = (node.parent, node.prev, node.next);
        if parent == NONE {
            return;
        }
        self.work += 1;
        if prev == NONE {
            self.nodes[parent as usize].first = next;
        } else {
            self.nodes[prev as usize].next = next;
        }
        if next == NONE {
            self.nodes[parent as usize].last = prev;
        } else {
            self.nodes[next as usize].prev = prev;
        }
        let node = &mut self.nodes[id as usize];
        node.parent = NONE;
        node.prev = NONE;
        node.next = NONE;
    }

    fn note_depth(&mut self, parent: NodeId, child: NodeId) {
        self.work += 1;
        let d = self.depth[parent as usize].saturating_add(1);
        self.depth[child as usize] = d;
        // A template's contents (the node right after it) sit at its depth, so what is
        // appended to them counts one deeper: nested templates must not hide from the guard.
        if self
            .nodes
            .get(child as usize + 1)
            .is_some_and(|n| n.kind == Kind::TemplateContents)
        {
            self.depth[child as usize + 1] = d;
        }
        self.max_depth_seen = self.max_depth_seen.max(d);
    }

    /// Appends `child` as the last child of `parent`.
    pub(crate) fn append(&mut self, parent: NodeId, child: NodeId) {
        if !self.is_linkable(parent) || !self.is_linkable(child) || parent == child {
            return;
        }
        self.detach(child);
        let last = self.nodes[parent as usize].last;
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev = last;
        }
        if last == NONE {
            self.nodes[parent as usize].first = child;
        } else {
            self.nodes[last as usize].next = child;
        }
        self.nodes[parent as usize].last = child;
        self.note_depth(parent, child);
        self.enter(parent, child);
    }

    /// Inserts `child` right before `sibling` (which must have a parent).
    pub(crate) fn insert_before(&mut self, sibling: NodeId, child: NodeId) {
        if !self.is_linkable(sibling) || !self.is_linkable(child) || sibling == child {
            return;
        }
        let parent = self.nodes[sibling as usize].parent;
        if parent == NONE {
            return;
        }
        self.detach(child);
        let prev = self.nodes[sibling as usize].prev;
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev = prev;
            c.next = sibling;
        }
        self.nodes[sibling as usize].prev = child;
        if prev == NONE {
            self.nodes[parent as usize].first = child;
        } else {
            self.nodes[prev as usize].next = child;
        }
        self.note_depth(parent, child);
        self.enter(parent, child);
    }

    /// Element `child` was inserted under `parent`: the first time, it takes its context for
    /// the main-content text from there (and starts a line when it is a block).
    fn enter(&mut self, parent: NodeId, child: NodeId) {
        if self.text.as_ref().is_none_or(TextWriter::done) {
            return;
        }
        let node = &self.nodes[child as usize];
        if node.ctx & ENTERED != 0 || node.kind != Kind::Element {
            return;
        }
        let main = self.is_main(child);
        let Some(writer) = &mut self.text else {
            return;
        };
        let node = &self.nodes[child as usize];
        let (ctx, block) =
            writer.enter(self.nodes[parent as usize].ctx, &node.name, node.ctx, main);
        self.nodes[child as usize].ctx = ctx;
        let within = if block {
            child
        } else {
            self.blocks.get(parent as usize).copied().unwrap_or(NONE)
        };
        if let Some(slot) = self.blocks.get_mut(child as usize) {
            *slot = within;
        }
    }

    /// Notes that `text` was appended to `parent` ([`Node::text`]): whether it holds anything
    /// but white space, and then the words and sentence end the bridge read of it
    /// ([`text_summary`](Self::text_summary)). The tree builder's text is the bridge's reduced
    /// text (`tokens.rs`), whose words are stand-ins, never white space.
    pub(crate) fn note_text(&mut self, parent: NodeId, text: &str) {
        if let Some(node) = self.nodes.get_mut(parent as usize)
            && text.bytes().any(|b| !b.is_ascii_whitespace())
        {
            // The tree builder may split a text at white space, never inside a word: each
            // visible piece is the text the bridge summed up (a piece of white space only
            // adds nothing).
            node.text = true;
            node.words = node
                .words
                .saturating_add(self.text_summary.words)
                .min(MAX_OWN_WORDS);
            node.sentence = self.text_summary.sentence;
        }
    }

    /// Text under `parent` (appended as its last child, or inserted before one of its
    /// children: either way it comes in the order the parser read it).
    pub(crate) fn add_text(&mut self, parent: NodeId, text: &str) {
        let (Some(writer), Some(node)) = (&mut self.text, self.nodes.get(parent as usize)) else {
            return;
        };
        if node.kind != Kind::Ignored && !writer.done_after_text(node.ctx) {
            let block = self.blocks.get(parent as usize).copied().unwrap_or(NONE);
            let out = writer.text_out(node.ctx, block);
            self.decoder.decode(text, &self.words, out);
        }
    }

    /// Whether no more text can be written ([`TextWriter::done`]): the rest of the page is
    /// parsed as without text.
    pub(crate) fn text_done(&self) -> bool {
        self.text.as_ref().is_some_and(TextWriter::done)
    }

    /// Text arrives as real text (html5ever's own tokenizer, in tests), not as the bridge's
    /// stand-ins.
    #[cfg(test)]
    pub(crate) fn literal_text(&mut self) {
        self.decoder.literal = true;
    }

    /// Moves every child of `from` to the end of `to`'s children, in order.
    pub(crate) fn reparent_children(&mut self, from: NodeId, to: NodeId) {
        if !self.is_linkable(from) || !self.is_linkable(to) || from == to {
            return;
        }
        let mut child = self.nodes[from as usize].first;
        while child != NONE {
            let next = self.nodes[child as usize].next;
            self.append(to, child);
            child = next;
        }
    }

    pub(crate) fn parent(&self, id: NodeId) -> NodeId {
        self.node(id).map_or(NONE, |n| n.parent)
    }
}

/// `paths::label(name, Some(class))`, made once per tag name and class value on a page
/// (`TreeArena::class_labels`): a page's blocks repeat a few classes (a table's rows, a
/// list's items), and hashing each class's tokens again was a fortieth of a crawl's work on
/// cppreference. `span` is where `class` was just copied into `text`, the page's classes.
fn class_label(
    labels: &mut fnv::FnvHashMap<u64, (u32, u32, LocalName, u64)>,
    text: &str,
    name: &LocalName,
    class: &str,
    span: (u32, u32),
) -> u64 {
    use std::hash::Hasher;
    let mut h = fnv::FnvHasher::with_key(name.get_hash());
    h.write(class.as_bytes());
    let key = h.finish();
    if let Some((start, end, known, label)) = labels.get(&key) {
        if known == name && text.get(*start as usize..*end as usize) == Some(class) {
            return *label;
        }
        // Another name or class with the same hash: made anew.
        return crate::paths::label(name, Some(class));
    }
    let label = crate::paths::label(name, Some(class));
    if labels.len() < MAX_CLASS_LABELS {
        labels.insert(key, (span.0, span.1, name.clone(), label));
    }
    label
}

#[cfg(test)]
thread_local! {
    /// The number of runs in the word store of the last text taken on this thread.
    static STORE_LEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The number of runs in the word store of the last text taken on this thread.
#[cfg(test)]
pub(crate) fn last_store_len() -> usize {
    STORE_LEN.get()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn children(arena: &TreeArena, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut c = arena.nodes[id as usize].first;
        while c != NONE {
            out.push(c);
            c = arena.nodes[c as usize].next;
        }
        // The backward links must agree with the forward ones.
        let mut back = Vec::new();
        let mut c = arena.nodes[id as usize].last;
        while c != NONE {
            back.push(c);
            c = arena.nodes[c as usize].prev;
        }
        back.reverse();
        assert_eq!(out, back, "prev/next links disagree under node {id}");
        out
    }

    /// A class met again gives the label it gave the first time, per tag name, and every
    /// label is `paths::label`'s, also past the labels remembered and on a hash collision
    /// (a remembered entry forged under another name's key).
    #[test]
    fn class_labels_are_made_once_and_the_same() {
        let mut t = TreeArena::new(8, true);
        let el = |t: &mut TreeArena, n: &str, class: &str| {
            let id = t.create_element(Ns::Html, LocalName::from(n), false, Some(class), None);
            assert_eq!(
                t.labels[id as usize],
                crate::paths::label(n, Some(class)),
                "<{n} class={class:?}>"
            );
        };
        for class in ["a b", "b a", "A  b", "row-12 odd", "row-13 odd", "a b"] {
            for name in ["div", "li", "div"] {
                el(&mut t, name, class);
            }
        }
        for i in 0..(MAX_CLASS_LABELS + 10) {
            el(&mut t, "div", &format!("c{i} x"));
        }
        assert_eq!(t.class_labels.len(), MAX_CLASS_LABELS);
        let mut t = TreeArena::new(8, true);
        el(&mut t, "td", "cell");
        let key = *t.class_labels.keys().next().expect("one label remembered");
        t.class_labels.insert(key, (0, 4, LocalName::from("th"), 7));
        el(&mut t, "td", "cell");
    }

    #[test]
    fn append_insert_detach_reparent() {
        let mut t = TreeArena::new(8, false);
        let el = |t: &mut TreeArena, n: &str| {
            t.create_element(Ns::Html, LocalName::from(n), false, None, None)
        };
        let (a, b, c, d) = (
            el(&mut t, "a"),
            el(&mut t, "b"),
            el(&mut t, "c"),
            el(&mut t, "d"),
        );
        t.append(DOCUMENT, a);
        t.append(a, b);
        t.append(a, c);
        t.insert_before(c, d);
        assert_eq!(children(&t, a), vec![b, d, c]);
        t.detach(d);
        assert_eq!(children(&t, a), vec![b, c]);
        t.append(DOCUMENT, d);
        t.reparent_children(a, d);
        assert_eq!(children(&t, a), vec![]);
        assert_eq!(children(&t, d), vec![b, c]);
        assert_eq!(t.parent(b), d);
        // The ignored node never links, and a node is never its own child.
        t.append(a, IGNORED);
        t.append(a, a);
        assert_eq!(children(&t, a), vec![]);
    }

    /// (namespace, tag, class) → the label the arena gives, made at once or on demand, is
    /// `paths::label`'s (a field's label reads its name and type: not here).
    #[test]
    fn labels_made_on_demand_are_the_labels() {
        let mut t = TreeArena::new(8, true);
        for (ns, name, class) in [
            (Ns::Html, "span", Some("n")),
            (
                Ns::Html,
                "code",
                Some("xref py py-func docutils literal notranslate"),
            ),
            (Ns::Html, "a", Some("reference  internal")),
            (Ns::Html, "a", Some("   ")),
            (Ns::Html, "em", None),
            (Ns::Html, "div", Some("section x-1")),
            (Ns::Svg, "a", Some("icon")),
        ] {
            let id = t.create_element(ns, LocalName::from(name), false, class, None);
            assert_eq!(
                t.label(id),
                crate::paths::label(name, class),
                "{name} {class:?}"
            );
        }
        // A label that equals the mark is returned as it is.
        t.labels.push(DEFERRED);
        assert_eq!(t.label(t.labels.len() as NodeId - 1), DEFERRED);
    }

    #[test]
    fn template_contents_follow_their_element() {
        let mut t = TreeArena::new(4, false);
        let tpl = t.create_element(Ns::Html, LocalName::from("template"), true, None, None);
        assert_eq!(t.nodes[tpl as usize + 1].kind, Kind::TemplateContents);
        assert_eq!(t.created, 1);
    }
}
