//! [`Frontier`]: what to fetch next, what a fetched page means, and the state that survives
//! a crash. It owns the queues, the seen set, scope, traps, budgets, dedup and the store.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::time::{Duration, Instant};

use silhouette_simhash::Fingerprint;
use url::Url;

pub use crate::frontier_types::{
    Completed, Fetched, FrontierConfig, FrontierError, HtmlPage, Job, SeedError, SummaryOf,
    body_hash,
};
use crate::order::Order;
use crate::shape::{Explore, explored_links, most_held, shape_key};
use crate::{
    Budget, Decision, Dedup, HostQueues, OnDuplicate, PageRecord, PageSignals, QueueEntry, Scope,
    SeenSet, StateError, Store, StoredRecord, TrapGuard, UrlKey, Verdict, canonicalize, host_port,
    parse_canonical,
};

/// The crawl frontier.
#[derive(Debug)]
pub struct Frontier {
    config: FrontierConfig,
    store: Store,
    queues: HostQueues<u64>,
    seen: SeenSet,
    scope: Scope,
    traps: TrapGuard,
    budget: Budget,
    dedup: Dedup,
    seeds: Vec<Url>,
    in_flight: HashMap<String, usize>,
    in_flight_total: usize,
    requeues: HashMap<u64, u32>,
    /// The URL shapes each host's pages linked to (`shape.rs`), when exploring.
    shapes: fnv::FnvHashSet<u64>,
    /// Links queued by exploration, per host, less one for each explored page kept.
    explored: HashMap<String, u32>,
    /// Links exploration had no room for, per host, in the order they were held.
    held: HashMap<String, VecDeque<crate::HeldLink>>,
    stats: HashMap<&'static str, u64>,
    order: Order,
    /// Links resolved lately (`resolved.rs`): a link the pages repeat is parsed once.
    resolved: crate::resolved::Resolved,
}

impl Frontier {
    /// Opens the state in `dir` (resuming it if it exists) with `params` that a resumed state
    /// must match (fingerprint parameters, dedup settings). Returns whether it resumed.
    ///
    /// # Errors
    /// The state cannot be used or was made with other parameters; a setting is invalid.
    pub fn open(
        dir: &Path,
        config: FrontierConfig,
        params: &[(&str, String)],
    ) -> Result<(Self, bool), FrontierError> {
        let fingerprint_params = params
            .iter()
            .find(|(k, _)| *k == "fingerprint")
            .map_or("", |(_, v)| v.as_str());
        let dedup = Dedup::new(config.dedup, fingerprint_params)?;
        let scope = Scope::new(&config.scope)?;
        let (store, resumed) = Store::open(dir, params)?;
        let mut frontier = Self {
            traps: TrapGuard::new(config.traps.clone()),
            budget: Budget::new(&config.scope),
            order: Order::new(config.reorder_window, config.reorder_timeout),
            resolved: crate::resolved::Resolved::default(),
            config,
            store,
            queues: HostQueues::new(),
            seen: SeenSet::new(),
            scope,
            dedup,
            seeds: Vec::new(),
            in_flight: HashMap::new(),
            in_flight_total: 0,
            requeues: HashMap::new(),
            shapes: fnv::FnvHashSet::default(),
            explored: HashMap::new(),
            held: HashMap::new(),
            stats: HashMap::new(),
        };
        if resumed {
            frontier.restore()?;
        }
        Ok((frontier, resumed))
    }

