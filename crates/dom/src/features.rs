//! Feature models and the accumulator they write into.
//!
//! A [`FeatureModel`] looks at each element of the final tree, in document pre-order, and
//! names zero or more features, each at a depth. Every feature occurrence weighs
//! `decay^depth` (repeated f64 multiplication, as ALGORITHM.md §2 fixes it); the weights of
//! one feature are summed in document order and the features are folded into the simhash
//! in byte order of their keys. The walker, the weighting, the fold and the replay profile
//! stay the same whatever the model: a new model only decides what the features are.

use std::fmt;

use fnv::FnvHashMap;
use silhouette_simhash::{Fingerprint, Simhash, fnv1_64};

use crate::profile::{Profile, ProfileEntry};

/// What a feature model sees of one element.
#[derive(Clone, Copy, Debug)]
pub struct ElementInfo<'a> {
    /// The element's local name as the parser reports it (SVG `clipPath` keeps its case).
    pub name: &'a str,
    /// The local name of the parent element, if the parent is an element.
    pub parent: Option<&'a str>,
    /// Depth in the walked tree: `<html>` is 1, `<head>` and `<body>` are 2.
    pub depth: u32,
}

/// Decides which features an element contributes. Implement it to try another model
/// without touching the parser or the walker.
pub trait FeatureModel: fmt::Debug + Send + Sync {
    /// A short, stable name, recorded with every fingerprint (e.g. `classic`).
    fn name(&self) -> &str;

    /// Adds this element's features to `out`.
    fn element(&self, element: &ElementInfo<'_>, out: &mut Features);
}

/// The design notes' model: one feature per tag name (ASCII-lowercased, namespace ignored)
/// at the element's own depth. Bit-exact with ALGORITHM.md §2 and the reference
/// implementation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Classic;

impl FeatureModel for Classic {
    fn name(&self) -> &str {
        "classic"
    }

    fn element(&self, element: &ElementInfo<'_>, out: &mut Features) {
        out.add_lowercase(element.name, element.depth);
    }
}

/// Tag names plus parent>child tag pairs, both at the element's depth.
///
/// Measured no better than [`Classic`] on the development set (ALGORITHM.md §3); it is here
/// as a second user of the [`FeatureModel`] seam and for experiments, never the default.
#[derive(Clone, Copy, Debug, Default)]
pub struct TagPairs;

impl FeatureModel for TagPairs {
    fn name(&self) -> &str {
        "tag-pairs"
    }

    fn element(&self, element: &ElementInfo<'_>, out: &mut Features) {
        out.add_lowercase(element.name, element.depth);
        let parent = element.parent.unwrap_or("#document");
        let mut pair = String::with_capacity(parent.len() + 1 + element.name.len());
        pair.push_str(parent);
        pair.push('>');
        pair.push_str(element.name);
        out.add_lowercase(&pair, element.depth);
    }
}

#[derive(Clone, Debug)]
struct Slot {
    key: Box<str>,
    weight: f64,
    /// Occurrences per depth (index = depth).
    counts: Vec<u32>,
}

/// The features of one page: for each key, its summed weight and its count per depth.
#[derive(Clone)]
pub struct Features {
    powers: Vec<f64>,
    decay: f64,
    slots: Vec<Slot>,
    index: FnvHashMap<Box<str>, usize>,
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Features")
            .field("decay", &self.decay)
            .field("keys", &self.slots.len())
            .finish()
    }
}

impl Features {
    /// An empty accumulator weighting depth `d` by `decay^d`.
    pub(crate) fn new(decay: f64) -> Self {
        Self {
            powers: vec![1.0],
            decay,
            slots: Vec::new(),
            index: FnvHashMap::default(),
        }
    }

    fn power(&mut self, depth: u32) -> f64 {
        let d = depth as usize;
        while self.powers.len() <= d {
            let last = self.powers[self.powers.len() - 1];
            self.powers.push(last * self.decay);
        }
        self.powers[d]
    }

    /// Adds one occurrence of the feature `key` at `depth`.
    pub fn add(&mut self, key: &str, depth: u32) {
        let value = self.power(depth);
        let slot = match self.index.get(key) {
            Some(&slot) => slot,
            None => {
                let slot = self.slots.len();
                self.slots.push(Slot {
                    key: key.into(),
                    weight: 0.0,
                    counts: Vec::new(),
                });
                self.index.insert(key.into(), slot);
                slot
            }
        };
        let slot = &mut self.slots[slot];
        slot.weight += value;
        let d = depth as usize;
        if slot.counts.len() <= d {
            slot.counts.resize(d + 1, 0);
        }
        slot.counts[d] = slot.counts[d].saturating_add(1);
    }

    /// [`add`](Self::add) with `key` ASCII-lowercased first (allocates only if needed).
    pub fn add_lowercase(&mut self, key: &str, depth: u32) {
        if key.bytes().any(|b| b.is_ascii_uppercase()) {
            self.add(&key.to_ascii_lowercase(), depth);
        } else {
            self.add(key, depth);
        }
    }

    /// The simhash: features folded in byte order of their keys, weights summed in the
    /// order they were added.
    pub(crate) fn fingerprint(&self) -> Fingerprint {
        let mut order: Vec<&Slot> = self.slots.iter().collect();
        order.sort_unstable_by(|a, b| a.key.cmp(&b.key));
        let mut acc = Simhash::new();
        for slot in order {
            acc.add(fnv1_64(slot.key.as_bytes()), slot.weight);
        }
        acc.finish()
    }

    /// The decay-free summary of these features.
    pub(crate) fn into_profile(self) -> Profile {
        let entries: Vec<ProfileEntry> = self
            .slots
            .into_iter()
            .map(|s| ProfileEntry {
                key: s.key,
                counts: s
                    .counts
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c > 0)
                    .map(|(d, c)| (u32::try_from(d).unwrap_or(u32::MAX), *c))
                    .collect(),
            })
            .collect();
        Profile::from_entries(entries)
    }
}
