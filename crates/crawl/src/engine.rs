//! The crawl loop: the frontier decides, tasks fetch and fingerprint, records are committed
//! then written.

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use silhouette_dom::StructureHasher;
use silhouette_fetch::{FetchContext, FetchError, Fetcher};
use silhouette_frontier::{
    Decision, Fetched, Frontier, HtmlPage, Job, ScopeMode, StoredRecord, body_hash, host_port,
    registrable_domain,
};
use silhouette_text::ContentHasher;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use url::Url;

use crate::config::{CrawlConfig, WarcConfig};
use crate::error::{Context, Error, Result, refuse};
use crate::events::{Baseline, Events, Notice, Progress, RunCounts};
use crate::output::{Output, PagesOutput};
use crate::page::html_page;
use crate::seeds::Seed;
use crate::warc_out::{Capture, WarcLog, WarcWritten};

/// What a crawl run needs.
#[derive(Debug)]
pub struct CrawlJob {
    /// How to fetch and decide.
    pub settings: CrawlConfig,
    /// The structure fingerprint (its parameters are stored with the state); made with
    /// [`crawl_hasher`](crate::crawl_hasher), which collects the links the crawl follows.
    pub hasher: StructureHasher,
    /// The content signal's hasher (the structure hasher must collect text for it); `None`:
    /// no content signal (`content.enabled` off).
    pub content: Option<Arc<ContentHasher>>,
    /// The crawl state: made if missing, resumed if there (with the same settings).
    pub state_dir: PathBuf,
    /// The JSONL output of the crawled pages; `None`: none (`STATE/decisions.jsonl` has
    /// every decision whatever this is).
    pub output: Option<PagesOutput>,
    /// Where to start.
    pub seeds: Vec<Seed>,
    /// A resumed state may take seeds it was not started from.
    pub add_seeds: bool,
    /// The fetched pages as WARC files.
    pub warc: Option<WarcConfig>,
    /// Stop on Ctrl-C (SIGINT) and SIGTERM, as the binary does: the first signal stops the
    /// crawl cleanly (fetches in flight stay queued), a second one ends it at once with
    /// [`Error::Interrupted`].
    pub stop_on_signals: bool,
}

impl CrawlJob {
    /// A crawl of `seeds` with `settings` into `state_dir` (output `STATE/pages.jsonl`), the
    /// structure fingerprint `hasher`, no content signal, no WARC files, no signal handling.
    pub fn new(
        settings: CrawlConfig,
        hasher: StructureHasher,
        state_dir: impl Into<PathBuf>,
        seeds: Vec<Seed>,
    ) -> Self {
        let state_dir = state_dir.into();
        Self {
            settings,
            hasher,
            content: None,
            output: Some(PagesOutput::File(default_output(&state_dir))),
            state_dir,
            seeds,
            add_seeds: false,
            warc: None,
            stop_on_signals: false,
        }
    }
}

/// How a crawl ended.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct RunReport {
    /// It resumed a state.
    pub resumed: bool,
    /// The crawl was stopped by Ctrl-C (SIGINT) or SIGTERM: the exit status to use
    /// (130 or 143, 128 + the signal number, as shells report it).
    pub interrupted: Option<u8>,
    /// Pages fetched by this run.
    pub fetched: u64,
    /// Seeds that were not crawlable URLs.
    pub bad_seeds: usize,
    /// This run's decisions.
    pub counts: RunCounts,
    /// How long it ran.
    pub elapsed: Duration,
    /// What this run archived, with `--warc`.
    pub warc: Option<WarcWritten>,
}

