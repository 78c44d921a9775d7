//! The Redis backend against a real redis-server.

mod server;

use std::collections::HashSet;
use std::time::Duration;

use server::Server;
use silhouette_frontier::{DedupConfig, JudgedPage, SharedDedup, Verdict};
use silhouette_redis::{
    Finish, Head, Place, Requeued, Shapes, SharedConfig, SharedCrawl, SharedError,
};
use url::Url;

fn url(s: &str) -> Url {
    Url::parse(s).expect("valid URL")
}

fn config(lease_ms: u64, interval_ms: u64) -> SharedConfig {
    SharedConfig {
        lease: Duration::from_millis(lease_ms),
        host_interval: Duration::from_millis(interval_ms),
        ..SharedConfig::default()
    }
}

async fn join(server: &Server, params: &[(&str, String)], c: SharedConfig) -> SharedCrawl {
    SharedCrawl::join(&server.url(), "t", params, c)
        .await
        .expect("joins")
}

#[tokio::test]
async fn a_worker_with_other_settings_is_refused() {
    let server = Server::start();
    let ours = [
        ("fingerprint", "a".to_owned()),
        ("dedup.threshold", "5".to_owned()),
    ];
    join(&server, &ours, config(1000, 10)).await;
    join(&server, &ours, config(1000, 10)).await;
    let theirs = [
        ("fingerprint", "b".to_owned()),
        ("dedup.threshold", "5".to_owned()),
    ];
    let err = SharedCrawl::join(&server.url(), "t", &theirs, config(1000, 10))
        .await
        .expect_err("refused");
    assert!(matches!(err, SharedError::Mismatch { .. }));
    assert_eq!(
        err.to_string(),
        "crawl \"t\" was started with other settings; this worker is refused (fingerprint: crawl \"a\", worker \"b\"). Use the same settings, or another --crawl name"
    );
}

#[tokio::test]
async fn unreachable_redis_is_a_clear_error() {
    let port = server::free_port();
    let err = SharedCrawl::join(
        &format!("redis://127.0.0.1:{port}/0"),
        "t",
        &[],
        SharedConfig::default(),
    )
    .await
    .expect_err("nothing listens");
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "cannot connect to Redis at redis://127.0.0.1:{port}/0"
        )),
        "{text}"
    );
    let bad = SharedCrawl::join("http://x", "t", &[], SharedConfig::default()).await;
    assert!(matches!(bad, Err(SharedError::Url { .. })), "{bad:?}");
    let server = Server::start();
    let name = SharedCrawl::join(&server.url(), "a b", &[], SharedConfig::default()).await;
    assert!(matches!(name, Err(SharedError::CrawlName { .. })));
}

#[tokio::test]
async fn queue_lease_complete_once() {
    let server = Server::start();
    let mut w = join(&server, &[], config(300, 100)).await;
    let seeds = [url("http://a.test/"), url("http://b.test/")];
    assert_eq!(w.add_seeds(&seeds).await.expect("seeds"), 2);
    assert_eq!(w.add_seeds(&seeds).await.expect("seeds"), 0, "seen");
    assert_eq!(w.seeds().await.expect("seeds"), seeds.to_vec());
    let first = w.alloc(None, 2).await.expect("numbers").first;
    assert_eq!(first, 2, "after the two seeds");
    let links = [
        (url("http://a.test/x"), 1, first),
        (url("http://a.test/"), 1, first + 1),
    ];
    assert_eq!(
        w.enqueue(&links, Some("http://a.test/"), false)
            .await
            .expect("links"),
        1
    );

    // One lease per host per call, and a host waits its interval.
    let first = w.lease(8).await.expect("lease");
    let hosts: HashSet<&str> = first.iter().map(|l| l.host.as_str()).collect();
    assert_eq!(hosts, HashSet::from(["a.test", "b.test"]));
    assert!(
        w.lease(8).await.expect("lease").is_empty(),
        "both hosts busy"
    );

    // A lease that expires comes back; the record is written once.
    let a = first
        .iter()
        .find(|l| l.host == "a.test")
        .expect("a")
        .clone();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let again = w.lease(8).await.expect("lease");
    assert!(
        again.iter().any(|l| l.id == a.id),
        "expired lease returned: {again:?}"
    );
    assert!(
        w.complete(&a, "{\"first\":1}", "kept")
            .await
            .expect("record")
    );
    assert!(
        !w.complete(&a, "{\"second\":1}", "kept")
            .await
            .expect("record")
    );
    let (_, records) = w.records("a.test", 0).await.expect("records");
    assert_eq!(records, vec!["{\"first\":1}".to_owned()]);

    // Retry-After: back in the queue, then given up past the limit.
    let b = again
        .iter()
        .find(|l| l.host == "b.test")
        .expect("b")
        .clone();
    assert_eq!(
        w.later(&b, Duration::from_millis(50), 1)
            .await
            .expect("later"),
        Requeued::Queued(1)
    );
    assert_eq!(
        w.later(&b, Duration::from_millis(50), 1)
            .await
            .expect("later"),
        Requeued::GaveUp
    );

    // Ctrl-C: a lease handed back is the next one out.
    tokio::time::sleep(Duration::from_millis(150)).await;
    let mut got = w.lease(8).await.expect("lease");
    got.retain(|l| l.host == "a.test");
    assert_eq!(got.len(), 1);
    w.give_back(&got).await.expect("give back");
    tokio::time::sleep(Duration::from_millis(150)).await;
    let back = w.lease(8).await.expect("lease");
    assert!(back.iter().any(|l| l.id == got[0].id));
    let stats = w.stats().await.expect("stats");
    assert_eq!((stats.hosts, stats.seen, stats.workers_alive), (2, 3, 1));
    assert_eq!(stats.decisions.get("kept"), Some(&1));
}

