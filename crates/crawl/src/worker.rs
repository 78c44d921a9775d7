//! `crawl --redis URL --crawl NAME`: one worker of a crawl shared through Redis. It fetches
//! and fingerprints as the single-process crawl does (`engine::fetch_one`), judges through
//! the shared dedup log (`SharedDedup`), and keeps queues, leases and records in Redis.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use silhouette_dom::StructureHasher;
use silhouette_fetch::Fetcher;
use silhouette_frontier::{
    Decision, Explore, Fetched, HtmlPage, Job, JudgedPage, OnDuplicate, PageRecord, Scope,
    SharedDedup, SharedVerdict, StoredRecord, TrapGuard, Verdict, base_url, canonicalize,
    explored_links, host_port, page_record, parse_canonical, resolve_link, shape_key,
};
use silhouette_redis::{Lease, Requeued, Shapes, SharedCrawl, SharedError, SharedStats};
use silhouette_text::ContentHasher;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use url::Url;

use crate::config::{ClusterConfig, CrawlConfig, WarcConfig, WarcRecords};
use crate::engine::{
    RunReport, Signals, fetch_one, private_seed_host, redirect_context, state_params,
};
use crate::error::{Context, Error, Result, refuse};
use crate::events::{Events, Notice};
use crate::seeds::Seed;
use crate::warc_out::Capture;
use crate::worker_judge::Judge;
use crate::worker_order::{Turn, Turns};
use crate::worker_robots::RobotsShare;
use crate::worker_warc::SharedWarc;

/// A worker's WARC files, shared by its page tasks (one page written at a time).
type Warc = Arc<tokio::sync::Mutex<SharedWarc>>;

/// What a worker of a shared crawl needs. Every worker of one crawl must have the same
/// settings that decide (the crawl refuses others: [`silhouette_redis::SharedError::Mismatch`]).
#[derive(Debug)]
pub struct WorkerJob {
    /// How to fetch and decide.
    pub settings: CrawlConfig,
    /// The structure fingerprint.
    pub hasher: StructureHasher,
    /// The content signal's hasher; `None`: no content signal.
    pub content: Option<Arc<ContentHasher>>,
    /// Where the shared crawl is.
    pub cluster: ClusterConfig,
    /// Seeds to add to the shared crawl (it may have them already).
    pub seeds: Vec<Seed>,
    /// This worker's pages as WARC files of its own.
    pub warc: Option<WarcConfig>,
    /// Stop on Ctrl-C and SIGTERM (leases still being fetched are handed back); a second
    /// signal ends the worker at once with [`Error::Interrupted`].
    pub stop_on_signals: bool,
}

/// How a worker's run ended.
#[derive(Debug)]
#[non_exhaustive]
pub struct WorkerReport {
    /// This worker's part (its counts are not kept: see `stats`).
    pub run: RunReport,
    /// The shared crawl's figures when the worker left.
    pub stats: SharedStats,
    /// The worker's name in the shared crawl.
    pub worker: String,
    /// Redis round trips, all of them and those of the shared dedup.
    pub round_trips: (u64, u64),
    /// Pages judged again after another worker's decision.
    pub judged_again: u64,
}

/// Runs a worker on a new tokio runtime until the shared crawl has nothing left (or a
/// signal, with [`WorkerJob::stop_on_signals`]). A worker's decisions go to the shared crawl
/// (read them back with [`export_shared`](crate::export_shared)); `events` gets its notices.
pub fn run_worker(job: WorkerJob, events: &mut dyn Events) -> Result<WorkerReport> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    rt.block_on(work(job, events))
}

