//! Key names. Every key of a crawl starts with `sil:`; the crawl's own keys carry the hash
//! tag `{NAME}`, a host's keys the tag `{NAME@HOST}`, so that every script touches keys of
//! one Redis Cluster slot.

use crate::SharedError;

/// The keys of one crawl.
#[derive(Clone, Debug)]
pub(crate) struct Keys {
    name: String,
}

/// The keys of one host of a crawl.
#[derive(Clone, Debug)]
pub(crate) struct HostKeys {
    tag: String,
}

impl Keys {
    pub(crate) fn new(name: &str) -> Result<Self, SharedError> {
        let ok = !name.is_empty()
            && name.len() <= 64
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        if !ok {
            return Err(SharedError::CrawlName {
                name: name.to_owned(),
            });
        }
        Ok(Self {
            name: name.to_owned(),
        })
    }

    fn key(&self, what: &str) -> String {
        format!("sil:{{{}}}:{what}", self.name)
    }

    /// The settings the crawl was started with (hash).
    pub(crate) fn params(&self) -> String {
        self.key("params")
    }
    /// The seeds (set).
    pub(crate) fn seeds(&self) -> String {
        self.key("seeds")
    }
    /// Every host with a URL (set).
    pub(crate) fn hosts(&self) -> String {
        self.key("hosts")
    }
    /// Hosts with work, scored by when to try them next (sorted set, ms).
    pub(crate) fn schedule(&self) -> String {
        self.key("sched")
    }
    /// Pages taken of the crawl's `max-pages` budget (string).
    pub(crate) fn pages(&self) -> String {
        self.key("pages")
    }
    /// The last sequence number given (string): the canonical order's counter.
    pub(crate) fn seq(&self) -> String {
        self.key("seq")
    }
    /// Page sequence number → the first sequence number of its links (hash): a page judged
    /// again (by a worker whose lease had run out, or that died mid-turn) gives its links
    /// the same numbers.
    pub(crate) fn bases(&self) -> String {
        self.key("bases")
    }
    /// Hosts by the smallest sequence number of their URLs not judged yet (sorted set): its
    /// first member is the page whose turn it is.
    pub(crate) fn heads(&self) -> String {
        self.key("heads")
    }
    /// A once-per-crawl task (`sitemaps`): who does it, or `done` (string).
    pub(crate) fn once(&self, task: &str) -> String {
        self.key(&format!("once:{task}"))
    }
    /// Workers by their last heartbeat (sorted set, ms).
    pub(crate) fn workers(&self) -> String {
        self.key("workers")
    }
    /// The workers' WARC files by name: what each worker says of its files (hash).
    pub(crate) fn warc_files(&self) -> String {
        self.key("warc-files")
    }

    /// A host's keys.
    pub(crate) fn host(&self, host: &str) -> HostKeys {
        HostKeys {
            tag: format!("sil:{{{}@{host}}}", self.name),
        }
    }

    /// The dedup log of a scope (`""`: the global scope).
    pub(crate) fn dedup(&self, scope: &str) -> String {
        if scope.is_empty() {
            self.key("dlog")
        } else {
            self.host(scope).key("dlog")
        }
    }
}

impl HostKeys {
    fn key(&self, what: &str) -> String {
        format!("{}:{what}", self.tag)
    }
    /// The URLs waiting (sorted set of entries, by sequence number).
    pub(crate) fn queue(&self) -> String {
        self.key("q")
    }
    /// The URLs leased, by deadline (sorted set of entries, ms).
    pub(crate) fn leases(&self) -> String {
        self.key("lease")
    }
    /// The URLs queued, leased or fetched and not judged yet in the canonical order (sorted
    /// set: URL id (16 hex digits) by sequence number).
    pub(crate) fn order(&self) -> String {
        self.key("ord")
    }
    /// URLs taken out of the order (a fetch stuck too long): judged when fetched, out of
    /// order (set of URL ids).
    pub(crate) fn late(&self) -> String {
        self.key("late")
    }
    /// Keys of the URLs seen (set of 16-byte URL keys).
    pub(crate) fn seen(&self) -> String {
        self.key("seen")
    }
    /// The records, by URL id (hash).
    pub(crate) fn records(&self) -> String {
        self.key("rec")
    }
    /// The host's robots.txt, shared by every worker (string with an expiry).
    pub(crate) fn robots(&self) -> String {
        self.key("robots")
    }
    /// Held by the worker fetching the host's robots.txt (string with an expiry).
    pub(crate) fn robots_lock(&self) -> String {
        self.key("rlock")
    }
    /// The URL shapes the host's pages linked to, when exploring in drop mode (set of
    /// `silhouette_frontier::shape_key` values).
    pub(crate) fn shapes(&self) -> String {
        self.key("shapes")
    }
    /// Links exploration had no room for, in the order they came (list of the exploring
    /// mode's digit, the 16-byte seen member, the queue entry).
    pub(crate) fn held(&self) -> String {
        self.key("held")
    }
    /// The URLs exploration queued that are not judged kept yet (set of URL ids).
    pub(crate) fn explored(&self) -> String {
        self.key("expl")
    }
    /// Politeness and counters: `next` (ms), `delay` (Crawl-delay, ms), `fails` (failures in
    /// a row), `pages` (taken of `max-pages-per-host`), `explored` (links followed from
    /// duplicates, less one for each of their pages kept), `n:DECISION`, `rq:ID` (hash).
    pub(crate) fn meta(&self) -> String {
        self.key("meta")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Redis Cluster hashes the text between the first `{` and the next `}`.
    fn tag(key: &str) -> &str {
        let open = key.find('{').expect("tagged");
        let close = key[open..].find('}').expect("closed") + open;
        &key[open + 1..close]
    }

    #[test]
    fn one_tag_per_host_and_per_crawl() {
        let k = Keys::new("c1").expect("valid");
        let h = k.host("a.example:8080");
        let host_keys = [
            h.queue(),
            h.leases(),
            h.seen(),
            h.records(),
            h.meta(),
            h.robots(),
            h.robots_lock(),
            h.order(),
            h.late(),
            h.shapes(),
            h.held(),
            h.explored(),
        ];
        assert!(host_keys.iter().all(|key| tag(key) == "c1@a.example:8080"));
        assert_eq!(tag(&k.dedup("a.example:8080")), "c1@a.example:8080");
        let crawl_keys = [
            k.params(),
            k.seeds(),
            k.hosts(),
            k.schedule(),
            k.workers(),
            k.pages(),
            k.once("sitemaps"),
            k.dedup(""),
            k.seq(),
            k.bases(),
            k.heads(),
        ];
        assert!(crawl_keys.iter().all(|key| tag(key) == "c1"));
        for bad in ["", "a b", "x{y}", &"n".repeat(65)] {
            assert!(Keys::new(bad).is_err(), "{bad:?}");
        }
    }
}
