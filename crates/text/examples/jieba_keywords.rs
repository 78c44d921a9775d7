//! jieba-rs's own TF-IDF keywords for each text file given: the Rust side of
//! `scripts/jieba-check.sh`, which compares them with Python jieba's `extract_tags`.
//!
//! `cargo run --release -p silhouette-text --example jieba_keywords -- [--hmm] FILE...` prints,
//! per file, one line: the file name, then `word<TAB>weight` pairs for the top 20, all
//! tab-separated. jieba-rs's `TfIdf::default()`: the default IDF table and stop words, keywords
//! of at least 2 characters, HMM off unless `--hmm` is given.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a command-line example"
)]

use std::io::Write;

use jieba_rs::{Jieba, KeywordExtract, KeywordExtractConfig, TfIdf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let jieba = Jieba::new();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let hmm = args.first().is_some_and(|a| a == "--hmm");
    if hmm {
        args.remove(0);
    }
    let mut tfidf = TfIdf::default();
    *tfidf.config_mut() = KeywordExtractConfig::builder().use_hmm(hmm).build();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for path in args {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        let name = std::path::Path::new(&path)
            .file_name()
            .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned());
        write!(out, "{name}")?;
        for k in tfidf.extract_keywords(&jieba, &text, 20, vec![]) {
            write!(out, "\t{}\t{:?}", k.keyword, k.weight)?;
        }
        writeln!(out)?;
    }
    Ok(())
}