/// The settings a resumed state must share with this run: every one that changes which URLs
/// are crawled or what is decided about them (ALGORITHM.md §6). The page limits, politeness
/// and fetch settings may change between runs.
pub fn state_params(
    settings: &CrawlConfig,
    hasher: &StructureHasher,
    content: Option<&Arc<ContentHasher>>,
) -> Vec<(&'static str, String)> {
    let f = &settings.frontier;
    let d = &f.dedup;
    let list = |v: &[String]| format!("{v:?}");
    vec![
        ("fingerprint", hasher.params()),
        ("dedup.threshold", d.threshold.to_string()),
        ("dedup.dedup-scope", d.scope.to_string()),
        ("dedup.cluster-budget", d.cluster_budget.to_string()),
        ("dedup.min-elements", d.min_elements.to_string()),
        ("dedup.on-duplicate", d.on_duplicate.to_string()),
        (
            "dedup.min-similarity",
            // Confirmation by path sets happens only for models that have them.
            match d.min_similarity {
                Some(min) if hasher.params().starts_with("structure/class-paths/") => {
                    min.to_string()
                }
                _ => "none".to_owned(),
            },
        ),
        ("dedup.drop-when", d.drop_when.to_string()),
        // When on, the content signal is computed and recorded in every mode (replay
        // compares policies offline), so its parameters always count; "none" when off.
        (
            "content",
            content.map_or_else(|| "none".to_owned(), |c| c.params().to_owned()),
        ),
        ("content.threshold", d.content_threshold.to_string()),
        ("dedup.varying-after", d.varying_after.to_string()),
        ("dedup.far-reach", d.far_reach.to_string()),
        ("dedup.far-margin", d.far_margin.to_string()),
        ("crawl.scope", f.scope.mode.to_string()),
        ("crawl.include", list(&f.scope.include)),
        ("crawl.exclude", list(&f.scope.exclude)),
        (
            "crawl.max-depth",
            f.scope.max_depth.map_or("none".into(), |d| d.to_string()),
        ),
        ("crawl.strip-params", list(&f.canon.strip_params)),
        ("traps", format!("{:?}", f.traps)),
    ]
}

/// Runs a crawl to its end (or a stop signal) on a new tokio runtime; see [`crawl`].
pub fn run(job: CrawlJob, events: &mut dyn Events) -> Result<RunReport> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    rt.block_on(crawl(job, events))
}

/// A resumed crawl keeps to the seeds it was started from: a run that gives others would
/// merge two crawls into one state. Giving none, or some of them, resumes.
fn same_seeds(
    frontier: &Frontier,
    seeds: &[Seed],
    settings: &CrawlConfig,
    state_dir: &Path,
) -> Result<()> {
    let new: Vec<String> = seeds
        .iter()
        .filter_map(|s| {
            silhouette_frontier::parse_canonical(s.url.trim(), &settings.frontier.canon).ok()
        })
        .filter(|u| !frontier.seeds().contains(u))
        .map(String::from)
        .collect();
    if new.is_empty() || frontier.seeds().is_empty() {
        return Ok(());
    }
    let had: Vec<&str> = frontier.seeds().iter().map(Url::as_str).collect();
    refuse!(
        "the crawl state in {} was started from other seeds ({}); this run adds {}: give --add-seeds to add them to that crawl, or --state DIR for a new crawl",
        state_dir.display(),
        had.join(" "),
        new.join(" ")
    )
}

/// Hosts of seeds that are themselves loopback/private addresses: allowed to the fetcher.
pub fn private_seed_host(url: &Url) -> Option<String> {
    let host = url.host_str()?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    // The fetcher's own test: a seed it would refuse is the one to allow.
    let private = match bare.parse::<IpAddr>() {
        Ok(ip) => silhouette_fetch::is_non_public(ip),
        Err(_) => bare.eq_ignore_ascii_case("localhost"),
    };
    private.then(|| host.to_owned())
}

