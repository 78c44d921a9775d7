//! What the content signal costs per page: the structure fingerprint alone, against the same
//! parse collecting the main-content text, and that plus the content fingerprint (default
//! `[content]`), on real pages: Debian's `python3.11-doc` and `cppreference-doc-en-html`
//! (`scripts/bench-content.sh` installs them and runs this).
//!
//! Each round runs every variant over every page of a corpus, one variant after the other
//! (interleaved rounds, so load swings hit all variants alike); the figure is the median round's
//! CPU time of this thread (`cpu-time`'s `ThreadTime`) per page. Environment:
//! `SILHOUETTE_BENCH_ROUNDS` (default 7), `SILHOUETTE_BENCH_PAGES` (pages per corpus, default
//! 600), `SILHOUETTE_BENCH_ONLY=TEXT` (only the variants whose label holds TEXT, for profiling;
//! `=LABEL`: only the variant labelled exactly LABEL; either skips the tokenizers' figures).
//!
//! Then the tokenizers' throughput against jieba-rs's own `cut` alone, measured the same way
//! (interleaved rounds, thread CPU time, median round), on the first 2 MB of the Chinese Debian
//! Reference (`debian-reference-zh-cn`'s plain-text edition) and of the Python 3.11 docs'
//! `_sources/*.txt`: a ratio that holds under load, unlike wall-clock figures
//! (`benches/tokenize.rs` is the criterion version).
//!
//! `cargo bench -p silhouette-text --bench content_cost`

#![allow(
    clippy::print_stdout,
    clippy::expect_used,
    clippy::cast_precision_loss,
    reason = "a bench binary: printing its figures is its job"
)]

use std::hint::black_box;
use std::path::{Path, PathBuf};

use silhouette_dom::{HasherConfig, StructureHasher};
use silhouette_text::{ContentConfig, ContentHasher, Tokenizer};

#[path = "common/corpus.rs"]
mod common;

fn pages(root: &Path, cap: usize) -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for p in entries.flatten().map(|e| e.path()) {
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "html") {
                files.push(p);
            }
        }
    }
    files.sort();
    // Every k-th page, so that a cap still spreads over the whole corpus.
    let step = files.len().div_ceil(cap.max(1)).max(1);
    files
        .iter()
        .step_by(step)
        .filter_map(|p: &PathBuf| std::fs::read(p).ok())
        .collect()
}

/// The median of `rounds` interleaved rounds of each variant, in seconds of thread CPU time.
fn interleaved(rounds: usize, variants: &[&dyn Fn()]) -> Vec<f64> {
    let mut times = vec![Vec::new(); variants.len()];
    for _ in 0..rounds {
        for (v, run) in variants.iter().enumerate() {
            let start = cpu_time::ThreadTime::now();
            run();
            times[v].push(start.elapsed());
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort();
            t[t.len() / 2].as_secs_f64()
        })
        .collect()
}

fn tokenizers(rounds: usize) {
    let jieba = jieba_rs::Jieba::new();
    for (name, text) in [("zh", common::chinese()), ("en", common::english())] {
        let variants: [(&str, &dyn Fn()); 5] = [
            ("jieba-rs cut (baseline)", &|| {
                black_box(jieba.cut(black_box(&text), false).len());
            }),
            ("silhouette jieba, words()", &|| {
                black_box(Tokenizer::Jieba.words(black_box(&text)).len());
            }),
            ("silhouette jieba, tokenize() (a String per word)", &|| {
                black_box(Tokenizer::Jieba.tokenize(black_box(&text)).len());
            }),
            ("silhouette unicode, words()", &|| {
                black_box(Tokenizer::Unicode.words(black_box(&text)).len());
            }),
            ("silhouette unicode, tokenize()", &|| {
                black_box(Tokenizer::Unicode.tokenize(black_box(&text)).len());
            }),
        ];
        let runs: Vec<&dyn Fn()> = variants.iter().map(|(_, f)| *f).collect();
        let secs = interleaved(rounds, &runs);
        let mb = text.len() as f64 / 1e6;
        println!("tokenizers, {name}: {mb:.1} MB, {rounds} rounds");
        for ((label, _), s) in variants.iter().zip(&secs) {
            println!(
                "  {label:<48} {:>7.1} MB/s CPU  {:>5.2}× jieba-rs cut",
                mb / s,
                secs[0] / s
            );
        }
    }
}

