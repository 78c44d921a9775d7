//! html5ever's `TreeSink` over the lean [`TreeArena`].

use std::borrow::Cow;
use std::cell::{Ref, RefCell};

use html5ever::interface::{ElemName, ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::{Attribute, LocalName, Namespace, QualName, local_name};

use crate::refresh::Refresh;
use crate::tree::{DOCUMENT, IGNORED, Kind, Node, NodeId, Ns, TreeArena};

/// An element's name, as the tree builder asks for it: a shared borrow of its arena node, as
/// scraper's sink does (the tree builder drops each name before it changes the tree; cloning
/// the name instead cost ~4% of a parse).
#[derive(Debug)]
pub(crate) struct NodeName<'b>(Ref<'b, Node>);

impl ElemName for NodeName<'_> {
    fn ns(&self) -> &Namespace {
        self.0.ns.namespace()
    }

    fn local_name(&self) -> &LocalName {
        &self.0.name
    }
}

/// The sink: the arena behind a `RefCell`, since html5ever calls every method with `&self`.
#[derive(Debug)]
pub(crate) struct ArenaSink<'a> {
    pub(crate) arena: &'a RefCell<TreeArena>,
    /// Where links go, when the caller wants them.
    pub(crate) links: Option<&'a RefCell<Links>>,
    /// Whether the main-content text is collected (`text.rs`).
    pub(crate) text: bool,
}

/// The link targets of a page, as written (unresolved), in the order the parser met them.
#[derive(Debug, Default)]
pub(crate) struct Links {
    pub(crate) hrefs: Vec<String>,
    pub(crate) base: Option<String>,
    /// The first `<meta http-equiv=refresh>` that names a URL (its URL is a link too).
    pub(crate) refresh: Option<Refresh>,
    pub(crate) max: usize,
    /// Each link kept, by the FNV-1a hash of its text: the index in `hrefs` of the first
    /// with that hash (its text is compared there).
    seen: fnv::FnvHashMap<u64, u32>,
    /// The links kept whose hash a link before them had (a crafted page can make many).
    collided: std::collections::HashSet<String>,
}

impl Links {
    pub(crate) fn new(max: usize) -> Self {
        Self {
            max,
            ..Self::default()
        }
    }

    /// Notes the link attributes of a new HTML element (clones made by the tree builder
    /// repeat them: duplicates are kept once).
    fn element(&mut self, local: &LocalName, attrs: &[Attribute]) {
        if self.max == 0 && *local != local_name!("meta") && *local != local_name!("base") {
            return;
        }
        let attr = |name: &str| {
            attrs
                .iter()
                .find(|a| a.name.ns.is_empty() && &*a.name.local == name)
        };
        let href = match &**local {
            "a" | "area" => attr("href"),
            "frame" | "iframe" => attr("src"),
            "link" => attr("rel")
                .filter(|rel| {
                    rel.value
                        .split_ascii_whitespace()
                        .any(|t| t.eq_ignore_ascii_case("next") || t.eq_ignore_ascii_case("prev"))
                })
                .and(attr("href")),
            "base" => {
                if self.base.is_none() {
                    self.base = attr("href").map(|a| a.value.to_string());
                }
                None
            }
            "meta" if self.refresh.is_none() => {
                self.refresh = attr("http-equiv")
                    .filter(|e| e.value.trim().eq_ignore_ascii_case("refresh"))
                    .and(attr("content"))
                    .and_then(|c| Refresh::parse(&c.value));
                if let Some(url) = self.refresh.as_ref().map(|r| r.url.clone()) {
                    self.push(&url);
                }
                None
            }
            _ => None,
        };
        if let Some(href) = href {
            self.push(&href.value);
        }
    }

    /// Adds a link target, once, up to the maximum.
    fn push(&mut self, href: &str) {
        if self.hrefs.len() >= self.max {
            return;
        }
        let key = href_key(href);
        let index = u32::try_from(self.hrefs.len()).unwrap_or(u32::MAX);
        match self.seen.entry(key) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(index);
            }
            std::collections::hash_map::Entry::Occupied(first) => {
                // The same hash: the same link, or another one with that hash.
                if self
                    .hrefs
                    .get(*first.get() as usize)
                    .is_some_and(|h| h == href)
                    || !self.collided.insert(href.to_owned())
                {
                    return;
                }
            }
        }
        self.hrefs.push(href.to_owned());
    }
}

/// The key of a link in `Links::seen`: FNV-1a over its text.
fn href_key(href: &str) -> u64 {
    let mut h = fnv::FnvHasher::default();
    std::hash::Hasher::write(&mut h, href.as_bytes());
    std::hash::Hasher::finish(&h)
}

impl ArenaSink<'_> {
    fn append_node(&self, parent: NodeId, child: NodeOrText<NodeId>) {
        match child {
            NodeOrText::AppendNode(child) => self.arena.borrow_mut().append(parent, child),
            // Text adds nothing to a structure fingerprint: read only when collected.
            NodeOrText::AppendText(text) => {
                let mut arena = self.arena.borrow_mut();
                arena.note_text(parent, &text);
                if self.text {
                    arena.add_text(parent, &text);
                }
            }
        }
    }
}

