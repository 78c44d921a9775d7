use std::time::Duration;

use proptest::prelude::*;

use super::*;

fn entry(url: &str, depth: u32) -> QueueEntry {
    match Url::parse(url) {
        Ok(url) => QueueEntry::new(url, depth, None),
        Err(err) => panic!("{url:?}: {err}"),
    }
}

/// Pops everything ready at `now`, as `host/path` strings.
fn drain(queues: &mut HostQueues, now: Instant) -> Vec<String> {
    let mut out = Vec::new();
    while let Some(e) = queues.pop_ready(now) {
        out.push(format!(
            "{}{}",
            e.url.host_str().unwrap_or_default(),
            e.url.path()
        ));
    }
    out
}

fn queues_with(urls: &[(&str, u32)]) -> HostQueues {
    let mut queues = HostQueues::new();
    for (url, depth) in urls {
        queues.push(entry(url, *depth));
    }
    queues
}

#[test]
fn hosts_take_turns() {
    let mut urls = Vec::new();
    for i in 0..5 {
        urls.push((format!("http://big/{i}"), 1));
    }
    urls.push(("http://small/0".to_owned(), 1));
    urls.push(("http://mid/0".to_owned(), 1));
    urls.push(("http://mid/1".to_owned(), 1));
    urls.push(("http://small/1".to_owned(), 1));
    let urls: Vec<(&str, u32)> = urls.iter().map(|(u, d)| (u.as_str(), *d)).collect();
    let mut queues = queues_with(&urls);
    assert_eq!(
        (queues.len(), queues.host_count(), queues.host_len("big")),
        (9, 3, 5)
    );
    let now = Instant::now();
    assert_eq!(
        drain(&mut queues, now),
        [
            "big/0", "small/0", "mid/0", "big/1", "small/1", "mid/1", "big/2", "big/3", "big/4"
        ]
    );
    assert!(queues.is_empty());
    assert_eq!(queues.next_ready_at(now), None);
}

#[test]
fn hosts_that_are_not_ready_are_skipped() {
    let t0 = Instant::now();
    let secs = |s: u64| t0 + Duration::from_secs(s);
    let mut queues = queues_with(&[
        ("http://slow/0", 0),
        ("http://slow/1", 0),
        ("http://fast/0", 0),
        ("http://fast/1", 0),
        ("http://fast/2", 0),
    ]);
    queues.set_next_allowed("slow", secs(10));
    assert_eq!(queues.next_allowed("slow"), Some(secs(10)));
    assert_eq!(queues.next_allowed("nowhere"), None);
    assert_eq!(drain(&mut queues, t0), ["fast/0", "fast/1", "fast/2"]);
    assert_eq!(queues.next_ready_at(t0), Some(secs(10)));
    assert_eq!(drain(&mut queues, secs(9)), Vec::<String>::new());
    // Ready at exactly its instant; one entry, then the caller spaces it again.
    assert_eq!(
        queues
            .pop_ready(secs(10))
            .map(|e| e.url.path().to_owned())
            .as_deref(),
        Some("/0")
    );
    queues.set_next_allowed("slow", secs(20));
    queues.push(entry("http://fast/3", 0));
    assert_eq!(queues.next_ready_at(secs(10)), Some(secs(10)));
    assert_eq!(drain(&mut queues, secs(10)), ["fast/3"]);
    assert_eq!(queues.next_ready_at(secs(10)), Some(secs(20)));
    // Moving the instant earlier takes effect (the old timer is stale).
    queues.set_next_allowed("slow", secs(15));
    assert_eq!(drain(&mut queues, secs(15)), ["slow/1"]);
    // The stale timer at 20 s may cause one early wake-up, no more.
    assert_eq!(queues.next_ready_at(secs(15)), Some(secs(20)));
    assert_eq!(drain(&mut queues, secs(20)), Vec::<String>::new());
    assert_eq!(queues.next_ready_at(secs(20)), None);
}