#[tokio::test]
async fn a_renewed_lease_is_not_leased_again() {
    let server = Server::start();
    // Every script compiled when the worker joined (a refused one fails `join`).
    let mut w = join(&server, &[], config(2000, 0)).await;
    w.add_seeds(&[url("http://a.test/")]).await.expect("seeds");
    let lease = w.lease(1).await.expect("lease");
    assert_eq!(lease.len(), 1);
    // Past its lease time, renewed: it stays with this worker for another lease time.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    w.renew(&lease).await.expect("renewed");
    assert!(
        w.lease(1).await.expect("lease").is_empty(),
        "a renewed lease came back"
    );
}

fn head(host: &str, seq: u64) -> Option<Head> {
    Some(Head {
        host: host.to_owned(),
        seq,
    })
}

/// The canonical order: seeds first, a page's links numbered once however often it is
/// judged, the head the smallest number not recorded whoever records first, a stuck head
/// taken out of the order.
#[tokio::test]
async fn pages_take_turns_in_the_canonical_order() {
    let server = Server::start();
    let mut w = join(&server, &[], config(60_000, 0)).await;
    let seeds = [url("http://b.test/"), url("http://a.test/")];
    assert_eq!(w.add_seeds(&seeds).await.expect("seeds"), 2);
    assert_eq!(
        w.head().await.expect("head"),
        head("b.test", 0),
        "the first seed"
    );

    // A page's links get the same numbers however often it is judged.
    let numbers = w.alloc(Some(0), 3).await.expect("numbers");
    let first = numbers.first;
    assert_eq!((first, numbers.again), (2, false));
    let again = w.alloc(Some(0), 3).await.expect("numbers");
    assert_eq!((again.first, again.again), (first, true));
    assert_eq!(w.alloc(None, 1).await.expect("numbers").first, 5);

    let leases = w.lease(8).await.expect("lease");
    assert_eq!(leases.len(), 2);
    let b = leases
        .iter()
        .find(|l| l.host == "b.test")
        .expect("b")
        .clone();
    let a = leases
        .iter()
        .find(|l| l.host == "a.test")
        .expect("a")
        .clone();
    assert_eq!((b.seq, a.seq), (0, 1));
    let links = [(url("http://a.test/x"), 1, first + 1)];
    assert_eq!(
        w.enqueue(&links, Some("http://b.test/"), false)
            .await
            .expect("links"),
        1
    );
    // Recorded out of turn: the head stays.
    let done = w
        .complete_failing(&a, "{}", "kept", None, true)
        .await
        .expect("record");
    assert!(done.written);
    assert_eq!(done.heads.first, head("b.test", 0));
    assert_eq!(
        w.place("a.test", a.id).await.expect("place"),
        Place::Recorded
    );
    let done = w
        .complete_failing(&b, "{}", "kept", None, false)
        .await
        .expect("record");
    assert_eq!(done.heads.first, head("a.test", 3));
    let later = w.alloc(Some(0), 3).await.expect("numbers");
    assert_eq!(
        (later.first, later.again),
        (first, true),
        "judged again, later"
    );

    // A stuck head leaves the order; its page is judged out of order when fetched.
    let x = w.lease(8).await.expect("lease");
    assert_eq!(x.len(), 1);
    assert_eq!(
        w.place("a.test", x[0].id).await.expect("place"),
        Place::InOrder(3)
    );
    let now = w
        .release(&Head {
            host: "a.test".to_owned(),
            seq: 3,
        })
        .await
        .expect("release");
    assert_eq!(now.first, None);
    assert_eq!(
        w.place("a.test", x[0].id).await.expect("place"),
        Place::Late
    );
    // Recorded by a worker that thought it in order: the record says it was not.
    let done = w
        .complete_failing(&x[0], "{\"url\":\"x\"}", "kept", None, false)
        .await
        .expect("record");
    assert!(done.written);
    let (_, records) = w.records("a.test", 0).await.expect("records");
    assert!(
        records.contains(&"{\"url\":\"x\",\"out_of_order\":true}".to_owned()),
        "{records:?}"
    );
    let stats = w.stats().await.expect("stats");
    assert_eq!((stats.out_of_order, stats.queued, stats.leased), (2, 0, 0));
}

