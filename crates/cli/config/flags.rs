//! The flags that stand for config keys: they are written over the config's options before
//! the settings are checked, so a flag wins over `config.toml` and is checked by the same
//! rules; an error then names the flag instead of the key. The last layer of the
//! configuration: it knows the options, nothing else.

use super::check::Invalid;
use super::options::{
    ClusterOptions, ContentOptions, CrawlOptions, DedupOptions, FetchOptions, FingerprintOptions,
    Options, OutputOptions, key,
};

/// (config key, flag) of every flag given.
pub type Given = Vec<(&'static str, &'static str)>;

/// Command-line values written over the options.
pub trait Flags {
    /// Writes the flags given over `options`; returns which keys they set.
    fn apply(&self, options: &mut Options) -> Given;
}

/// `--decay`, `--features`, `--threshold`: the structure settings every command takes.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `fingerprint.decay`.
    pub decay: Option<f64>,
    /// `fingerprint.features`.
    pub features: Option<String>,
    /// `dedup.threshold`.
    pub threshold: Option<i64>,
}

impl Flags for Overrides {
    fn apply(&self, options: &mut Options) -> Given {
        let mut given = Given::new();
        if let Some(v) = self.threshold {
            options
                .dedup
                .get_or_insert_with(DedupOptions::default)
                .threshold = Some(v);
            given.push((key::THRESHOLD, "--threshold"));
        }
        let fingerprint = options
            .fingerprint
            .get_or_insert_with(FingerprintOptions::default);
        if let Some(v) = self.decay {
            fingerprint.decay = Some(v);
            given.push((key::DECAY, "--decay"));
        }
        if let Some(v) = &self.features {
            fingerprint.features = Some(v.clone());
            given.push((key::FEATURES, "--features"));
        }
        given
    }
}

/// `--redis` and `--crawl`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct ClusterFlags {
    /// The Redis of a shared crawl (`crawl` joins it as one of its workers, `stats` and
    /// `export` read it): redis://HOST:PORT/DB, or redis+cluster://HOST:PORT,HOST:PORT for a
    /// Redis Cluster (overrides cluster.url).
    #[arg(long, value_name = "URL")]
    pub redis: Option<String>,

    /// The shared crawl's name (overrides cluster.crawl).
    #[arg(long = "crawl", value_name = "NAME")]
    pub crawl_name: Option<String>,
}

impl Flags for ClusterFlags {
    fn apply(&self, options: &mut Options) -> Given {
        let mut given = Given::new();
        let cluster = options.cluster.get_or_insert_with(ClusterOptions::default);
        if let Some(v) = &self.redis {
            cluster.url = Some(v.clone());
            given.push((key::CLUSTER_URL, "--redis"));
        }
        if let Some(v) = &self.crawl_name {
            cluster.crawl = Some(v.clone());
            given.push((key::CLUSTER_CRAWL, "--crawl"));
        }
        given
    }
}

/// Crawl settings given on the command line.
#[derive(Debug, Default, clap::Args)]
pub struct CrawlFlags {
    /// URLs crawled at most; 0: no limit (crawl.max-pages). Links beyond it are kept: raise
    /// it and run again to go on.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_pages: Option<i64>,

    /// Link depth from a seed at most (crawl.max-depth).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_depth: Option<i64>,

    /// Fetches in flight at once (crawl.concurrency).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub concurrency: Option<i64>,

    /// Minimum time between two requests to one host, in ms; 0: no rate limit
    /// (fetch.request-interval-ms).
    #[arg(
        long,
        visible_alias = "delay",
        value_name = "MS",
        allow_negative_numbers = true
    )]
    pub request_interval_ms: Option<i64>,

    /// What happens to duplicates: drop, follow-links or keep (dedup.on-duplicate).
    #[arg(long, value_name = "MODE")]
    pub on_duplicate: Option<String>,

    /// Which signal drops a page: structure, content, structure-and-content or
    /// structure-or-content (dedup.drop-when).
    #[arg(long, value_name = "MODE")]
    pub drop_when: Option<String>,

    /// Compute and record content fingerprints even when drop-when does not use them, so
    /// that `replay --drop-when` can compare content policies (content.enabled).
    #[arg(long)]
    pub content: bool,

    /// Bits within which two pages' content fingerprints count as the same: 0 to 8 for
    /// 64-bit content fingerprints (the default), 0 to 16 for 128-bit (content.threshold).
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub content_threshold: Option<i64>,

    /// Which links are followed: same-host, same-domain or any (crawl.scope).
    #[arg(long, value_name = "MODE")]
    pub scope: Option<String>,

    /// A URL must match one of these regular expressions; repeatable (crawl.include).
    #[arg(long, value_name = "REGEX")]
    pub include: Vec<String>,

    /// A URL matching one of these regular expressions is not crawled; repeatable
    /// (crawl.exclude).
    #[arg(long, value_name = "REGEX")]
    pub exclude: Vec<String>,

    /// An extra request header, `Name: value`; repeatable (fetch.headers).
    #[arg(long, value_name = "HEADER")]
    pub header: Vec<String>,

    /// The User-Agent header (fetch.user-agent).
    #[arg(long, value_name = "UA")]
    pub user_agent: Option<String>,

    /// An http(s) proxy for every request, e.g. http://127.0.0.1:3128 (fetch.proxy).
    #[arg(long, value_name = "URL")]
    pub proxy: Option<String>,

    /// Also take seeds from the seeds' sitemaps: the `Sitemap:` lines of robots.txt, else
    /// /sitemap.xml (crawl.sitemaps).
    #[arg(long)]
    pub sitemaps: bool,

    /// Write the fetched pages as WARC files into DIR (output.warc-dir).
    #[arg(long, value_name = "DIR")]
    pub warc: Option<String>,

    /// A CDXJ index beside each WARC file (output.warc-cdxj).
    #[arg(long)]
    pub warc_cdxj: bool,
}

