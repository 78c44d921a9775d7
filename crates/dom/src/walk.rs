//! The one walk over the final tree: iterative, document pre-order, template contents first.

use crate::features::{ElementInfo, FeatureModel, Features};
use crate::tree::{DOCUMENT, Kind, NONE, NodeId, TreeArena};

/// Walks every element under the document, feeding `model`; returns the element count.
///
/// The contents of a `<template>` (the node right after it in the arena) are walked as its
/// children, before its own children, as ALGORITHM.md §2 and the reference implementation do.
/// Never recursive: a tree of any depth walks in constant stack.
pub(crate) fn walk(arena: &TreeArena, model: &dyn FeatureModel, out: &mut Features) -> u64 {
    // (node, depth, parent element or NONE)
    let mut stack: Vec<(NodeId, u32, NodeId)> = Vec::with_capacity(64);
    push_children(arena, DOCUMENT, 1, NONE, &mut stack);
    let mut elements = 0u64;
    while let Some((id, depth, parent)) = stack.pop() {
        let Some(node) = arena.node(id) else { continue };
        if node.kind != Kind::Element {
            continue;
        }
        elements += 1;
        let info = ElementInfo {
            name: &node.name,
            parent: arena.node(parent).map(|p| &*p.name),
            depth,
        };
        model.element(&info, out);
        let child_depth = depth.saturating_add(1);
        // Pushed in reverse: own children first, so the template contents pop first.
        push_children(arena, id, child_depth, id, &mut stack);
        if let Some(contents) = arena.node(id.saturating_add(1))
            && contents.kind == Kind::TemplateContents
        {
            push_children(arena, id + 1, child_depth, id, &mut stack);
        }
    }
    elements
}

/// Pushes the children of `id` in reverse order, so they pop in document order.
fn push_children(
    arena: &TreeArena,
    id: NodeId,
    depth: u32,
    parent: NodeId,
    stack: &mut Vec<(NodeId, u32, NodeId)>,
) {
    let mut child = arena.node(id).map_or(NONE, |n| n.last);
    while child != NONE {
        stack.push((child, depth, parent));
        child = arena.node(child).map_or(NONE, |n| n.prev);
    }
}