/// Three workers judge near-duplicate pages of one host at once, one page at a time or in
/// batches: one page per cluster is kept, whatever the interleaving.
#[tokio::test(flavor = "multi_thread", worker_threads = 3)]
async fn concurrent_workers_never_keep_two_near_duplicates() {
    let server = Server::start();
    let base: u64 = 0x8c3a_5f7e_9ecb_3f35;
    let mut tasks = Vec::new();
    for w in 0..3u64 {
        let url = server.url();
        tasks.push(tokio::spawn(async move {
            let crawl = SharedCrawl::join(&url, "t", &[], SharedConfig::default())
                .await
                .expect("joins");
            let mut log = crawl.log();
            let mut dedup = SharedDedup::new(DedupConfig::default(), "p").expect("valid");
            let mut kept = Vec::new();
            let pages: Vec<JudgedPage> = (0..40u64)
                .map(|i| {
                    // 8 structures far apart, 15 pages each (1-2 bits off), spread over workers.
                    let id = w * 1000 + i;
                    let bits = base.rotate_left(((i % 8) * 8) as u32) ^ (1 << (id % 2)) ^ (1 << w);
                    JudgedPage {
                        id,
                        url: format!("http://h/{id}"),
                        host: "h".to_owned(),
                        body_hash: u128::from(id),
                        fingerprint: Some(bits),
                        elements: 50,
                        summary: None,
                        content: silhouette_frontier::PageContent::default(),
                    }
                })
                .collect();
            // Worker 0 judges page by page, the others in batches (one append each when no
            // other worker logged meanwhile, else judged again one by one).
            let batch = [1, 3, 5][w as usize];
            for chunk in pages.chunks(batch) {
                let verdicts = dedup.judge_all(&mut log, chunk).await.expect("judged");
                for (page, v) in chunk.iter().zip(verdicts) {
                    if !v.verdict.is_duplicate() {
                        kept.push(page.fingerprint.unwrap_or_default());
                    }
                    if let Verdict::NearDuplicate { distance, .. } = v.verdict {
                        assert!(distance <= 5);
                    }
                }
            }
            kept
        }));
    }
    let mut kept = Vec::new();
    for t in tasks {
        kept.extend(t.await.expect("task"));
    }
    for (i, a) in kept.iter().enumerate() {
        for b in &kept[i + 1..] {
            assert!((a ^ b).count_ones() > 5, "{a:x} and {b:x} both kept");
        }
    }
    assert_eq!(kept.len(), 8, "one per structure");
}

/// Redis restarted with its append-only file: the same connection goes on, nothing lost.
#[tokio::test]
async fn commands_ride_out_a_restart() {
    let mut server = Server::start_with(true, &[]);
    let mut w = join(&server, &[], config(1000, 10)).await;
    assert_eq!(
        w.add_seeds(&[url("http://a.test/")]).await.expect("seeds"),
        1
    );
    server.restart();
    assert_eq!(
        w.add_seeds(&[url("http://a.test/")]).await.expect("seeds"),
        0,
        "seen"
    );
    let leases = w.lease(4).await.expect("lease");
    assert_eq!(leases.len(), 1);
    assert_eq!(leases[0].url.as_str(), "http://a.test/");
}