impl Flags for CrawlFlags {
    fn apply(&self, options: &mut Options) -> Given {
        let mut given = Given::new();
        let mut note = |k, flag| given.push((k, flag));
        let crawl = options.crawl.get_or_insert_with(CrawlOptions::default);
        if let Some(v) = self.max_pages {
            crawl.max_pages = Some(v);
            note(key::MAX_PAGES, "--max-pages");
        }
        if let Some(v) = self.max_depth {
            crawl.max_depth = Some(v);
            note(key::MAX_DEPTH, "--max-depth");
        }
        if let Some(v) = self.concurrency {
            crawl.concurrency = Some(v);
            note(key::CONCURRENCY, "--concurrency");
        }
        if let Some(v) = &self.scope {
            crawl.scope = Some(v.clone());
            note(key::SCOPE, "--scope");
        }
        if !self.include.is_empty() {
            crawl.include = Some(self.include.clone());
            note(key::INCLUDE, "--include");
        }
        if !self.exclude.is_empty() {
            crawl.exclude = Some(self.exclude.clone());
            note(key::EXCLUDE, "--exclude");
        }
        if self.sitemaps {
            crawl.sitemaps = Some(true);
        }
        if let Some(v) = &self.on_duplicate {
            options
                .dedup
                .get_or_insert_with(DedupOptions::default)
                .on_duplicate = Some(v.clone());
            note(key::ON_DUPLICATE, "--on-duplicate");
        }
        if let Some(v) = &self.drop_when {
            options
                .dedup
                .get_or_insert_with(DedupOptions::default)
                .drop_when = Some(v.clone());
            note(key::DROP_WHEN, "--drop-when");
        }
        if self.content {
            options
                .content
                .get_or_insert_with(ContentOptions::default)
                .enabled = Some(true);
        }
        if let Some(v) = self.content_threshold {
            options
                .content
                .get_or_insert_with(ContentOptions::default)
                .threshold = Some(v);
            note(key::CONTENT_THRESHOLD, "--content-threshold");
        }
        let fetch = options.fetch.get_or_insert_with(FetchOptions::default);
        if let Some(v) = self.request_interval_ms {
            fetch.request_interval_ms = Some(v);
            note(key::REQUEST_INTERVAL, "--request-interval-ms");
        }
        if !self.header.is_empty() {
            fetch.headers = Some(self.header.clone());
            note(key::HEADERS, "--header");
        }
        if let Some(v) = &self.user_agent {
            fetch.user_agent = Some(v.clone());
            note(key::USER_AGENT, "--user-agent");
        }
        if let Some(v) = &self.proxy {
            fetch.proxy = Some(v.clone());
            note(key::PROXY, "--proxy");
        }
        let output = options.output.get_or_insert_with(OutputOptions::default);
        if let Some(v) = &self.warc {
            output.warc_dir = Some(v.clone());
            note(key::WARC_DIR, "--warc");
        }
        if self.warc_cdxj {
            output.warc_cdxj = Some(true);
        }
        given
    }
}

/// An error about a key that a flag set, told in terms of the flag: `crawl.max-pages = -1:
/// …` reads `--max-pages -1: …`, and `crawl.exclude: …` reads `--exclude (crawl.exclude): …`.
/// Only [`Invalid`] errors name a key; others are left as they are.
pub fn name_the_flag(mut e: anyhow::Error, given: &[(&str, &'static str)]) -> anyhow::Error {
    if let Some(invalid) = e.downcast_mut::<Invalid>()
        && let Some((_, flag)) = given.iter().find(|(key, _)| *key == invalid.key())
    {
        *invalid = invalid.clone().named_by(flag);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::{Overrides, name_the_flag};
    use crate::config::check::Invalid;
    use crate::config::{Config, Options};

    #[test]
    fn overrides_win_and_errors_name_them() {
        let options = Options::parse("[fingerprint]\ndecay = 0.6", "c").expect("parses");
        let over = Overrides {
            decay: Some(0.8),
            threshold: Some(3),
            features: None,
        };
        let s = Config::of(options).with(&over).settings().expect("valid");
        assert_eq!((s.hasher.decay, s.threshold), (0.8, 3));
        let bad = Overrides {
            decay: Some(0.0),
            ..Overrides::default()
        };
        let err = Config::default()
            .with(&bad)
            .settings()
            .expect_err("invalid");
        assert!(err.to_string().starts_with("--decay 0:"), "{err}");
    }

    #[test]
    fn errors_name_the_flag() {
        let given = [
            ("crawl.max-pages", "--max-pages"),
            ("crawl.exclude", "--exclude"),
        ];
        for (error, expected) in [
            (
                Invalid::new("crawl.max-pages", -1, "must be a whole number from 0 to 9"),
                "--max-pages -1: must be a whole number from 0 to 9",
            ),
            (
                Invalid::new("crawl.exclude", "\"(\"", "not a valid regular expression"),
                "--exclude \"(\": not a valid regular expression",
            ),
            (
                Invalid::setting("crawl.exclude", &"something"),
                "--exclude (crawl.exclude): something",
            ),
            (
                Invalid::new("crawl.max-depth", -1, "must be a whole number from 0 to 9"),
                "crawl.max-depth = -1: must be a whole number from 0 to 9",
            ),
        ] {
            let e = name_the_flag(error.into(), &given);
            assert_eq!(e.to_string(), expected);
        }
        // An error that names no key is left as it is.
        let other = name_the_flag(anyhow::anyhow!("crawl.max-pages = -1: x"), &given);
        assert_eq!(other.to_string(), "crawl.max-pages = -1: x");
    }
}