async fn work(job: WorkerJob, events: &mut dyn Events) -> Result<WorkerReport> {
    let WorkerJob {
        settings,
        hasher,
        content,
        cluster,
        seeds,
        warc,
        stop_on_signals,
    } = job;
    let params = state_params(&settings, &hasher, content.as_ref());
    let cluster = cluster.with_crawl(&settings);
    let mut shared = SharedCrawl::join(
        &cluster.url,
        &cluster.crawl,
        &params,
        cluster.shared.clone(),
    )
    .await?;
    let mut report = RunReport::default();
    let warc_records = warc.as_ref().map_or(WarcRecords::Kept, |w| w.records);
    let warc: Option<Warc> = match warc {
        Some(w) => {
            let records = w.records;
            let mut info = crate::warc_out::info(&settings, records, &params);
            info.push(("worker".to_owned(), shared.worker().to_owned()));
            let opened = SharedWarc::open(w, info, &cluster.crawl, &mut shared, events).await?;
            Some(Arc::new(tokio::sync::Mutex::new(opened)))
        }
        None => None,
    };
    let mut canonical = Vec::new();
    for seed in &seeds {
        match parse_canonical(seed.url.trim(), &settings.frontier.canon) {
            Ok(url) => canonical.push(url),
            Err(e) => {
                report.bad_seeds += 1;
                events.notice(&Notice::SeedRefused {
                    url: seed.url.clone(),
                    origin: seed.origin.clone(),
                    error: e.to_string(),
                });
            }
        }
    }
    shared.add_seeds(&canonical).await?;
    let mut seed_urls = shared.seeds().await?;
    if seed_urls.is_empty() {
        refuse!(
            "the shared crawl {:?} has no seeds yet: give URLs or a seeds file",
            cluster.crawl
        );
    }
    let mut fetch_config = settings.fetch.clone();
    fetch_config
        .address_policy
        .allowed_hosts
        .extend(seed_urls.iter().filter_map(private_seed_host));
    let fetcher = Fetcher::new(fetch_config).context("cannot start the fetcher")?;
    let mode = settings.frontier.scope.mode;
    let mut ctx = redirect_context(&seed_urls, mode);
    let scope = Scope::new(&settings.frontier.scope)?;
    let traps = TrapGuard::new(settings.frontier.traps.clone());
    let dedup = SharedDedup::new(settings.frontier.dedup, &hasher.params())?;
    let judge = Arc::new(Judge::new(dedup, shared.log()));
    let robots = RobotsShare::new(shared.robots());
    let worker = Arc::new(Worker {
        settings: settings.clone(),
        scope,
        traps,
        warc_records,
    });
    // The sitemaps' URLs come right after the seeds in the canonical order: no page is
    // judged before they are queued (by the first worker; another takes the task over if
    // that one dies).
    while settings.sitemaps && !shared.once_done("sitemaps").await? {
        if shared.take_once("sitemaps").await? {
            worker
                .sitemaps(&mut shared, &robots, &fetcher, &ctx, &seed_urls, events)
                .await?;
        } else {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // Pages wait behind a stuck one at least until a dead worker's leases come back.
    let turns = Arc::new(Turns::new(
        settings
            .frontier
            .reorder_timeout
            .max(cluster.shared.lease + Duration::from_secs(5)),
        cluster.shared.lease,
    ));
    let window = usize::try_from(settings.frontier.reorder_window).unwrap_or(usize::MAX);
    // Leases whose page is still being fetched: handed back on Ctrl-C. A page being
    // finished is finished, whatever the signal.
    let fetching: Arc<std::sync::Mutex<HashMap<u64, Lease>>> = Arc::default();
    let poller = tokio::spawn(Arc::clone(&turns).poll(shared.clone(), Arc::clone(&fetching)));
    // As many parses at once as cores, as the single-process crawl. (With pages finished
    // one after another in this loop, one core fewer parsed; finishes are concurrent now.)
    let cpu = Arc::new(Semaphore::new(
        std::thread::available_parallelism().map_or(2, |n| n.get()),
    ));
    // One task a page: it fetches, then judges, queues the links, writes the record and
    // ends the lease, concurrently with the others (their round trips overlap on the
    // multiplexed connection; judging takes the replica's lock). This loop only leases.
    let mut tasks: JoinSet<Result<bool>> = JoinSet::new();
    let (cancel, cancelled) = tokio::sync::watch::channel(false);
    let mut signals = Signals::install(stop_on_signals)?;
    let mut beat = Instant::now();
    let mut idle_checks = 0;
    let lease_at = settings.concurrency.div_ceil(2).max(1);
    let mut seeds_now: Arc<[Url]> = seed_urls.clone().into();

    loop {
        if beat.elapsed() >= Duration::from_secs(2) {
            shared.heartbeat().await?;
            // Seeds another worker added widen the scope here too.
            let now_seeds = shared.seeds().await?;
            if now_seeds != seed_urls {
                seed_urls = now_seeds;
                seeds_now = seed_urls.clone().into();
                ctx = redirect_context(&seed_urls, mode);
            }
            beat = Instant::now();
        }
        // Leases come in batches: a lease costs two round trips whatever the number of URLs,
        // so the worker asks again only once half its slots are free (or none is busy).
        // Pages waiting for their turn hold no slot; past the reorder window of them, the
        // worker leases only the URL whose turn it is (if nobody has it), so that the
        // crawl goes on.
        loop {
            let busy = lock(&fetching).len();
            if report.interrupted.is_some()
                || !(tasks.is_empty() || settings.concurrency.saturating_sub(busy) >= lease_at)
            {
                break;
            }
            let got = if turns.waiting() >= window {
                match shared.head().await? {
                    Some(head) if busy == 0 && !turns.holds(head.seq) => {
                        shared.lease_head(&head).await?
                    }
                    _ => Vec::new(),
                }
            } else {
                shared
                    .lease(settings.concurrency.saturating_sub(busy))
                    .await?
            };
            if got.is_empty() {
                break;
            }
            for lease in got {
                if turns.holds_id(lease.id) || lock(&fetching).contains_key(&lease.id) {
                    // Its lease ran out and came back here: the page is on its way already.
                    continue;
                }
                lock(&fetching).insert(lease.id, lease.clone());
                let page = PageTask {
                    fetcher: fetcher.clone(),
                    hasher: hasher.clone(),
                    content: content.clone(),
                    ctx: ctx.clone(),
                    cpu: Arc::clone(&cpu),
                    robots: robots.clone(),
                    worker: Arc::clone(&worker),
                    shared: shared.clone(),
                    judge: Arc::clone(&judge),
                    turns: Arc::clone(&turns),
                    seeds: Arc::clone(&seeds_now),
                    fetching: Arc::clone(&fetching),
                    cancelled: cancelled.clone(),
                    warc: warc.clone(),
                };
                tasks.spawn(page.run(lease));
            }
        }
        if tasks.is_empty() {
            if report.interrupted.is_some() {
                break;
            }
            // Done when no host has a URL queued or leased, twice in a row (another
            // worker's page may still add links in between).
            let wait = if shared.finished().await? {
                idle_checks += 1;
                if idle_checks >= 3 {
                    break;
                }
                // Nothing queued or leased anywhere: only a check again is left, soon (a
                // fixed 100 ms here was a quarter of a 500-page crawl's wall time).
                Duration::from_millis(10)
            } else {
                idle_checks = 0;
                shared
                    .next_due_in()
                    .await?
                    .unwrap_or(Duration::from_millis(100))
                    .clamp(Duration::from_millis(5), Duration::from_millis(200))
            };
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                status = signals.next() => report.interrupted = Some(status),
            }
            continue;
        }
        idle_checks = 0;
        tokio::select! {
            joined = tasks.join_next() => match joined {
                Some(Ok(Ok(true))) => report.fetched += 1,
                Some(Ok(Ok(false))) => {}
                Some(Ok(Err(e))) => return Err(e),
                Some(Err(e)) => events.notice(&Notice::TaskFailed(e.to_string())),
                None => {}
            },
            status = signals.next() => {
                if let Some(first) = report.interrupted {
                    tasks.abort_all();
                    poller.abort();
                    return Err(Error::Interrupted { status: first, shared: true });
                }
                report.interrupted = Some(status);
                // Pages still fetching stop; pages being finished are finished.
                let _ = cancel.send(true);
            }
            () = tokio::time::sleep(Duration::from_millis(100)) => {}
        }
        if report.interrupted.is_some() && tasks.is_empty() {
            let back: Vec<Lease> = lock(&fetching).drain().map(|(_, l)| l).collect();
            shared.give_back(&back).await?;
            events.notice(&Notice::LeasesReturned { leases: back.len() });
        }
    }
    poller.abort();
    turns.close(&mut shared).await?;
    if let Some(w) = &warc {
        let mut w = w.lock().await;
        w.close(&mut shared).await?;
        report.warc = Some(w.written().clone());
    }
    shared.leave().await?;
    let (judge_trips, retries) = judge.counts().await;
    let stats = shared.stats().await?;
    Ok(WorkerReport {
        run: report,
        stats,
        worker: shared.worker().to_owned(),
        round_trips: (shared.round_trips() + judge_trips, judge_trips),
        judged_again: retries,
    })
}

/// The leases being fetched, whatever a task panicked with.
fn lock(
    m: &std::sync::Mutex<HashMap<u64, Lease>>,
) -> std::sync::MutexGuard<'_, HashMap<u64, Lease>> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What one page's task needs: it fetches the page, then finishes it.
struct PageTask {
    fetcher: Fetcher,
    hasher: StructureHasher,
    content: Option<Arc<ContentHasher>>,
    ctx: silhouette_fetch::FetchContext,
    cpu: Arc<Semaphore>,
    robots: RobotsShare,
    worker: Arc<Worker>,
    shared: SharedCrawl,
    judge: Arc<Judge>,
    turns: Arc<Turns>,
    seeds: Arc<[Url]>,
    fetching: Arc<std::sync::Mutex<HashMap<u64, Lease>>>,
    cancelled: tokio::sync::watch::Receiver<bool>,
    warc: Option<Warc>,
}

impl PageTask {
    /// Fetches and finishes `lease`'s page: `Ok(true)`; `Ok(false)`: stopped by Ctrl-C
    /// before the page was fetched (its lease is still in `fetching`, to hand back).
    async fn run(self, lease: Lease) -> Result<bool> {
        let job = Job {
            id: lease.id,
            url: lease.url.clone(),
            depth: lease.depth,
        };
        let fetch = async {
            self.robots
                .ensure(&self.fetcher, &job.url, &lease.host)
                .await?;
            let fetched = fetch_one(
                &self.fetcher,
                &self.hasher,
                self.content.as_ref(),
                &self.ctx,
                &self.cpu,
                &job,
                self.warc.is_some(),
            )
            .await;
            Ok::<_, SharedError>(fetched)
        };
        let mut cancelled = self.cancelled.clone();
        let (fetched, capture) = tokio::select! {
            fetched = fetch => fetched?,
            _ = cancelled.wait_for(|c| *c) => return Ok(false),
        };
        if lock(&self.fetching).remove(&lease.id).is_none() {
            return Ok(false);
        }
        let archive = self.warc.zip(capture);
        let order = InOrder {
            turns: &self.turns,
            cancelled,
            fetching: &self.fetching,
        };
        self.worker
            .finish(
                self.shared,
                self.judge,
                order,
                self.seeds,
                lease,
                fetched,
                archive,
            )
            .await
    }
}

/// What a page needs to wait for its turn.
struct InOrder<'a> {
    turns: &'a Turns,
    cancelled: tokio::sync::watch::Receiver<bool>,
    /// Where a lease goes to be handed back (Ctrl-C while it waits).
    fetching: &'a std::sync::Mutex<HashMap<u64, Lease>>,
}