/// A page's turn ends with its links (its own host's queued with the record, another host's
/// just before); a page judged again after it was recorded logs nothing.
#[tokio::test]
async fn a_recorded_page_is_not_logged_again() {
    let server = Server::start();
    let mut w = join(&server, &[], config(60_000, 0)).await;
    w.add_seeds(&[url("http://a.test/")]).await.expect("seeds");
    let lease = w.lease(1).await.expect("lease").remove(0);
    let first = w.alloc(Some(lease.seq), 2).await.expect("numbers").first;
    let links = [
        (url("http://a.test/x"), 1, first),
        (url("http://b.test/"), 1, first + 1),
    ];
    let end = Finish {
        record: "{}",
        decision: "kept",
        backoff: None,
        late: false,
        links: &links,
        referrer: Some("http://a.test/"),
        again: false,
        shapes: Shapes::Off,
    };
    let done = w.finish(&lease, end).await.expect("recorded");
    assert!(done.written);
    assert_eq!(done.queued, 2);
    assert_eq!(done.next, vec![first], "the host's next number");
    assert_eq!(
        done.heads,
        vec![("b.test".to_owned(), first + 1)],
        "a new host"
    );

    let mut dedup = SharedDedup::new(DedupConfig::default(), "p").expect("valid");
    let page = JudgedPage {
        id: lease.id,
        url: lease.url.to_string(),
        host: "a.test".to_owned(),
        body_hash: 7,
        fingerprint: Some(0x8c3a),
        elements: 50,
        summary: None,
        content: silhouette_frontier::PageContent::default(),
    };
    let mut log = w.log();
    let judged = dedup.judge(&mut log, &page).await;
    assert!(
        matches!(judged, Err(SharedError::Recorded { .. })),
        "{judged:?}"
    );
}

/// Exploration in drop mode (`Shapes`): a page whose links are followed gives its host their
/// shapes; a duplicate's links are queued only for a shape the host has not had, the first
/// of each, up to `explore` per host; a link it leaves stays unseen.
#[tokio::test]
async fn a_duplicate_explores_only_new_url_shapes() {
    let server = Server::start();
    let mut w = seeded(&server).await;
    // /item/1, a duplicate exploring up to 2: an old shape, a new one twice, a seen URL of
    // a new shape (not counted), another new shape, one past the limit (held).
    let links = [
        ("/item/2", 11),
        ("/note/a", 22),
        ("/note/b", 22),
        ("/item/1", 55),
        ("/archive", 33),
        ("/z/1", 66),
    ];
    assert_eq!(end(&mut w, &links, Dup(2)).await, 2);
    // /note/a, a duplicate: the host has explored 2 already.
    assert_eq!(end(&mut w, &[("/y/1", 77)], Dup(2)).await, 0);
    // /archive, followed: what the duplicates left is unseen still, and queued now (the
    // held links among them too: seen when /archive gives its fetch back, so none is
    // queued twice).
    assert_eq!(
        end(
            &mut w,
            &[("/note/b", 22), ("/z/1", 66), ("/y/1", 77)],
            Kept(2)
        )
        .await,
        3
    );
}

/// An explored page that is kept gives its host's budget its fetch back, and the first
/// link held for want of room is queued, numbered after the page's links; one that is not
/// kept gives nothing back (`Frontier`'s `release_held`, the same crawl).
#[tokio::test]
async fn an_explored_page_that_is_kept_gives_its_fetch_back() {
    let server = Server::start();
    let mut w = seeded(&server).await;
    // /item/1, a duplicate exploring up to 1: /a/x queued, /b/x and /c/x held.
    let links = [("/a/x", 21), ("/b/x", 22), ("/c/x", 23)];
    assert_eq!(end(&mut w, &links, Dup(1)).await, 1);
    // /a/x is another kind: kept, it queues its own link and /b/x, after it.
    assert_eq!(end(&mut w, &[("/item/9", 11)], Kept(1)).await, 2);
    // /item/9 is followed, not explored: nothing back. /b/x, a duplicate of the item, keeps
    // nothing: /c/x stays held.
    assert_eq!(next_path(&mut w).await.as_deref(), Some("/item/9"));
    assert_eq!(end(&mut w, &[], Kept(1)).await, 0);
    assert_eq!(next_path(&mut w).await.as_deref(), Some("/b/x"));
    assert_eq!(end(&mut w, &[], Dup(1)).await, 0);
    assert_eq!(next_path(&mut w).await, None);
}