impl TreeSink for ArenaSink<'_> {
    type Handle = NodeId;
    type Output = ();
    type ElemName<'b>
        = NodeName<'b>
    where
        Self: 'b;

    fn finish(self) -> Self::Output {}

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> NodeId {
        DOCUMENT
    }

    fn elem_name<'b>(&'b self, target: &'b NodeId) -> NodeName<'b> {
        // The tree builder only asks for elements; for anything else the document node (an
        // empty name) is a harmless answer.
        NodeName(Ref::map(self.arena.borrow(), |arena| {
            arena
                .node(*target)
                .unwrap_or(&arena.nodes[DOCUMENT as usize])
        }))
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> NodeId {
        if let Some(links) = self.links
            && !attrs.is_empty()
            && name.ns == html5ever::ns!(html)
        {
            links.borrow_mut().element(&name.local, &attrs);
        }
        let mut arena = self.arena.borrow_mut();
        let class = if arena.labelled() {
            attrs
                .iter()
                .find(|a| a.name.ns.is_empty() && &*a.name.local == "class")
                .map(|a| &*a.value)
        } else {
            None
        };
        // A form field's `name` and `type` join its label (the bridge keeps both attributes
        // of such a tag for this).
        let field = (arena.labelled()
            && name.ns == html5ever::ns!(html)
            && crate::paths::is_field(name.local.as_bytes()))
        .then(|| {
            let value = |key: &str| {
                attrs
                    .iter()
                    .find(|a| a.name.ns.is_empty() && &*a.name.local == key)
                    .map(|a| &*a.value)
            };
            crate::tree::Field {
                name: value("name"),
                kind: value("type"),
            }
        });
        if arena.labelled()
            && name.ns == html5ever::ns!(html)
            && matches!(&*name.local, "a" | "area")
            && let Some(href) = attrs
                .iter()
                .find(|a| a.name.ns.is_empty() && &*a.name.local == "href")
        {
            arena.add_link(&href.value);
        }
        let id = arena.create_element(
            Ns::from_namespace(&name.ns),
            name.local,
            flags.template,
            class,
            field,
        );
        if flags.mathml_annotation_xml_integration_point
            && let Some(node) = arena.nodes.get_mut(id as usize)
        {
            node.integration_point = true;
        }
        if (self.text || arena.labelled())
            && attrs.iter().any(|a| {
                a.name.ns.is_empty()
                    && &*a.name.local == "role"
                    && crate::tree::is_main_role(&a.value)
            })
            && let Some(node) = arena.nodes.get_mut(id as usize)
        {
            node.ctx |= crate::text::ROLE_MAIN;
            arena.main_marked = true;
        }
        id
    }

    fn create_comment(&self, _text: StrTendril) -> NodeId {
        IGNORED
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> NodeId {
        IGNORED
    }

    fn append(&self, parent: &NodeId, child: NodeOrText<NodeId>) {
        self.append_node(*parent, child);
    }

    fn append_based_on_parent_node(
        &self,
        element: &NodeId,
        prev_element: &NodeId,
        child: NodeOrText<NodeId>,
    ) {
        let has_parent = self.arena.borrow().parent(*element) != crate::tree::NONE;
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append_node(*prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, target: &NodeId) -> NodeId {
        let arena = self.arena.borrow();
        let contents = target.saturating_add(1);
        match arena.node(contents) {
            Some(node) if node.kind == Kind::TemplateContents => contents,
            // Never happens for a template element; a harmless sink otherwise.
            _ => IGNORED,
        }
    }

    fn same_node(&self, x: &NodeId, y: &NodeId) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &NodeId, new_node: NodeOrText<NodeId>) {
        match new_node {
            NodeOrText::AppendNode(child) => self.arena.borrow_mut().insert_before(*sibling, child),
            NodeOrText::AppendText(text) => {
                let mut arena = self.arena.borrow_mut();
                let parent = arena.parent(*sibling);
                arena.note_text(parent, &text);
                if self.text {
                    arena.add_text(parent, &text);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, _target: &NodeId, _attrs: Vec<Attribute>) {}

    fn remove_from_parent(&self, target: &NodeId) {
        self.arena.borrow_mut().detach(*target);
    }

    fn reparent_children(&self, node: &NodeId, new_parent: &NodeId) {
        self.arena
            .borrow_mut()
            .reparent_children(*node, *new_parent);
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &NodeId) -> bool {
        self.arena
            .borrow()
            .node(*handle)
            .is_some_and(|n| n.integration_point)
    }

    fn allow_declarative_shadow_roots(&self, _intended_parent: &NodeId) -> bool {
        // No shadow roots: a `<template shadowrootmode>` stays a template, as in markup5ever_rcdom.
        false
    }
}

#[cfg(test)]
mod tests {
    use super::{Links, href_key as key};

    /// Each link once, in the order met, up to the maximum; a link whose hash an earlier
    /// one has (forged here) is still told apart from it and kept once.
    #[test]
    fn links_are_kept_once_in_order() {
        let check = |max: usize, forge: bool, hrefs: &[&str], expected: &[&str]| {
            let mut links = Links::new(max);
            if forge {
                links.push("a");
                links.seen.insert(key("b"), 0);
                links.seen.insert(key("c"), 0);
            }
            for href in hrefs {
                links.push(href);
            }
            assert_eq!(
                links.hrefs, expected,
                "max {max}, forged {forge}: {hrefs:?}"
            );
        };
        check(10, false, &["x", "y", "x", "z", "y"], &["x", "y", "z"]);
        check(2, false, &["x", "y", "x", "z"], &["x", "y"]);
        check(0, false, &["x"], &[]);
        check(10, true, &["b", "a", "b", "c", "c", "b"], &["a", "b", "c"]);
    }
}
