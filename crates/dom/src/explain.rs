//! Readable names for a page's paths ([`StructureHasher::explain`]): what `silhouette
//! compare --paths` prints to show where two pages differ. The fingerprint never reads them.
//!
//! [`StructureHasher::explain`]: crate::StructureHasher::explain

use fnv::FnvHashMap;

use crate::PathSet;

/// One path of a page's [`PathSet`], named.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PathName {
    /// The path id, as in [`PathSet::ids`].
    pub id: u32,
    /// Its level: the exponent of its weight (`decay^level`).
    pub level: u8,
    /// Whether it lies below a flow of prose (ALGORITHM.md §3, 3.).
    pub prose: bool,
    /// Whether it is one of an article's blocks ([`PathSet::is_article_block`]).
    pub article: bool,
    /// Its steps from `<html>`, `/`-separated: each element's tag name and, where its label
    /// reads them, its class tokens normalised (`html/body/div.nav/ul/li`); below a flow of
    /// prose, the flow's own path stands for the steps between. What a label holds beside
    /// (a table's column headers, a field's name and type, the classes of an SVG or MathML
    /// element) is marked `[columns]`, `[field]` or `[classes]`; a class of `<html>` or `<body>`, a path
    /// of its own, is `(a class)`. An element some of whose tokens its label leaves out (a
    /// list item's data, a token the page names or links to) shows them all, marked
    /// `[item]`.
    pub name: String,
}

/// Names of paths by their full 64-bit path, in the order first met.
#[derive(Debug, Default)]
pub(crate) struct Names {
    index: FnvHashMap<u64, usize>,
    names: Vec<(u64, String)>,
}

impl Names {
    /// Names `path` by its parent's name and `step` (the first name given a path stays).
    pub(crate) fn add(&mut self, path: u64, parent: u64, step: &str) {
        if self.index.contains_key(&path) {
            return;
        }
        let mut name = self
            .index
            .get(&parent)
            .and_then(|&at| self.names.get(at))
            .map_or_else(String::new, |(_, n)| n.clone());
        if !name.is_empty() {
            name.push('/');
        }
        name.push_str(step);
        self.index.insert(path, self.names.len());
        self.names.push((path, name));
    }

    /// The paths of `set`, named, in the order their first element was met.
    pub(crate) fn finish(self, set: &PathSet) -> Vec<PathName> {
        let stored: FnvHashMap<u32, u8> = set.stored().collect();
        let mut done: fnv::FnvHashSet<u32> = fnv::FnvHashSet::default();
        let mut out = Vec::with_capacity(stored.len());
        for (path, name) in self.names {
            let id = (path >> 32) as u32;
            if let Some(&level) = stored.get(&id)
                && done.insert(id)
            {
                out.push(PathName {
                    id,
                    level: level & !(PathSet::PROSE | PathSet::FIELD | PathSet::TABLE),
                    prose: level & PathSet::PROSE != 0,
                    article: set.is_article_block(id),
                    name,
                });
            }
        }
        out
    }
}