/// A refund passes over held links seen meanwhile, past the first 64 the script reads.
#[tokio::test]
async fn a_refund_passes_over_held_links_seen_meanwhile() {
    let server = Server::start();
    let mut w = seeded(&server).await;
    // /item/1, a duplicate exploring up to 20: /h/0 … /h/19 queued, /h/20 … /h/89 held.
    let paths: Vec<String> = (0..90).map(|i| format!("/h/{i}")).collect();
    let links: Vec<(&str, u64)> = paths
        .iter()
        .zip(100..)
        .map(|(p, s)| (p.as_str(), s))
        .collect();
    assert_eq!(end(&mut w, &links, Dup(20)).await, 20);
    // /h/0 is kept and links to /h/20 … /h/85: those 66 are queued, and its fetch back
    // queues /h/86, the first held link not seen.
    assert_eq!(end(&mut w, &links[20..86], Kept(20)).await, 67);
}

/// The path of the URL a lease would get next (the lease given back).
async fn next_path(w: &mut SharedCrawl) -> Option<String> {
    let lease = w.lease(1).await.expect("lease");
    w.give_back(&lease).await.expect("given back");
    lease.first().map(|l| l.url.path().to_owned())
}

/// How `end` ends a page: kept (its links followed), a duplicate exploring new shapes, or one
/// that only just joined its cluster; each with the host's exploration budget.
#[derive(Clone, Copy)]
enum How {
    Kept(u32),
    Dup(u32),
    Marginal(u32),
}
use How::{Dup, Kept, Marginal};

/// A crawl of `a.test` whose seed was followed: `/item/1` queued, its shape (11) the host's.
async fn seeded(server: &Server) -> SharedCrawl {
    let mut w = join(server, &[], config(60_000, 0)).await;
    w.add_seeds(&[url("http://a.test/")]).await.expect("seeds");
    assert_eq!(end(&mut w, &[("/item/1", 11)], Kept(2)).await, 1);
    w
}

/// Leases the next URL and ends it `how`, with links (path, shape) numbered from the page's
/// numbers (and one more for a held link); returns how many were queued.
async fn end(w: &mut SharedCrawl, links: &[(&str, u64)], how: How) -> usize {
    let lease = w.lease(1).await.expect("lease").remove(0);
    let first = w
        .alloc(Some(lease.seq), links.len() as u64 + 1)
        .await
        .expect("numbers")
        .first;
    let numbered: Vec<_> = links
        .iter()
        .zip(first..)
        .map(|((p, _), seq)| (url(&format!("http://a.test{p}")), 1, seq))
        .collect();
    let shapes: Vec<u64> = links.iter().map(|(_, s)| *s).collect();
    let release = first + links.len() as u64;
    let shapes = match how {
        Kept(explore) => Shapes::Note {
            shapes: &shapes,
            explore,
            release,
        },
        Dup(explore) => Shapes::Explore {
            shapes: &shapes,
            explore,
        },
        Marginal(explore) => Shapes::Unseen {
            shapes: &shapes,
            explore,
        },
    };
    let f = Finish {
        record: "{}",
        decision: if matches!(how, Kept(_)) {
            "kept"
        } else {
            "near-duplicate"
        },
        backoff: None,
        late: false,
        links: &numbered,
        referrer: Some(lease.url.as_str()),
        again: false,
        shapes,
    };
    w.finish(&lease, f).await.expect("recorded").queued
}

/// A duplicate that only just joined its cluster (`Shapes::Unseen`) queues every link not
/// seen, whatever its shape, each counted up to `most`; the shapes become the host's.
#[tokio::test]
async fn a_duplicate_that_only_just_joined_explores_every_unseen_link() {
    let server = Server::start();
    let mut w = seeded(&server).await;
    // /item/1 only just joined: an old shape, a seen URL (not counted), a new shape twice.
    let links = [
        ("/item/2", 11),
        ("/item/1", 11),
        ("/note/a", 22),
        ("/note/b", 22),
    ];
    assert_eq!(end(&mut w, &links, Marginal(8)).await, 3);
    // /item/2, a duplicate: shape 22 is the host's now; one new shape, then the limit.
    let links = [("/q/1", 22), ("/r/1", 88), ("/s/1", 99)];
    assert_eq!(end(&mut w, &links, Dup(4)).await, 1);
    // /note/a only just joined: the host has explored 4 (half of 8).
    assert_eq!(end(&mut w, &[("/t/1", 11)], Marginal(8)).await, 0);
}
