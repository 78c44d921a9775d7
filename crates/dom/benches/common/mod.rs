//! Shared by the `throughput`, `ratios` and `heap` bench binaries (the corpus and the two
//! baselines `silhouette-dom` is measured against) and by `tests/props.rs` (the rcdom walk,
//! as an independent oracle).
//!
//! - [`tokenize`]: html5ever's tokenizer alone, with a no-op `TokenSink`, fed exactly as
//!   `StructureHasher::hash` feeds its parser (4 KiB of bytes at a time, decoded by
//!   `encoding_rs` into a `StrTendril`).
//! - [`rcdom_fingerprint`]: html5ever's full tree construction into `markup5ever_rcdom`, fed
//!   the same way, then a walk computing the same classic fingerprint (tag names weighted by
//!   `decay^depth`, template contents walked first, the fold of `silhouette_simhash`). Only
//!   the tree differs from ours.

#![allow(
    dead_code,
    reason = "each bench binary uses a different part of this module"
)]

use std::path::{Path, PathBuf};

use encoding_rs::{CoderResult, Encoding};
use fnv::FnvHashMap;
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tokenizer::{
    BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::{ParseOpts, TokenizerResult, parse_document};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use silhouette_simhash::{Fingerprint, Simhash, fnv1_64};

/// Where the corpus is (Debian's `python3.11-doc`); `SILHOUETTE_BENCH_CORPUS` overrides it.
pub const DEFAULT_CORPUS: &str = "/usr/share/doc/python3.11/html";

/// Bytes per feed, as in `silhouette-dom`'s hasher.
pub const CHUNK: usize = 4096;

/// One page of the corpus, in memory.
#[derive(Debug)]
pub struct Page {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

/// Every `*.html` file under the corpus directory, sorted by path, read into memory.
///
/// # Panics
/// If the directory cannot be read or holds no page: run `scripts/bench-dom.sh`, which
/// installs the corpus.
pub fn load_corpus() -> Vec<Page> {
    let root = std::env::var_os("SILHOUETTE_BENCH_CORPUS")
        .map_or_else(|| PathBuf::from(DEFAULT_CORPUS), PathBuf::from);
    let mut paths = Vec::new();
    collect(&root, &mut paths);
    paths.sort();
    let pages: Vec<Page> = paths
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            Page { path, bytes }
        })
        .collect();
    assert!(
        !pages.is_empty(),
        "no *.html under {} (run scripts/bench-dom.sh, which installs python3.11-doc)",
        root.display()
    );
    pages
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path);
        }
    }
}

/// Total bytes of the corpus.
pub fn corpus_bytes(pages: &[Page]) -> u64 {
    pages.iter().map(|p| p.bytes.len() as u64).sum()
}

/// Decodes `bytes` (UTF-8, as the whole corpus is) 4 KiB at a time into `StrTendril`s handed
/// to `feed`: the loop of `silhouette-dom`'s hasher, without its guard.
pub fn feed_decoded(bytes: &[u8], mut feed: impl FnMut(StrTendril)) {
    let encoding: &'static Encoding = encoding_rs::UTF_8;
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut text = String::with_capacity(CHUNK * 3 + 16);
    let mut chunks = bytes.chunks(CHUNK).peekable();
    while let Some(chunk) = chunks.next() {
        let last = chunks.peek().is_none();
        let mut src = chunk;
        loop {
            let (result, read, _) = decoder.decode_to_string(src, &mut text, last);
            src = &src[read..];
            if !text.is_empty() {
                feed(StrTendril::from_slice(&text));
                text.clear();
            }
            if result == CoderResult::InputEmpty {
                break;
            }
        }
    }
}

/// A token sink that drops every token.
#[derive(Debug, Default)]
struct NoopSink;

impl TokenSink for NoopSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        drop(token);
        TokenSinkResult::Continue
    }
}

/// Tokenizes `bytes` with html5ever's tokenizer alone; returns the number of feeds (so the
/// work cannot be optimised away).
pub fn tokenize(bytes: &[u8]) -> usize {
    let tokenizer = Tokenizer::new(NoopSink, TokenizerOpts::default());
    let queue = BufferQueue::default();
    let mut feeds = 0;
    feed_decoded(bytes, |t| {
        feeds += 1;
        queue.push_back(t);
        while let TokenizerResult::Script(()) = tokenizer.feed(&queue) {}
    });
    tokenizer.end();
    feeds
}

/// The classic fingerprint of `bytes` through `markup5ever_rcdom`, and its element count.
pub fn rcdom_fingerprint(bytes: &[u8], decay: f64) -> (Fingerprint, u64) {
    let mut parser = parse_document(RcDom::default(), ParseOpts::default());
    feed_decoded(bytes, |t| parser.process(t));
    let dom = parser.finish();
    fingerprint_of(&dom.document, decay)
}

/// The same, with the whole page handed to the parser at once (no chunks, no decoder): the
/// oracle of `tests/props.rs`.
pub fn rcdom_fingerprint_whole(text: &str, decay: f64) -> (Fingerprint, u64) {
    let dom = parse_document(RcDom::default(), ParseOpts::default()).one(text);
    fingerprint_of(&dom.document, decay)
}

/// ALGORITHM.md §2 over an rcdom tree: iterative pre-order, template contents before the
/// template's own children, weights summed per lower-case tag name in document order,
/// folded in key order.
fn fingerprint_of(document: &Handle, decay: f64) -> (Fingerprint, u64) {
    let mut powers = vec![1.0f64];
    let mut weights: FnvHashMap<String, f64> = FnvHashMap::default();
    let mut elements = 0u64;
    let mut stack: Vec<(Handle, usize)> = Vec::new();
    push_children(document, 1, &mut stack);
    while let Some((node, depth)) = stack.pop() {
        let NodeData::Element {
            name,
            template_contents,
            ..
        } = &node.data
        else {
            continue;
        };
        elements += 1;
        while powers.len() <= depth {
            let last = powers[powers.len() - 1];
            powers.push(last * decay);
        }
        let local: &str = &name.local;
        let lower;
        let key = if local.bytes().any(|b| b.is_ascii_uppercase()) {
            lower = local.to_ascii_lowercase();
            &lower
        } else {
            local
        };
        match weights.get_mut(key) {
            Some(w) => *w += powers[depth],
            None => {
                weights.insert(key.to_owned(), powers[depth]);
            }
        }
        push_children(&node, depth + 1, &mut stack);
        if let Some(contents) = template_contents.borrow().as_ref() {
            push_children(contents, depth + 1, &mut stack);
        }
    }
    let mut order: Vec<(String, f64)> = weights.into_iter().collect();
    order.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut acc = Simhash::new();
    for (key, weight) in order {
        acc.add(fnv1_64(key.as_bytes()), weight);
    }
    (acc.finish(), elements)
}

fn push_children(node: &Handle, depth: usize, stack: &mut Vec<(Handle, usize)>) {
    for child in node.children.borrow().iter().rev() {
        stack.push((child.clone(), depth));
    }
}