/// What judging and recording a page needs.
struct Worker {
    settings: CrawlConfig,
    scope: Scope,
    traps: TrapGuard,
    /// Which pages go to the WARC files (with `--warc`): a shared crawl writes no revisits
    /// (the page an exact duplicate repeats may be in another worker's file), so exact
    /// duplicates are archived only with `all`, as responses.
    warc_records: WarcRecords,
}

impl Worker {
    /// Waits for the page's turn, judges it, queues the links, writes the record, ends the
    /// lease: `Ok(true)`; `Ok(false)`: Ctrl-C while it waited (the lease is handed back).
    #[allow(clippy::too_many_arguments)]
    async fn finish(
        self: Arc<Self>,
        mut shared: SharedCrawl,
        judge: Arc<Judge>,
        mut order: InOrder<'_>,
        seeds: Arc<[Url]>,
        lease: Lease,
        fetched: Fetched,
        archive: Option<(Warc, Capture)>,
    ) -> Result<bool> {
        let (shared, seeds, lease) = (&mut shared, &*seeds, &lease);
        let fetched = match fetched {
            Fetched::Later { after, error } => {
                match shared
                    .later(lease, after, self.settings.frontier.max_requeues)
                    .await?
                {
                    Requeued::Queued(_) => return Ok(true),
                    Requeued::GaveUp => Fetched::Failed {
                        final_url: lease.url.clone(),
                        status: None,
                        fetch_ms: 0,
                        decision: Decision::Error,
                        error: format!("gave up after waiting: {error}"),
                    },
                }
            }
            other => other,
        };
        let late = match order.turns.wait(lease, &mut order.cancelled).await {
            Turn::InOrder => false,
            Turn::Late => true,
            Turn::Recorded => {
                recorded_elsewhere(shared, order.turns, lease).await?;
                return Ok(true);
            }
            Turn::Cancelled => {
                lock(order.fetching).insert(lease.id, lease.clone());
                return Ok(false);
            }
        };
        // The page is judged and its links numbered at once (two round trips in parallel;
        // the numbers are the page's whether its links are followed or not). Exploring, one
        // more: for a held link the page may queue (`Shapes::Note`).
        let (judged, numbers, elsewhere) = match &fetched {
            // A redirect (`<meta http-equiv=refresh>`) is not judged; its links are numbered.
            Fetched::Page {
                final_url,
                html: Some(page),
                ..
            } if page.redirect(final_url).is_some() => {
                let links = page.links.len() as u64 + u64::from(self.explores());
                let numbers = shared.clone().alloc(Some(lease.seq), links).await?;
                (None, Some(numbers), false)
            }
            Fetched::Page {
                final_url,
                body_hash,
                html: Some(page),
                ..
            } => {
                let links = page.links.len() as u64 + u64::from(self.explores());
                let page = JudgedPage {
                    id: lease.id,
                    url: lease.url.to_string(),
                    host: host_port(final_url).unwrap_or_default(),
                    body_hash: *body_hash,
                    fingerprint: page.fingerprint.map(silhouette_simhash::Fingerprint::bits),
                    elements: page.elements,
                    summary: page.summary.clone(),
                    content: *page.content,
                };
                let mut numbering = shared.clone();
                let (verdict, numbers) =
                    tokio::join!(judge.judge(page), numbering.alloc(Some(lease.seq), links));
                let numbers = numbers?;
                match verdict? {
                    Some(verdict) => (Some(verdict), Some(numbers), false),
                    // Recorded by another worker (this one judged it again, late).
                    None => (None, None, true),
                }
            }
            _ => (None, None, false),
        };
        // As the single-process crawl (429, 503, a gateway's 502 and 504; not a page's own
        // 500, `status_backs_off_host`): the host waits, here for every worker.
        let backoff = match &fetched {
            Fetched::Failed {
                status: Some(s), ..
            } if silhouette_fetch::status_backs_off_host(*s) => {
                Some(self.settings.fetch.backoff_base)
            }
            _ => None,
        };
        if !late {
            // The next page may be judged while this one is recorded.
            order.turns.judged(lease);
        }
        if elsewhere {
            if !late {
                order.turns.wait_record(lease).await;
            }
            recorded_elsewhere(shared, order.turns, lease).await?;
            return Ok(true);
        }
        // A redirect's target was fetched: never queue it as a link (single-process:
        // `Frontier::note_alias`); marked in the page's turn to be recorded.
        let redirected = match &fetched {
            Fetched::Page { final_url, .. } | Fetched::Failed { final_url, .. }
                if *final_url != lease.url =>
            {
                canonicalize(final_url, &self.settings.frontier.canon).ok()
            }
            _ => None,
        };
        // Exploring (drop mode), a duplicate's page comes back as with `follow-links` (its
        // record is the same), and only its links of a new shape go on (`Frontier`).
        let explore = self.explores();
        let on_dup = if explore {
            OnDuplicate::FollowLinks
        } else {
            self.settings.frontier.dedup.on_duplicate
        };
        let (mut rec, follow) = record(lease, fetched, judged.as_ref(), on_dup);
        rec.out_of_order = late;
        let explored = if explore {
            explored_links(
                rec.decision,
                judged.as_ref().and_then(|j| j.similarity),
                self.settings.frontier.dedup.min_similarity,
            )
        } else {
            Some(Explore::All)
        };
        let dup = explored.is_some_and(|e| e != Explore::All);
        let follow = follow.filter(|_| explored.is_some());
        // The page's links are numbered in document order, all of them (whether this
        // worker knows them seen or not): the same numbers in every worker. They are queued
        // with the record (`SharedCrawl::finish`).
        let (mut links, again, release) = match (follow, numbers) {
            (Some((base, page)), Some(numbers)) => (
                self.links(shared, &base, &page, lease.depth + 1, seeds, numbers.first),
                numbers.again,
                numbers.first + page.links.len() as u64,
            ),
            _ => (Vec::new(), false, 0),
        };
        if dup {
            // A duplicate explores its own host only.
            links.retain(|(u, _, _)| host_port(u).as_deref() == Some(lease.host.as_str()));
        }
        let link_shapes: Vec<u64> = if explore {
            links
                .iter()
                .map(|(u, _, _)| shape_key(&lease.host, u))
                .collect()
        } else {
            Vec::new()
        };
        let budget = self.settings.frontier.explore;
        let shapes = match explored {
            _ if !explore => Shapes::Off,
            Some(Explore::NewShapes) => Shapes::Explore {
                shapes: &link_shapes,
                explore: budget,
            },
            Some(Explore::Unseen) => Shapes::Unseen {
                shapes: &link_shapes,
                explore: budget,
            },
            _ => Shapes::Note {
                shapes: &link_shapes,
                explore: budget,
                release,
            },
        };
        let stored = StoredRecord {
            url: lease.url.to_string(),
            host: lease.host.clone(),
            depth: lease.depth,
            referrer: lease.referrer.clone(),
            duplicate_of_url: judged.as_ref().and_then(|j| j.duplicate_of_url.clone()),
            content_duplicate_of_url: judged
                .as_ref()
                .filter(|j| matches!(j.verdict, Verdict::ContentDuplicate { .. }))
                .and_then(|j| j.duplicate_of_url.clone()),
            cluster_url: judged
                .as_ref()
                .and_then(|j| j.cluster.as_ref().map(|c| c.1.clone())),
            seq: 0,
            out_seq: rec.emitted.then_some(0),
            page: rec,
        };
        let json = crate::export_replay::with_replay_fields(
            crate::output::json(&stored),
            &stored.page,
            Some(lease.seq),
        );
        // The page's records reach its worker's file before Redis records the page, one
        // page at a time per worker (`worker_warc`).
        let archive = archive.filter(|_| {
            self.warc_records == WarcRecords::All || stored.page.decision == Decision::Kept
        });
        if !late {
            order.turns.wait_record(lease).await;
        }
        if let Some(target) = &redirected {
            shared.mark_seen(target).await?;
        }
        let end = |record| silhouette_redis::Finish {
            record,
            decision: stored.page.decision.as_str(),
            backoff,
            late,
            links: &links,
            referrer: Some(lease.url.as_str()),
            again,
            shapes,
        };
        let Some((warc, capture)) = archive else {
            let done = shared.finish(lease, end(&json)).await?;
            order
                .turns
                .finished(&lease.host, lease.seq, &done.next, &done.heads);
            return Ok(true);
        };
        let mut warc = warc.lock().await;
        let at = warc.write(&capture, shared).await?;
        let json = at.with_place(&json);
        let done = shared.finish(lease, end(&json)).await?;
        order
            .turns
            .finished(&lease.host, lease.seq, &done.next, &done.heads);
        if !done.written {
            // Another worker recorded the page first (this lease had run out): its
            // records are the page's.
            warc.undo(&at)?;
        }
        Ok(true)
    }