    /// Rebuilds the in-memory state from the store: seen set, budgets, seeds, queues, and
    /// the dedup state by judging the recorded pages again in crawl order.
    fn restore(&mut self) -> Result<(), FrontierError> {
        let mut urls = Vec::new();
        self.store
            .for_each_url(|id, url| urls.push((id, url.to_owned())))?;
        for (_, url) in &urls {
            self.seen.insert_key(UrlKey::of_str(url));
            if let Ok(parsed) = Url::parse(url) {
                let _ = self.budget.try_take(&parsed);
            }
        }
        if self.explores() {
            let (shapes, explored) = (&mut self.shapes, &mut self.explored);
            self.store
                .for_each_own_link(|url, host, by_duplicate, kept| {
                    if let Ok(url) = Url::parse(url) {
                        shapes.insert(shape_key(host, &url));
                    }
                    // An explored page that was kept gave its fetch back.
                    if by_duplicate && !kept {
                        *explored.entry(host.to_owned()).or_insert(0) += 1;
                    }
                })?;
            for link in self.store.held()? {
                if let Ok(url) = Url::parse(&link.url) {
                    self.shapes.insert(shape_key(&link.host, &url));
                }
                if !link.released {
                    let host = link.host.clone();
                    self.held.entry(host).or_default().push_back(link);
                }
            }
        }
        if let Some(seeds) = self.store.meta("seeds")? {
            self.seeds = seeds.lines().filter_map(|s| Url::parse(s).ok()).collect();
        }
        let mut records = Vec::new();
        self.store.records(None, |r| records.push(r))?;
        for r in records {
            *self.stats.entry(r.page.decision.as_str()).or_insert(0) += 1;
            if let (Some(hash), true) = (r.page.body_hash, r.page.decision.is_judged()) {
                let fp = r.page.fingerprint.map(Fingerprint::new);
                let summary = self
                    .config
                    .summary_of
                    .zip(r.page.profile.as_deref())
                    .and_then(|(read, profile)| read(profile));
                let _ = self.dedup.judge_page(&PageSignals {
                    id: r.page.id,
                    host: &r.host,
                    body_hash: hash,
                    fingerprint: fp,
                    elements: r.page.elements.unwrap_or(0),
                    summary: summary.as_deref(),
                    content: &r.page.content,
                });
            }
        }
        // Hosts that asked to wait still wait, across the restart.
        let now_ms = unix_ms(std::time::SystemTime::now());
        for (host, not_before) in self.store.host_backoffs()? {
            if not_before > now_ms {
                self.queues.set_next_allowed(
                    &host,
                    Instant::now() + Duration::from_millis(not_before - now_ms),
                );
            }
        }
        // URLs deferred by a page limit: queued when this run's limits allow, in discovery
        // order; the rest stay deferred (and seen).
        for d in self.store.deferred()? {
            self.seen.insert_key(UrlKey::of_str(&d.url));
            if let Ok(url) = Url::parse(&d.url)
                && self.budget.try_take(&url).is_ok()
            {
                self.store.undefer(d.id)?;
            }
        }
        self.store.commit()?;
        for q in self.store.queued()? {
            if let Ok(url) = Url::parse(&q.url) {
                self.enqueue(QueueEntry {
                    url,
                    depth: q.depth,
                    referrer: None,
                    payload: q.id,
                });
            }
        }
        Ok(())
    }

    /// The store, for reports.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The state database, for records kept beside the pages' (WARC locations).
    pub fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// Adds a seed URL (depth 0). Returns `Ok(false)` if it was already known.
    ///
    /// # Errors
    /// The URL cannot be parsed or is not http(s); the state cannot be written.
    pub fn add_seed(&mut self, input: &str) -> Result<bool, SeedError> {
        let url = parse_canonical(input.trim(), &self.config.canon).map_err(SeedError::Url)?;
        if !self.seeds.contains(&url) {
            self.seeds.push(url.clone());
            let list: Vec<&str> = self.seeds.iter().map(Url::as_str).collect();
            self.store
                .set_meta("seeds", &list.join("\n"))
                .map_err(SeedError::State)?;
        }
        if !self.seen.insert_key(UrlKey::of(&url)) {
            return Ok(false);
        }
        let _ = self.budget.try_take(&url);
        self.queue_start(url).map_err(SeedError::State)?;
        Ok(true)
    }