/// Crawls to the end: every URL in scope fetched, or the page limits reached, or stopped by
/// a signal (with [`CrawlJob::stop_on_signals`]). Decisions, progress and notices go to
/// `events` as the crawl goes; the state directory holds everything it decided.
///
/// Must run on a multi-thread tokio runtime (the crawl parses pages on its workers and hands
/// large ones to the blocking pool).
pub async fn crawl(job: CrawlJob, events: &mut dyn Events) -> Result<RunReport> {
    let CrawlJob {
        settings,
        hasher,
        content,
        state_dir,
        output,
        seeds,
        add_seeds,
        warc,
        stop_on_signals,
    } = job;
    let params = state_params(&settings, &hasher, content.as_ref());
    let (mut frontier, resumed) = Frontier::open(&state_dir, settings.frontier.clone(), &params)?;
    if resumed && !add_seeds {
        same_seeds(&frontier, &seeds, &settings, &state_dir)?;
    }
    let mut report = RunReport {
        resumed,
        ..RunReport::default()
    };
    let mut out = Output::open(output, frontier.store())?;
    let mut decisions = Output::open_decisions(&state_dir, frontier.store())?;
    let mut warc = match warc {
        Some(w) => {
            let info = crate::warc_out::info(&settings, w.records, &params);
            Some(WarcLog::open(w, info, frontier.store())?)
        }
        None => None,
    };
    for seed in &seeds {
        if let Err(e) = frontier.add_seed(&seed.url) {
            report.bad_seeds += 1;
            events.notice(&Notice::SeedRefused {
                url: seed.url.clone(),
                origin: seed.origin.clone(),
                error: e.to_string(),
            });
        }
    }
    frontier.commit()?;
    if frontier.seeds().is_empty() {
        refuse!("no valid seed: give URLs or a seeds file (one URL per line)");
    }
    if report.resumed {
        events.notice(&Notice::Resuming {
            state_dir: state_dir.clone(),
            queued: frontier.queued() as u64,
        });
    }

    if let Some(interval) = settings.fetch.host_request_interval
        && interval >= Duration::from_millis(500)
        && frontier.queued() > 0
        && frontier
            .seeds()
            .iter()
            .any(|s| private_seed_host(s).is_some())
    {
        events.notice(&Notice::PoliteInterval { interval });
    }
    let mut fetch_config = settings.fetch.clone();
    fetch_config
        .address_policy
        .allowed_hosts
        .extend(frontier.seeds().iter().filter_map(private_seed_host));
    let fetcher = Fetcher::new(fetch_config).context("cannot start the fetcher")?;
    let ctx = redirect_context(frontier.seeds(), settings.frontier.scope.mode);
    if settings.sitemaps {
        let found = crate::sitemaps::discover(&fetcher, &ctx, frontier.seeds()).await;
        let mut added = 0;
        for url in &found.urls {
            // A listed URL that is not http(s) or out of scope is left out.
            if frontier.add_start_url(url).unwrap_or(false) {
                added += 1;
            }
        }
        frontier.commit()?;
        found.report(added, events);
    }
    let cpu = Arc::new(Semaphore::new(
        std::thread::available_parallelism().map_or(2, |n| n.get()),
    ));

    let baseline = Baseline::of(&frontier);
    let started = Instant::now();
    let mut tasks: JoinSet<(Job, Fetched, Option<Capture>)> = JoinSet::new();
    let mut pending: Vec<StoredRecord> = Vec::new();
    // The captures of pages whose fetch ended and that wait for their turn to be judged.
    let mut captures: HashMap<u64, Capture> = HashMap::new();
    let mut last_commit = Instant::now();
    let mut signals = Signals::install(stop_on_signals)?;

    loop {
        let now = Instant::now();
        while report.interrupted.is_none() && tasks.len() < settings.concurrency {
            let Some(job) = frontier.next_job(now) else {
                break;
            };
            let (fetcher, hasher, content, ctx, cpu) = (
                fetcher.clone(),
                hasher.clone(),
                content.clone(),
                ctx.clone(),
                Arc::clone(&cpu),
            );
            let capture = warc.is_some();
            tasks.spawn(async move {
                let (fetched, capture) = fetch_one(
                    &fetcher,
                    &hasher,
                    content.as_ref(),
                    &ctx,
                    &cpu,
                    &job,
                    capture,
                )
                .await;
                (job, fetched, capture)
            });
        }
        if tasks.is_empty() {
            if report.interrupted.is_some() {
                break;
            }
            let Some(at) = frontier.next_ready_at(Instant::now()) else {
                // Nothing to fetch and nothing in flight, yet pages not judged: they wait
                // for a URL the reorder window keeps from being fetched. Judge them now.
                if frontier.unjudged() == 0 {
                    break;
                }
                let released = release(
                    true,
                    &mut frontier,
                    warc.as_mut(),
                    [&mut out, &mut decisions],
                    &mut pending,
                    &mut captures,
                    events,
                )?;
                if released == 0 && frontier.queued() == 0 && frontier.waiting() == 0 {
                    break;
                }
                continue;
            };
            tokio::select! {
                () = tokio::time::sleep_until(at.into()) => {}
                status = signals.next() => report.interrupted = Some(status),
            }
            continue;
        }
        tokio::select! {
            joined = tasks.join_next() => match joined {
                Some(Ok((job, fetched, capture))) => {
                    report.fetched += 1;
                    if let Some(w) = warc.as_mut() {
                        rotate(w, &mut frontier, [&mut out, &mut decisions], &mut pending, events)?;
                    }
                    if let Some(capture) = capture {
                        captures.insert(job.id, capture);
                    }
                    let done = frontier.complete(job, fetched, Instant::now())?;
                    let judged = Judged { warc: warc.as_mut(), captures: &mut captures, out: &mut out, pending: &mut pending };
                    judged.keep(done.records, &mut frontier)?;
                }
                // Tasks aborted on Ctrl-C end cancelled: their URLs stay queued, no error.
                Some(Err(e)) if e.is_cancelled() => {}
                Some(Err(e)) => events.notice(&Notice::TaskFailed(e.to_string())),
                None => {}
            },
            status = signals.next() => {
                if let Some(first) = report.interrupted {
                    // Second signal: what is committed stays consistent; the rest is refetched.
                    tasks.abort_all();
                    return Err(Error::Interrupted { status: first, shared: false });
                }
                report.interrupted = Some(status);
                events.notice(&Notice::Stopping { in_flight: tasks.len() });
                tasks.abort_all();
            }
            () = tokio::time::sleep(Duration::from_millis(250)) => {}
        }
        // Pages that waited too long behind a stuck fetch are judged without it.
        release(
            false,
            &mut frontier,
            warc.as_mut(),
            [&mut out, &mut decisions],
            &mut pending,
            &mut captures,
            events,
        )?;
        if pending.len() >= 512 || last_commit.elapsed() >= Duration::from_millis(200) {
            flush(
                &mut frontier,
                [&mut out, &mut decisions],
                &mut pending,
                warc.as_mut(),
                events,
            )?;
            last_commit = Instant::now();
            events.progress(&Progress {
                fetched: report.fetched,
                queued: (frontier.queued() + frontier.in_flight()) as u64,
                counts: baseline.since(&frontier),
                elapsed: started.elapsed(),
            });
        }
    }
    flush(
        &mut frontier,
        [&mut out, &mut decisions],
        &mut pending,
        warc.as_mut(),
        events,
    )?;
    if let Some(w) = warc.as_mut() {
        w.close()?;
        report.warc = Some(w.written().clone());
    }
    report.counts = baseline.since(&frontier);
    report.elapsed = started.elapsed();
    Ok(report)
}