    /// Whether duplicates' links of new URL shapes are followed (`Frontier::explores`): drop
    /// mode with `explore` > 0, and no crawl-wide page budget (whose links go through
    /// `SharedCrawl::enqueue`, which keeps no shapes).
    fn explores(&self) -> bool {
        let f = &self.settings.frontier;
        f.explore > 0 && f.dedup.on_duplicate == OnDuplicate::Drop && f.scope.max_pages.is_none()
    }

    /// Reads the seeds' sitemaps (once for the whole crawl: the first worker to start does
    /// it) and queues the URLs they list that are in scope, at depth 0, as the single-process
    /// crawl does. Their hosts' robots.txt is the shared one.
    async fn sitemaps(
        &self,
        shared: &mut SharedCrawl,
        robots: &RobotsShare,
        fetcher: &Fetcher,
        ctx: &silhouette_fetch::FetchContext,
        seeds: &[Url],
        events: &mut dyn Events,
    ) -> Result<()> {
        for seed in seeds {
            if let Some(host) = host_port(seed) {
                robots.ensure(fetcher, seed, &host).await?;
            }
        }
        let found = crate::sitemaps::discover(fetcher, ctx, seeds).await;
        let first = shared.alloc(None, found.urls.len() as u64).await?.first;
        let listed: Vec<silhouette_redis::Link> = found
            .urls
            .iter()
            .zip(first..)
            .filter_map(|(u, seq)| {
                let u = parse_canonical(u.trim(), &self.settings.frontier.canon).ok()?;
                (self.scope.admits(&u, seeds, 0) && self.traps.check(&u).is_ok())
                    .then_some((u, 0, seq))
            })
            .collect();
        let added = shared.enqueue(&listed, None, true).await?;
        found.report(added, events);
        shared.done_once("sitemaps").await?;
        Ok(())
    }

