//! The configuration, in layers whose imports run one way:
//!
//! 1. [`options`]: what `config.toml` may say (serde; every key optional);
//! 2. [`check`]: the checks the resolvers share (a range, an error naming key, value and what
//!    is allowed);
//! 3. one resolver per section — [`fingerprint`], [`content`], [`crawl`], [`output`],
//!    [`cluster`] — from options to the libraries' plain config structs, with the libraries'
//!    defaults (`silhouette_crawl::CrawlConfig::default()`, `silhouette_dom`'s);
//! 4. [`flags`]: the command-line flags that stand for keys, written over the options.
//!
//! [`Config`] ties them for a command: the file is parsed once, the flags are applied once,
//! and every resolver's error about a key a flag set names the flag.

pub mod check;
pub mod cluster;
pub mod content;
pub mod crawl;
pub mod fingerprint;
pub mod flags;
pub mod options;
pub mod output;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;
use silhouette_crawl::{ClusterConfig, CrawlConfig, WarcConfig};
use silhouette_frontier::DropWhen;
use silhouette_text::{ContentConfig, ContentHasher};

pub use self::fingerprint::Settings;
pub use self::flags::{ClusterFlags, CrawlFlags, Flags, Given, Overrides};
pub use self::options::Options;

/// A command's configuration: the options of one file with the command's flags over them.
#[derive(Debug, Default)]
pub struct Config {
    options: Options,
    given: Given,
}

impl Config {
    /// The options of `--config FILE`, else `$SILHOUETTE_CONFIG`, else the built-in
    /// `config.toml`.
    pub fn find(path: Option<&Path>) -> Result<Self> {
        Ok(Self::of(Options::find(path)?))
    }

    /// `options` with no flags over them.
    pub fn of(options: Options) -> Self {
        Self {
            options,
            given: Given::new(),
        }
    }

    /// Writes `flags` over the options.
    #[must_use]
    pub fn with(mut self, flags: &impl Flags) -> Self {
        let given = flags.apply(&mut self.options);
        self.given.extend(given);
        self
    }

    /// The options, flags applied.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Whether a flag set `key`.
    fn by_flag(&self, key: &str) -> bool {
        self.given.iter().any(|(k, _)| *k == key)
    }

    /// An error about a key a flag set, told in terms of the flag.
    fn named<T>(&self, result: Result<T>) -> Result<T> {
        result.map_err(|e| flags::name_the_flag(e, &self.given))
    }

    /// `[fingerprint]` and the structure threshold.
    pub fn settings(&self) -> Result<Settings> {
        self.named(Settings::resolve(&self.options))
    }

    /// The crawl's settings; `threshold` is the checked structure threshold.
    pub fn crawl(&self, threshold: u32) -> Result<CrawlConfig> {
        self.named(crawl::resolve(&self.options, threshold))
    }

    /// The content hasher of a crawl or dedup run (`[content]`), shared by its tasks; `None`
    /// when `content.enabled` is off (the default unless `drop_when` needs content).
    pub fn content_hasher(&self, drop_when: DropWhen) -> Result<Option<Arc<ContentHasher>>> {
        let content = self.options.content.as_ref();
        if !self.named(content::enabled(content, drop_when))? {
            return Ok(None);
        }
        let config = self.content(content::ContentOverrides::default())?;
        Ok(Some(Arc::new(ContentHasher::new(config)?)))
    }

    /// `[content]`, checked, with `overrides` (`fingerprint --bits`).
    pub fn content(&self, overrides: content::ContentOverrides) -> Result<ContentConfig> {
        self.named(content::resolve(self.options.content.as_ref(), overrides))
    }

    /// `[output]`: the crawl's WARC files, if any.
    pub fn warc(&self) -> Result<Option<WarcConfig>> {
        self.named(output::resolve(&self.options))
    }

    /// `[cluster]`: the shared crawl, if any.
    pub fn cluster(&self) -> Result<Option<ClusterConfig>> {
        self.named(cluster::resolve(
            self.options.cluster.as_ref(),
            self.by_flag(options::key::CLUSTER_CRAWL),
        ))
    }

    /// The state directory of `crawl`, and of `stats`, `replay` and `report` when none is
    /// given: crawl.state-dir, else `silhouette-state`.
    pub fn state_dir(&self) -> PathBuf {
        crawl::state_dir(&self.options)
    }
}