/// Ctrl-C (SIGINT) and, on Unix, SIGTERM: both stop the crawl the same way. The listeners
/// live as long as the crawl, so a signal that comes between two polls is not lost. Not
/// installed (never fires) when the caller handles signals itself.
pub(crate) struct Signals {
    #[cfg(unix)]
    listening: Option<(tokio::signal::unix::Signal, tokio::signal::unix::Signal)>,
    #[cfg(not(unix))]
    ctrl_c: Option<tokio::sync::mpsc::UnboundedReceiver<()>>,
}

impl Signals {
    pub(crate) fn install(enabled: bool) -> Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let listening = if enabled {
                Some((
                    signal(SignalKind::interrupt()).context("cannot listen for Ctrl-C")?,
                    signal(SignalKind::terminate()).context("cannot listen for SIGTERM")?,
                ))
            } else {
                None
            };
            Ok(Self { listening })
        }
        #[cfg(not(unix))]
        {
            let ctrl_c = enabled.then(|| {
                let (tx, ctrl_c) = tokio::sync::mpsc::unbounded_channel();
                tokio::spawn(async move {
                    while tokio::signal::ctrl_c().await.is_ok() && tx.send(()).is_ok() {}
                });
                ctrl_c
            });
            Ok(Self { ctrl_c })
        }
    }

    /// Waits for the next signal; returns the exit status it calls for (128 + its number).
    pub(crate) async fn next(&mut self) -> u8 {
        #[cfg(unix)]
        {
            let Some((int, term)) = &mut self.listening else {
                return std::future::pending().await;
            };
            tokio::select! {
                Some(()) = int.recv() => 130,
                Some(()) = term.recv() => 143,
                else => std::future::pending().await,
            }
        }
        #[cfg(not(unix))]
        {
            let Some(ctrl_c) = &mut self.ctrl_c else {
                return std::future::pending().await;
            };
            match ctrl_c.recv().await {
                Some(()) => 130,
                None => std::future::pending().await,
            }
        }
    }
}