    /// The links of a page that are in scope and no trap, canonical, at `depth`, the `i`th
    /// link numbered `first + i`; links the worker knows to be seen already are left out
    /// first (they cost most of a page's link handling: a site's navigation is on every
    /// page).
    #[allow(clippy::too_many_arguments)]
    fn links(
        &self,
        shared: &SharedCrawl,
        page_url: &Url,
        page: &HtmlPage,
        depth: u32,
        seeds: &[Url],
        first: u64,
    ) -> Vec<silhouette_redis::Link> {
        let base = base_url(page.base.as_deref(), page_url);
        page.links
            .iter()
            .zip(first..)
            .filter_map(|(href, seq)| {
                let url = resolve_link(&base, href)?;
                let url = canonicalize(&url, &self.settings.frontier.canon).ok()?;
                let wanted = !shared.knows(&url)
                    && self.scope.admits(&url, seeds, depth)
                    && self.traps.check(&url).is_ok();
                wanted.then_some((url, depth, seq))
            })
            .collect()
    }
}

/// Ends the lease of a page another worker recorded (this one's lease had run out): its
/// record stays the other worker's; the page's turn ends here too.
async fn recorded_elsewhere(shared: &mut SharedCrawl, turns: &Turns, lease: &Lease) -> Result<()> {
    let end = silhouette_redis::Finish {
        record: "",
        decision: "",
        backoff: None,
        late: false,
        links: &[],
        referrer: None,
        again: false,
        shapes: Shapes::Off,
    };
    let done = shared.finish(lease, end).await?;
    turns.finished(&lease.host, lease.seq, &done.next, &done.heads);
    Ok(())
}

/// The record of a leased page (`Frontier::record` for a shared crawl): the verdict the
/// shared dedup gave; the replica knows every cluster (an exact duplicate's too).
fn record(
    lease: &Lease,
    fetched: Fetched,
    judged: Option<&SharedVerdict>,
    on_dup: OnDuplicate,
) -> (PageRecord, Option<(Url, HtmlPage)>) {
    let judge = |_: &Url, _: &HtmlPage, _| {
        Ok::<_, std::convert::Infallible>(
            judged.map(|j| (j.verdict, Some(j.cluster.as_ref().map(|c| c.0)))),
        )
    };
    match page_record(lease.id, fetched, on_dup, judge) {
        Ok(done) => done,
        Err(never) => match never {},
    }
}