    /// Adds a URL to start from that is not a seed (one a seed's sitemap lists): depth 0,
    /// queued if it is in the seeds' scope and passes the trap guards, deferred beyond a
    /// page limit. Returns whether it was queued or deferred (`false`: known, or not taken).
    ///
    /// # Errors
    /// The URL cannot be parsed or is not http(s); the state cannot be written.
    pub fn add_start_url(&mut self, input: &str) -> Result<bool, SeedError> {
        let url = parse_canonical(input.trim(), &self.config.canon).map_err(SeedError::Url)?;
        let key = UrlKey::of(&url);
        if self.seen.contains_key(key) || !self.in_scope(&url, 0) || self.traps.check(&url).is_err()
        {
            return Ok(false);
        }
        self.seen.insert_key(key);
        if self.budget.try_take(&url).is_err() {
            let host = host_port(&url).unwrap_or_default();
            self.store
                .add_deferred_url(url.as_str(), &host, 0, None)
                .map_err(SeedError::State)?;
            return Ok(true);
        }
        self.queue_start(url).map_err(SeedError::State)?;
        Ok(true)
    }

    fn queue_start(&mut self, url: Url) -> Result<(), StateError> {
        let host = host_port(&url).unwrap_or_default();
        if let Some(id) = self.store.add_url(url.as_str(), &host, 0, None)? {
            self.enqueue(QueueEntry {
                url,
                depth: 0,
                referrer: None,
                payload: id,
            });
        }
        Ok(())
    }

    /// The seeds.
    #[must_use]
    pub fn seeds(&self) -> &[Url] {
        &self.seeds
    }

    fn enqueue(&mut self, entry: QueueEntry<u64>) {
        self.order.queued(entry.payload);
        self.queues.push(entry);
    }

    /// The next URL to fetch, if a host is ready (and the URL within the reorder window).
    pub fn next_job(&mut self, now: Instant) -> Option<Job> {
        let order = &self.order;
        let entry = self.queues.pop_ready_where(now, |id| order.admits(*id))?;
        let host = host_port(&entry.url).unwrap_or_default();
        let n = self.in_flight.entry(host.clone()).or_insert(0);
        *n += 1;
        self.in_flight_total += 1;
        if *n >= self.config.per_host_in_flight.max(1) {
            self.queues.hold(&host);
        }
        Some(Job {
            id: entry.payload,
            url: entry.url,
            depth: entry.depth,
        })
    }

    /// When the next host becomes ready, if one is waiting.
    #[must_use]
    pub fn next_ready_at(&self, now: Instant) -> Option<Instant> {
        self.queues.next_ready_at(now)
    }

    /// URLs queued, not counting those in flight.
    #[must_use]
    pub fn queued(&self) -> usize {
        self.queues.len()
    }

    /// Fetches in flight.
    #[must_use]
    pub const fn in_flight(&self) -> usize {
        self.in_flight_total
    }