/// Where the records of pages just judged go: their WARC records first (while the state
/// that records them is not committed), then the records wait for the next commit.
struct Judged<'a> {
    warc: Option<&'a mut WarcLog>,
    captures: &'a mut HashMap<u64, Capture>,
    out: &'a mut Output,
    pending: &'a mut Vec<StoredRecord>,
}

impl Judged<'_> {
    fn keep(mut self, records: Vec<StoredRecord>, frontier: &mut Frontier) -> Result<()> {
        for rec in records {
            let capture = self.captures.remove(&rec.page.id);
            if let (Some(w), Some(capture)) = (self.warc.as_deref_mut(), &capture)
                && let Some(at) = w.write(&rec, capture, frontier.store_mut())?
            {
                self.out.note_warc(rec.page.id, &at);
            }
            self.pending.push(rec);
        }
        Ok(())
    }
}

/// Starts the next WARC file when the current one is full, before anything is written to it:
/// a new file is registered in a state with nothing uncommitted.
fn rotate(
    w: &mut WarcLog,
    frontier: &mut Frontier,
    outs: [&mut Output; 2],
    pending: &mut Vec<StoredRecord>,
    events: &mut dyn Events,
) -> Result<()> {
    if w.needs_file() {
        flush(frontier, outs, pending, Some(&mut *w), events)?;
        w.open_next(frontier.store_mut())?;
    }
    Ok(())
}

/// Judges the pages that waited behind a fetch stuck past the reorder timeout (`force`:
/// whatever the time, nothing else can move); returns how many were judged.
fn release(
    force: bool,
    frontier: &mut Frontier,
    mut warc: Option<&mut WarcLog>,
    [out, decisions]: [&mut Output; 2],
    pending: &mut Vec<StoredRecord>,
    captures: &mut HashMap<u64, Capture>,
    events: &mut dyn Events,
) -> Result<usize> {
    if frontier.waiting() == 0 && !force {
        return Ok(0);
    }
    if let Some(w) = warc.as_deref_mut().filter(|_| frontier.waiting() > 0) {
        rotate(w, frontier, [&mut *out, decisions], pending, events)?;
    }
    let done = frontier.release_stuck(Instant::now(), force)?;
    let n = done.records.len();
    let judged = Judged {
        warc,
        captures,
        out,
        pending,
    };
    judged.keep(done.records, frontier)?;
    Ok(n)
}

/// Commits the state, then writes the records it made durable to the output and to
/// `decisions.jsonl`, and hands them to `events`.
fn flush(
    frontier: &mut Frontier,
    outs: [&mut Output; 2],
    pending: &mut Vec<StoredRecord>,
    warc: Option<&mut WarcLog>,
    events: &mut dyn Events,
) -> Result<()> {
    // The WARC records of the pages about to be committed reach the files first.
    if let Some(w) = warc {
        w.flush()?;
    }
    frontier.commit().context("cannot save the crawl state (nothing after the last save is lost: those URLs are fetched again on resume)")?;
    for out in outs {
        out.write(pending)?;
    }
    for rec in pending.iter() {
        events.decision(rec);
    }
    pending.clear();
    Ok(())
}

/// Redirects may not leave the seeds' scope (host or registrable domain).
pub(crate) fn redirect_context(seeds: &[Url], mode: ScopeMode) -> FetchContext {
    let hosts: Vec<String> = seeds.iter().filter_map(host_port).collect();
    let domains: Vec<String> = seeds
        .iter()
        .filter_map(|s| registrable_domain(s).map(str::to_owned))
        .collect();
    FetchContext::new().with_redirect_policy(move |to: &Url| match mode {
        ScopeMode::SameHost => host_port(to).is_some_and(|h| hosts.contains(&h)),
        ScopeMode::SameDomain => {
            host_port(to).is_some_and(|h| hosts.contains(&h))
                || registrable_domain(to).is_some_and(|d| domains.iter().any(|s| s == d))
        }
        _ => true,
    })
}

