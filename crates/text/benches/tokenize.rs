//! Tokenizer throughput (MB/s of input text) against jieba-rs's own `cut` alone, on real text:
//! the Chinese Debian Reference (`debian-reference-zh-cn`'s plain-text edition) and the English
//! reStructuredText sources of the Python 3.11 documentation (`python3.11-doc`), capped at
//! 2 MB each. `scripts/bench-content.sh` installs the packages and runs this (with the
//! interleaved CPU-time ratios of `benches/content_cost.rs`, the figures BENCHMARKS.md quotes).
//!
//! `cargo bench -p silhouette-text --bench tokenize`

#![allow(
    clippy::print_stdout,
    clippy::expect_used,
    reason = "a bench binary: printing its figures is its job"
)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use silhouette_text::Tokenizer;

#[path = "common/corpus.rs"]
mod common;
use common::{chinese, english};

fn bench(c: &mut Criterion) {
    let jieba = jieba_rs::Jieba::new();
    let _ = Tokenizer::Jieba.tokenize("预热"); // load the shared dictionary outside the timing
    for (name, text) in [("zh", chinese()), ("en", english())] {
        let mut g = c.benchmark_group(format!("tokenize-{name}"));
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.sample_size(10);
        g.bench_function("jieba-rs cut (baseline)", |b| {
            b.iter(|| black_box(jieba.cut(black_box(&text), false).len()));
        });
        g.bench_function("silhouette jieba", |b| {
            b.iter(|| black_box(Tokenizer::Jieba.tokenize(black_box(&text)).len()));
        });
        g.bench_function("silhouette jieba, words()", |b| {
            b.iter(|| black_box(Tokenizer::Jieba.words(black_box(&text)).len()));
        });
        g.bench_function("silhouette unicode, words()", |b| {
            b.iter(|| black_box(Tokenizer::Unicode.words(black_box(&text)).len()));
        });
        g.bench_function("silhouette jieba, words not collected", |b| {
            b.iter(|| {
                let mut n = 0usize;
                Tokenizer::Jieba.for_each_word(black_box(&text), |_| n += 1);
                black_box(n)
            });
        });
        g.bench_function("silhouette unicode", |b| {
            b.iter(|| black_box(Tokenizer::Unicode.tokenize(black_box(&text)).len()));
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