#[test]
fn held_hosts_wait_for_release() {
    let t0 = Instant::now();
    let mut queues = queues_with(&[("http://a/0", 0), ("http://a/1", 0), ("http://b/0", 0)]);
    assert_eq!(
        queues
            .pop_ready(t0)
            .map(|e| e.url.path().to_owned())
            .as_deref(),
        Some("/0")
    );
    queues.hold("a");
    assert_eq!(drain(&mut queues, t0), ["b/0"]);
    assert_eq!(queues.next_ready_at(t0), None);
    assert_eq!(queues.host_len("a"), 1);
    queues.set_next_allowed("a", t0 + Duration::from_secs(1));
    assert_eq!(drain(&mut queues, t0), Vec::<String>::new());
    assert_eq!(drain(&mut queues, t0 + Duration::from_secs(1)), ["a/1"]);

    // A hold before any push, and a hold while waiting.
    queues.hold("c");
    queues.push(entry("http://c/0", 0));
    queues.push(entry("http://d/0", 0));
    queues.set_next_allowed("d", t0 + Duration::from_secs(5));
    assert_eq!(drain(&mut queues, t0), Vec::<String>::new());
    queues.hold("d");
    assert_eq!(
        drain(&mut queues, t0 + Duration::from_secs(9)),
        Vec::<String>::new()
    );
    queues.set_next_allowed("c", t0);
    queues.set_next_allowed("d", t0);
    assert_eq!(drain(&mut queues, t0), ["c/0", "d/0"]);
}

#[test]
fn breadth_first_within_a_host() {
    let mut queues = queues_with(&[
        ("http://h/d2a", 2),
        ("http://h/d1a", 1),
        ("http://h/d3", 3),
        ("http://h/d1b", 1),
        ("http://h/d0", 0),
        ("http://h/d2b", 2),
    ]);
    assert_eq!(
        drain(&mut queues, Instant::now()),
        ["h/d0", "h/d1a", "h/d1b", "h/d2a", "h/d2b", "h/d3"]
    );
}

#[test]
fn entries_keep_their_fields() {
    let mut queues: HostQueues<&str> = HostQueues::new();
    let referrer = Url::parse("http://h/").ok();
    let Ok(url) = Url::parse("http://h/x") else {
        panic!("url");
    };
    let pushed = QueueEntry {
        url,
        depth: 4,
        referrer,
        payload: "anchor text",
    };
    queues.push(pushed.clone());
    assert_eq!(queues.pop_ready(Instant::now()), Some(pushed));
}

proptest! {
    /// Every entry comes out exactly once, hosts alternate while they all
    /// have work, and each host's entries come out by depth, then push order.
    #[test]
    fn model(pushes in prop::collection::vec((0u8..4, 0u32..4), 0..60)) {
        let mut queues = HostQueues::new();
        for (i, (host, depth)) in pushes.iter().enumerate() {
            queues.push(entry(&format!("http://h{host}/{i}"), *depth));
        }
        prop_assert_eq!(queues.len(), pushes.len());
        let mut popped = Vec::new();
        while let Some(e) = queues.pop_ready(Instant::now()) {
            popped.push(e);
        }
        prop_assert!(queues.is_empty());
        prop_assert_eq!(popped.len(), pushes.len());
        for host in 0..4u8 {
            let name = format!("h{host}");
            let got: Vec<(u32, usize)> = popped
                .iter()
                .filter(|e| e.url.host_str() == Some(name.as_str()))
                .map(|e| (e.depth, e.url.path()[1..].parse().unwrap_or(usize::MAX)))
                .collect();
            let mut expected = got.clone();
            expected.sort_unstable();
            prop_assert_eq!(got, expected);
        }
        // Round-robin: in the first `k * hosts` pops, no host gets more than k + 1.
        let hosts: Vec<&str> = popped.iter().filter_map(|e| e.url.host_str()).collect();
        let mut distinct = hosts.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for (i, host) in hosts.iter().enumerate() {
            *counts.entry(host).or_default() += 1;
            let round = i / distinct.len().max(1);
            let remaining = hosts[i..].iter().collect::<std::collections::HashSet<_>>().len();
            if remaining == distinct.len() {
                prop_assert!(counts[host] <= round + 1, "{:?}", hosts);
            }
        }
    }
}