/// Pages up to this size are parsed on the async worker that fetched them (a few ms of CPU
/// for a real page; 0.22 s for the worst hostile one measured, 256 KB of nested formatting
/// elements that the tree builder turns into 317k elements, within the work budget). Handing every page to the blocking
/// pool and back left the CPU idle between the two thread switches: on cppreference at
/// concurrency 16 the crawl used 156-160% CPU that way, 182-184% inline, +25% pages/s.
/// Larger pages go to the blocking pool so that they never hold up the workers' I/O.
const INLINE_PARSE_MAX: usize = 256 * 1024;

pub(crate) async fn fetch_one(
    fetcher: &Fetcher,
    hasher: &StructureHasher,
    content: Option<&Arc<ContentHasher>>,
    ctx: &FetchContext,
    cpu: &Semaphore,
    job: &Job,
    warc: bool,
) -> (Fetched, Option<Capture>) {
    let outcome = fetcher.fetch(&job.url, ctx).await;
    let capture = outcome.page().filter(|_| warc).and_then(|page| {
        Capture::of(
            page,
            &outcome.final_url,
            fetcher.request_head(&outcome.final_url),
        )
    });
    (fetched(hasher, content, cpu, outcome).await, capture)
}

async fn fetched(
    hasher: &StructureHasher,
    content: Option<&Arc<ContentHasher>>,
    cpu: &Semaphore,
    outcome: silhouette_fetch::FetchOutcome,
) -> Fetched {
    let fetch_ms = outcome.elapsed_ms();
    match outcome.result {
        Ok(page) => {
            let hash = body_hash(&page.body);
            let html = if page.is_html {
                let _permit = cpu.acquire().await;
                let ct = page.content_type.as_deref();
                let parsed = if page.body.len() <= INLINE_PARSE_MAX {
                    Ok(html_page(hasher, content.map(|c| &**c), &page.body, ct))
                } else {
                    let (hasher, content, body, ct) = (
                        hasher.clone(),
                        content.cloned(),
                        page.body.clone(),
                        page.content_type.clone(),
                    );
                    tokio::task::spawn_blocking(move || {
                        html_page(&hasher, content.as_deref(), &body, ct.as_deref())
                    })
                    .await
                };
                Some(parsed.unwrap_or_else(|e| HtmlPage {
                    truncated: Some(format!("fingerprinting failed: {e}")),
                    ..HtmlPage::default()
                }))
            } else {
                None
            };
            Fetched::Page {
                final_url: outcome.final_url,
                status: page.status,
                content_type: page.content_type,
                bytes: page.body.len() as u64,
                fetch_ms,
                body_hash: hash,
                html,
            }
        }
        Err(e) => failed(&e, outcome.final_url, fetch_ms),
    }
}

fn failed(e: &FetchError, final_url: Url, fetch_ms: u64) -> Fetched {
    let error = format!("{}: {e}", e.code());
    match e {
        FetchError::HostBackoff { retry_after, .. }
        | FetchError::RobotsUnavailable { retry_after, .. } => Fetched::Later {
            after: *retry_after,
            error,
        },
        FetchError::HttpStatus {
            retry_after: Some(after),
            ..
        } => Fetched::Later {
            after: *after,
            error,
        },
        FetchError::RobotsDisallowed { .. } => Fetched::Failed {
            final_url,
            status: None,
            fetch_ms,
            decision: Decision::RobotsDisallowed,
            error,
        },
        FetchError::RedirectRejected { .. } => Fetched::Failed {
            final_url,
            status: None,
            fetch_ms,
            decision: Decision::OutOfScope,
            error,
        },
        FetchError::HttpStatus { status, .. } => Fetched::Failed {
            final_url,
            status: Some(*status),
            fetch_ms,
            decision: Decision::Error,
            error,
        },
        _ => Fetched::Failed {
            final_url,
            status: None,
            fetch_ms,
            decision: Decision::Error,
            error,
        },
    }
}

/// The default output file of a state directory.
pub fn default_output(state_dir: &Path) -> PathBuf {
    state_dir.join("pages.jsonl")
}