fn main() {
    let rounds: usize = std::env::var("SILHOUETTE_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7);
    let cap: usize = std::env::var("SILHOUETTE_BENCH_PAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    let structure = StructureHasher::new(HasherConfig::default()).expect("default config");
    let mut with_text_config = HasherConfig::default();
    with_text_config.limits.max_text_bytes = silhouette_dom::DEFAULT_MAX_TEXT_BYTES;
    let with_text = StructureHasher::new(with_text_config).expect("default config");
    let content = ContentHasher::new(ContentConfig::default()).expect("default config");
    let _ = content.fingerprint("预热 warm up"); // jieba's dictionary, outside the timing
    let no_signature = ContentHasher::new(ContentConfig {
        signature_top_n: 0,
        ..ContentConfig::default()
    })
    .expect("valid config");
    for (name, root) in [
        ("python3.11-doc", "/usr/share/doc/python3.11/html"),
        ("cppreference", "/usr/share/cppreference/doc/html/en"),
    ] {
        let corpus = pages(Path::new(root), cap);
        assert!(
            !corpus.is_empty(),
            "no pages under {root}: run scripts/bench-content.sh"
        );
        let bytes: usize = corpus.iter().map(Vec::len).sum();
        let texts: Vec<String> = corpus
            .iter()
            .map(|p| {
                with_text
                    .hash(p)
                    .ok()
                    .and_then(|s| s.text)
                    .unwrap_or_default()
            })
            .collect();
        let text_bytes: usize = texts.iter().map(String::len).sum();
        let variants: [(&str, &dyn Fn(usize)); 6] = [
            ("structure alone", &|i| {
                black_box(structure.hash(&corpus[i]).ok());
            }),
            ("structure + text", &|i| {
                black_box(with_text.hash(&corpus[i]).ok());
            }),
            ("structure + text + content fingerprint", &|i| {
                let s = with_text.hash(&corpus[i]).ok();
                let text = s.as_ref().and_then(|s| s.text.as_deref()).unwrap_or("");
                black_box(content.fingerprint(text));
            }),
            ("content fingerprint alone (of the text)", &|i| {
                black_box(content.fingerprint(&texts[i]));
            }),
            ("  of which: without the signature", &|i| {
                black_box(no_signature.fingerprint(&texts[i]));
            }),
            ("  of which: the words alone (Tokenizer::words)", &|i| {
                black_box(Tokenizer::Auto.words(&texts[i]).len());
            }),
        ];
        let n = corpus.len();
        // SILHOUETTE_BENCH_ONLY=TEXT runs only the variants whose label holds TEXT (profiling).
        let only = std::env::var("SILHOUETTE_BENCH_ONLY").unwrap_or_default();
        let runs: Vec<Box<dyn Fn() + '_>> = variants
            .iter()
            .map(|&(label, run)| {
                let on = only
                    .strip_prefix('=')
                    .map_or_else(|| label.contains(only.as_str()), |exact| label == exact);
                Box::new(move || (0..n).filter(|_| on).for_each(run)) as Box<dyn Fn() + '_>
            })
            .collect();
        let refs: Vec<&dyn Fn()> = runs.iter().map(|b| &**b).collect();
        let secs = interleaved(rounds, &refs);
        println!(
            "{name}: {} pages, {:.1} MB of HTML, {:.1} MB of main-content text, {rounds} rounds",
            corpus.len(),
            bytes as f64 / 1e6,
            text_bytes as f64 / 1e6
        );
        let per_page = |v: usize| secs[v] * 1e6 / corpus.len() as f64;
        let base = per_page(0);
        for (v, (label, _)) in variants.iter().enumerate() {
            let us = per_page(v);
            println!(
                "  {label:<42} {us:>8.1} µs CPU/page  {:>5.3}× structure alone",
                us / base
            );
        }
    }
    // Profiling one variant: the tokenizers' figures would only blur its profile.
    if std::env::var_os("SILHOUETTE_BENCH_ONLY").is_none() {
        tokenizers(rounds);
    }
}
