//! Single-core throughput (MB/s of input) over a corpus of real pages: `silhouette-dom`
//! against html5ever's tokenizer alone and against an rcdom tree with the same walk.
//!
//! `scripts/bench-dom.sh` installs the corpus (Debian's `python3.11-doc`, 530 Sphinx pages)
//! and runs this; every iteration processes the whole corpus, loaded into memory first.
//! Targets (issue #2): ours ≥ 0.70× the tokenizer, ≥ 1.4× the rcdom walk. `benches/ratios.rs`
//! prints those ratios from one interleaved run.

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use silhouette_dom::{FeatureSet, HasherConfig, StructureHasher};

fn throughput(c: &mut Criterion) {
    let pages = common::load_corpus();
    let hasher = StructureHasher::new(HasherConfig::for_model(FeatureSet::Classic))
        .expect("default config is valid");
    let decay = hasher.decay();
    // The baseline computes the same thing: check it once, page by page, before timing.
    for page in &pages {
        let ours = hasher.hash(&page.bytes).expect("parses");
        assert_eq!(ours.truncated, None, "{}", page.path.display());
        let theirs = common::rcdom_fingerprint(&page.bytes, decay);
        assert_eq!(
            (ours.fingerprint, ours.elements),
            theirs,
            "rcdom walk disagrees on {}",
            page.path.display()
        );
    }

    let mut group = c.benchmark_group("structure");
    group.throughput(Throughput::Bytes(common::corpus_bytes(&pages)));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(2));
    // One iteration is the whole corpus (1-3 s): 10 samples need ~30 s.
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("silhouette-dom", |b| {
        b.iter(|| {
            for page in &pages {
                black_box(hasher.hash(black_box(&page.bytes)).expect("parses"));
            }
        });
    });
    group.bench_function("html5ever-tokenizer", |b| {
        b.iter(|| {
            for page in &pages {
                black_box(common::tokenize(black_box(&page.bytes)));
            }
        });
    });
    group.bench_function("rcdom-walk", |b| {
        b.iter(|| {
            for page in &pages {
                black_box(common::rcdom_fingerprint(black_box(&page.bytes), decay));
            }
        });
    });
    group.finish();
}

criterion_group!(benches, throughput);
criterion_main!(benches);
