//! The crawl loop as a library, against a site on 127.0.0.1: what reaches the sink, what is
//! written, how a resumed or refused run ends.

mod site;

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

use silhouette_crawl::{
    CrawlConfig, CrawlJob, Error, Events, HasherConfig, Notice, PagesOutput, Progress, Seed,
    StoredRecord,
};
use site::Site;

/// Everything a crawl told its sink.
#[derive(Debug, Default)]
struct Recorder {
    /// (path, decision) of each committed record, in order.
    decisions: Vec<(String, String)>,
    notices: Vec<Notice>,
    progress: Vec<Progress>,
}

impl Events for Recorder {
    fn decision(&mut self, record: &StoredRecord) {
        let url = url::Url::parse(&record.url).expect("a URL");
        let decision = record.page.decision.as_str().to_owned();
        self.decisions.push((url.path().to_owned(), decision));
    }

    fn progress(&mut self, progress: &Progress) {
        self.progress.push(*progress);
    }

    fn notice(&mut self, notice: &Notice) {
        self.notices.push(notice.clone());
    }
}

fn job(seeds: &[String], state: &Path) -> CrawlJob {
    let mut config = CrawlConfig::default();
    config.fetch.host_request_interval = None;
    let hasher = silhouette_crawl::crawl_hasher(HasherConfig::default(), None).expect("hasher");
    let seeds = seeds.iter().map(Seed::new).collect();
    CrawlJob::new(config, hasher, state, seeds)
}

fn crawl(job: CrawlJob) -> (Result<silhouette_crawl::RunReport, Error>, Recorder) {
    let mut recorder = Recorder::default();
    let report = silhouette_crawl::run(job, &mut recorder);
    (report, recorder)
}

/// How many records had each decision.
fn count(decisions: &[(String, String)], decision: &str) -> usize {
    decisions.iter().filter(|(_, d)| d == decision).count()
}

#[test]
fn one_page_per_template_and_every_decision_reaches_the_sink() {
    // (product pages, pages kept: home, about, the first product page)
    for (products, kept) in [(1, 3), (12, 3), (40, 3)] {
        let site = Site::start(products);
        let dir = tempfile::tempdir().expect("tempdir");
        let (report, seen) = crawl(job(&[site.url()], dir.path()));
        let report = report.expect("the crawl ends");
        assert_eq!(count(&seen.decisions, "kept"), kept, "{products}: {seen:?}");
        assert_eq!(
            count(&seen.decisions, "near-duplicate"),
            products - 1,
            "{products}: {seen:?}"
        );
        assert_eq!(report.fetched, products as u64 + 2);
        assert_eq!(report.counts.kept, kept as u64);
        assert_eq!(report.counts.recorded, seen.decisions.len() as u64);
        // The sink saw what decisions.jsonl holds, in its order.
        let written = std::fs::read_to_string(silhouette_crawl::decisions_path(dir.path()))
            .expect("decisions.jsonl");
        let lines: Vec<(String, String)> = written
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
                let url = url::Url::parse(v["url"].as_str().expect("url")).expect("URL");
                let decision = v["decision"].as_str().expect("decision").to_owned();
                (url.path().to_owned(), decision)
            })
            .collect();
        assert_eq!(lines, seen.decisions);
        assert!(seen.progress.iter().all(|p| p.fetched <= report.fetched));
        assert!(seen.notices.is_empty(), "{:?}", seen.notices);
    }
}

#[test]
fn a_resumed_crawl_says_so_and_fetches_nothing_again() {
    let site = Site::start(5);
    let dir = tempfile::tempdir().expect("tempdir");
    let (first, _) = crawl(job(&[site.url()], dir.path()));
    assert!(!first.expect("first run").resumed);
    let (again, seen) = crawl(job(&[site.url()], dir.path()));
    let again = again.expect("second run");
    assert!(again.resumed);
    assert_eq!(again.fetched, 0);
    assert!(seen.decisions.is_empty(), "{:?}", seen.decisions);
    assert!(
        matches!(
            seen.notices.as_slice(),
            [Notice::Resuming { queued: 0, .. }]
        ),
        "{:?}",
        seen.notices
    );
}

#[test]
fn seeds_that_cannot_be_crawled_are_notices_or_refusals() {
    let site = Site::start(2);
    // (seeds, refused seeds noticed, whether the run is refused)
    let bad = "ftp://127.0.0.1/x".to_owned();
    for (seeds, noticed, refused) in [
        (vec![bad.clone(), site.url()], 1, false),
        (vec![bad.clone()], 1, true),
        (vec![], 0, true),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let (report, seen) = crawl(job(&seeds, dir.path()));
        let refusals = seen
            .notices
            .iter()
            .filter(|n| matches!(n, Notice::SeedRefused { .. }))
            .count();
        assert_eq!(refusals, noticed, "{seeds:?}: {:?}", seen.notices);
        match report {
            Err(Error::Refused(message)) if refused => {
                assert!(message.starts_with("no valid seed"), "{message}");
            }
            Ok(report) if !refused => assert_eq!(report.bad_seeds, noticed),
            other => panic!("{seeds:?}: {other:?}"),
        }
    }
}

#[test]
fn a_state_is_not_resumed_with_other_seeds_unless_asked() {
    let (one, two) = (Site::start(1), Site::start(2));
    let dir = tempfile::tempdir().expect("tempdir");
    crawl(job(&[one.url()], dir.path())).0.expect("first crawl");
    match crawl(job(&[two.url()], dir.path())).0 {
        Err(Error::Refused(message)) => assert!(message.contains("--add-seeds"), "{message}"),
        other => panic!("{other:?}"),
    }
    let added = CrawlJob {
        add_seeds: true,
        ..job(&[two.url()], dir.path())
    };
    let (report, seen) = crawl(added);
    // The added seed's site is crawled: its home, about and two product pages.
    assert_eq!(report.expect("added").fetched, 4, "{seen:?}");
    assert_eq!(seen.decisions.len(), 4, "{seen:?}");
}

/// A writer whose bytes the test reads back.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("lock").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn pages_go_to_a_stream_or_nowhere() {
    let site = Site::start(4);
    for to_stream in [true, false] {
        let dir = tempfile::tempdir().expect("tempdir");
        let stream = Shared::default();
        let output = to_stream.then(|| PagesOutput::Writer(Box::new(stream.clone())));
        let (report, _) = crawl(CrawlJob {
            output,
            ..job(&[site.url()], dir.path())
        });
        report.expect("the crawl ends");
        let bytes = stream.0.lock().expect("lock").clone();
        let lines = String::from_utf8(bytes).expect("UTF-8").lines().count();
        // With the default on-duplicate (drop), the pages output lists the kept pages.
        assert_eq!(lines, if to_stream { 3 } else { 0 });
        assert!(!silhouette_crawl::default_output(dir.path()).exists());
    }
}