    /// Records per decision so far (this run and the resumed ones).
    #[must_use]
    pub fn decision_counts(&self) -> &HashMap<&'static str, u64> {
        &self.stats
    }

    fn release(&mut self, host: &str, not_before: Instant) {
        if let Some(n) = self.in_flight.get_mut(host) {
            *n = n.saturating_sub(1);
        }
        self.in_flight_total = self.in_flight_total.saturating_sub(1);
        let at = self
            .queues
            .next_allowed(host)
            .map_or(not_before, |t| t.max(not_before));
        self.queues.set_next_allowed(host, at);
    }

    /// Gives a job back unfetched (e.g. the crawl is stopping): it stays queued in the state.
    pub fn abandon(&mut self, job: Job) {
        let host = host_port(&job.url).unwrap_or_default();
        self.release(&host, Instant::now());
    }

    /// Records what fetching `job` gave, judges the page, queues its links.
    ///
    /// # Errors
    /// The state cannot be written.
    pub fn complete(
        &mut self,
        job: Job,
        fetched: Fetched,
        now: Instant,
    ) -> Result<Completed, StateError> {
        let host = host_port(&job.url).unwrap_or_default();
        if let Fetched::Later { after, error } = &fetched {
            let n = self.requeues.entry(job.id).or_insert(0);
            *n += 1;
            if *n <= self.config.max_requeues {
                let until = unix_ms(std::time::SystemTime::now())
                    .saturating_add(u64::try_from(after.as_millis()).unwrap_or(u64::MAX));
                self.store.set_host_backoff(&host, until)?;
                self.release(&host, now + *after);
                self.enqueue(QueueEntry {
                    url: job.url,
                    depth: job.depth,
                    referrer: None,
                    payload: job.id,
                });
                return Ok(Completed {
                    records: Vec::new(),
                    queued: 0,
                });
            }
            let fetched = Fetched::Failed {
                final_url: job.url.clone(),
                status: None,
                fetch_ms: 0,
                decision: Decision::Error,
                error: format!("gave up after {n} waits: {error}"),
            };
            self.release(&host, now);
            return self.judge_in_order(job, fetched, now);
        }
        self.release(&host, now);
        self.judge_in_order(job, fetched, now)
    }

    /// Judges `job` when its turn comes: now, with the pages that waited for it, or later.
    fn judge_in_order(
        &mut self,
        job: Job,
        fetched: Fetched,
        now: Instant,
    ) -> Result<Completed, StateError> {
        let before = self.order.head();
        let mut done = Completed {
            records: Vec::new(),
            queued: 0,
        };
        if let Some((job, fetched)) = self.order.arrived(job, fetched) {
            self.record_into(job, fetched, true, &mut done)?;
        }
        self.judge_waiting(before, now, &mut done)?;
        Ok(done)
    }

    fn judge_waiting(
        &mut self,
        before: Option<u64>,
        now: Instant,
        done: &mut Completed,
    ) -> Result<(), StateError> {
        while let Some((job, fetched)) = self.order.next() {
            self.record_into(job, fetched, false, done)?;
        }
        if self.order.moved(before, now) {
            self.queues.unblock();
        }
        Ok(())
    }

    fn record_into(
        &mut self,
        job: Job,
        fetched: Fetched,
        out_of_order: bool,
        done: &mut Completed,
    ) -> Result<(), StateError> {
        let (record, queued) = self.record(job, fetched, out_of_order)?;
        done.records.push(record);
        done.queued += queued;
        Ok(())
    }

    /// Judges the pages that waited behind a fetch stuck for longer than the reorder timeout
    /// (`force`: at once, whatever the time: nothing else can move); the stuck one is judged
    /// out of order when its fetch ends. Call it from time to time.
    ///
    /// # Errors
    /// The state cannot be written.
    pub fn release_stuck(&mut self, now: Instant, force: bool) -> Result<Completed, StateError> {
        let mut done = Completed {
            records: Vec::new(),
            queued: 0,
        };
        let before = self.order.head();
        if self.order.release_head(now, force) {
            self.judge_waiting(before, now, &mut done)?;
        }
        Ok(done)
    }

    /// URLs queued, in flight or waiting for their turn: not yet judged.
    #[must_use]
    pub fn unjudged(&self) -> usize {
        self.order.pending()
    }

    /// Fetches that ended and wait for the pages found before theirs.
    #[must_use]
    pub fn waiting(&self) -> usize {
        self.order.waiting()
    }

    fn record(
        &mut self,
        job: Job,
        fetched: Fetched,
        out_of_order: bool,
    ) -> Result<(StoredRecord, usize), StateError> {
        self.requeues.remove(&job.id);
        if let Fetched::Page { final_url, .. } = &fetched {
            self.note_alias(&job, final_url)?;
        }
        let on_dup = self.dedup.config().on_duplicate;
        // Exploring, a duplicate's page comes back as with `follow-links` (its record is the
        // same: emission does not depend on it), and only its links of a new shape go on.
        let explore = self.explores();
        let judged_as = if explore {
            OnDuplicate::FollowLinks
        } else {
            on_dup
        };
        let (mut rec, follow) = crate::record::page_record(
            job.id,
            fetched,
            judged_as,
            |final_url, page, body_hash| {
                let verdict = self.dedup.judge_page(&PageSignals {
                    id: job.id,
                    host: &host_port(final_url).unwrap_or_default(),
                    body_hash,
                    fingerprint: page.fingerprint,
                    elements: page.elements,
                    summary: page.summary.as_deref(),
                    content: &page.content,
                });
                let cluster = match verdict {
                    Verdict::ExactDuplicate { of } => Some(self.store.cluster_of(of)?),
                    _ => None,
                };
                Ok::<_, StateError>(Some((verdict, cluster)))
            },
        )?;
        rec.out_of_order = out_of_order;
        *self.stats.entry(rec.decision.as_str()).or_insert(0) += 1;
        let (seq, out_seq) = self.store.record(&rec)?;
        let links = if explore {
            explored_links(
                rec.decision,
                self.dedup.last_similarity(),
                self.dedup.config().min_similarity,
            )
        } else {
            Some(Explore::All)
        };
        let mut queued = match (follow, links) {
            (Some((base, page)), Some(links)) => self.queue_links(&job, &base, &page, links)?,
            _ => 0,
        };
        if explore && rec.decision == Decision::Kept && self.store.explored(job.id)? {
            // An explored page found another kind: its fetch goes back to the host's budget,
            // and a link held for want of it is queued.
            let host = host_port(&job.url).unwrap_or_default();
            if let Some(n) = self.explored.get_mut(&host) {
                *n = n.saturating_sub(1);
            }
            queued += self.release_held(&host)?;
        }
        let record = self.stored(job, rec, seq, out_seq)?;
        Ok((record, queued))
    }

    /// Whether duplicates' links of new URL shapes are followed (drop mode, `explore` > 0):
    /// only then are hosts' shapes kept.
    fn explores(&self) -> bool {
        self.config.explore > 0 && self.dedup.config().on_duplicate == OnDuplicate::Drop
    }

    /// The final URL of a redirect is known too: never fetch it again as a link.
    fn note_alias(&mut self, job: &Job, final_url: &Url) -> Result<(), StateError> {
        if *final_url == job.url {
            return Ok(());
        }
        if let Ok(canon) = canonicalize(final_url, &self.config.canon)
            && self.seen.insert_key(UrlKey::of(&canon))
        {
            self.store.add_done_url(
                canon.as_str(),
                &host_port(&canon).unwrap_or_default(),
                job.depth,
            )?;
        }
        Ok(())
    }

    /// Queues the page's links: all of them, or when exploring only those on its host that
    /// `links` says, within [`FrontierConfig::explore`] (`shape.rs`).
    fn queue_links(
        &mut self,
        job: &Job,
        page_url: &Url,
        page: &HtmlPage,
        links: Explore,
    ) -> Result<usize, StateError> {
        // Only exploring needs the page's host (a host's shapes are its own pages' links).
        let page_host = if self.explores() {
            host_port(&job.url).unwrap_or_default()
        } else {
            String::new()
        };
        let base = crate::base_url(page.base.as_deref(), page_url);
        let depth = job.depth + 1;
        let mut queued = 0;
        for url in self
            .resolved
            .resolve_all(&base, &page.links, &self.config.canon)
        {
            let key = UrlKey::of(&url);
            if self.seen.contains_key(key)
                || !self.in_scope(&url, depth)
                || self.traps.check(&url).is_err()
            {
                continue;
            }
            if self.explores() {
                // A host's shapes are those of the URLs its pages queued on it (what a
                // resume rebuilds from the recorded links).
                let own = host_port(&url).is_some_and(|h| h == page_host);
                if links == Explore::All {
                    if own {
                        self.shapes.insert(shape_key(&page_host, &url));
                    }
                } else {
                    if !own {
                        continue;
                    }
                    let n = self.explored.get(&page_host).copied().unwrap_or(0);
                    let room = n < links.most(self.config.explore);
                    let held = self.held.get(&page_host).map_or(0, VecDeque::len);
                    if !room && held >= most_held(self.config.explore) {
                        continue;
                    }
                    let new = self.shapes.insert(shape_key(&page_host, &url));
                    if !new && links == Explore::NewShapes {
                        continue;
                    }
                    if !room {
                        let unseen = links == Explore::Unseen;
                        let id =
                            self.store
                                .hold(url.as_str(), &page_host, depth, job.id, unseen)?;
                        self.held.entry(page_host.clone()).or_default().push_back(
                            crate::HeldLink {
                                id,
                                url: url.into(),
                                host: page_host.clone(),
                                depth,
                                referrer: job.id,
                                unseen,
                                released: false,
                            },
                        );
                        continue;
                    }
                    *self.explored.entry(page_host.clone()).or_insert(0) += 1;
                }
            }
            queued += usize::from(self.admit(url, key, depth, job.id)?);
        }
        Ok(queued)
    }

    /// Queues a link not seen yet, or defers it beyond a page limit (kept for a run with a
    /// higher limit); returns whether it was queued.
    fn admit(&mut self, url: Url, key: UrlKey, depth: u32, from: u64) -> Result<bool, StateError> {
        self.seen.insert_key(key);
        let host = host_port(&url).unwrap_or_default();
        if self.budget.try_take(&url).is_err() {
            self.store
                .add_deferred_url(url.as_str(), &host, depth, Some(from))?;
            return Ok(false);
        }
        let Some(id) = self.store.add_url(url.as_str(), &host, depth, Some(from))? else {
            return Ok(false);
        };
        self.enqueue(QueueEntry {
            url,
            depth,
            referrer: None,
            payload: id,
        });
        Ok(true)
    }

    /// After a refund of the host's exploration budget: its first held link that the budget
    /// has room for (by the way it was held: [`Explore::most`]) and that is not seen yet is
    /// counted and queued; those seen meanwhile are let go. At most one is queued: before
    /// the refund no held link had room. Returns how many were queued.
    fn release_held(&mut self, host: &str) -> Result<usize, StateError> {
        let explore = self.config.explore;
        loop {
            let n = self.explored.get(host).copied().unwrap_or(0);
            let Some(queue) = self.held.get_mut(host) else {
                return Ok(0);
            };
            let most = |link: &crate::HeldLink| {
                let way = if link.unseen {
                    Explore::Unseen
                } else {
                    Explore::NewShapes
                };
                way.most(explore)
            };
            let Some(link) = queue
                .iter()
                .position(|link| n < most(link))
                .and_then(|i| queue.remove(i))
            else {
                return Ok(0);
            };
            self.store.unhold(link.id)?;
            let Ok(url) = Url::parse(&link.url) else {
                continue;
            };
            let key = UrlKey::of(&url);
            if self.seen.contains_key(key) {
                continue;
            }
            *self.explored.entry(host.to_owned()).or_insert(0) += 1;
            return Ok(usize::from(self.admit(
                url,
                key,
                link.depth,
                link.referrer,
            )?));
        }
    }

    /// In scope of at least one seed.
    fn in_scope(&self, url: &Url, depth: u32) -> bool {
        self.scope.admits(url, &self.seeds, depth)
    }

    /// Whether a redirect target is in scope (for the fetcher's redirect policy).
    #[must_use]
    pub fn redirect_in_scope(&self, url: &Url, depth: u32) -> bool {
        self.in_scope(url, depth)
    }

    fn stored(
        &self,
        job: Job,
        page: PageRecord,
        seq: u64,
        out_seq: Option<u64>,
    ) -> Result<StoredRecord, StateError> {
        let duplicate_of_url = match page.duplicate_of {
            Some(id) => self.store.url(id)?,
            None => None,
        };
        let cluster_url = match page.cluster {
            Some(id) if Some(id) == page.duplicate_of => duplicate_of_url.clone(),
            Some(id) if id == job.id => Some(job.url.to_string()),
            Some(id) => self.store.url(id)?,
            None => None,
        };
        Ok(StoredRecord {
            // Every record goes to decisions.jsonl, with its referrer.
            referrer: self.store.referrer_url(job.id)?,
            url: job.url.to_string(),
            host: host_port(&job.url).unwrap_or_default(),
            depth: job.depth,
            content_duplicate_of_url: page.content_duplicate_of.and(duplicate_of_url.clone()),
            duplicate_of_url,
            cluster_url,
            seq,
            out_seq,
            page,
        })
    }

    /// Makes everything recorded so far durable.
    ///
    /// # Errors
    /// The state cannot be written (e.g. a full disk): what was not committed is lost and
    /// those URLs are fetched again by a resumed crawl.
    pub fn commit(&mut self) -> Result<(), StateError> {
        self.store.commit()
    }
}

pub(crate) fn unix_ms(t: std::time::SystemTime) -> u64 {
    t.duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
#[path = "frontier_tests.rs"]
mod tests;
