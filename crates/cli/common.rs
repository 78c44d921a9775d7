//! What the commands share: the config file with the structure flags over it, the crawl's
//! settings and hasher, the readers of pages and archives, the default state directory.

use anyhow::Result;
use silhouette_dom::StructureHasher;
use silhouette_text::ContentHasher;

use crate::args::FingerprintFlags;
use crate::config::{Config, Overrides, Settings};
use crate::{corpus, web_page};

/// Exit status when some inputs failed and the rest were processed.
pub const EXIT_PARTIAL: u8 = 1;

/// `--decay`, `--features` and `--threshold` as options over the config file's.
pub fn overrides(flags: &FingerprintFlags, threshold: Option<i64>) -> Overrides {
    Overrides {
        decay: flags.decay,
        features: flags.features.clone(),
        threshold,
    }
}

/// The config file with the command-line overrides.
pub fn config_with(
    cli_config: Option<&std::path::Path>,
    flags: &FingerprintFlags,
    threshold: Option<i64>,
) -> Result<Config> {
    Ok(Config::find(cli_config)?.with(&overrides(flags, threshold)))
}

/// What reads the documents of `idf build` and `overlap`: the configured structure hasher,
/// collecting main-content text as `fingerprint --content` does, and the crawl's largest body
/// for archived pages.
pub fn corpus_reader(config: &Config) -> Result<corpus::Reader> {
    let mut base = config.settings()?;
    let crawl = config.crawl(base.threshold)?;
    base.hasher.limits.max_text_bytes = silhouette_dom::DEFAULT_MAX_TEXT_BYTES;
    let hasher = StructureHasher::new(base.hasher)?;
    Ok(corpus::Reader::new(hasher, crawl.fetch.max_body_bytes))
}

/// A fetcher for `urls` (the arguments that are URLs), with the configuration's fetch
/// settings; `None` when there are none.
pub fn web_pages(config: &Config, urls: Vec<url::Url>) -> Result<Option<web_page::WebPages>> {
    if urls.is_empty() {
        return Ok(None);
    }
    let crawl = config.crawl(config.settings()?.threshold)?;
    web_page::WebPages::new(&crawl.fetch, &urls).map(Some)
}

/// The config file with the command-line overrides, and its fingerprint and crawl settings.
pub fn crawl_settings(
    config: Option<&std::path::Path>,
    flags: &FingerprintFlags,
    threshold: Option<i64>,
) -> Result<(Config, Settings, silhouette_crawl::CrawlConfig)> {
    let config = config_with(config, flags, threshold)?;
    let base = config.settings()?;
    let crawl = config.crawl(base.threshold)?;
    Ok((config, base, crawl))
}

/// The hasher of a crawl: the configured fingerprint, with link extraction on, and the
/// main-content text when the crawl has a content signal.
pub fn crawl_hasher(base: &Settings, content: Option<&ContentHasher>) -> Result<StructureHasher> {
    Ok(silhouette_crawl::crawl_hasher(base.hasher, content)?)
}

/// The state directory given, else the one `crawl` uses by default (crawl.state-dir).
pub fn state_or_default(config: &Config, state: Option<std::path::PathBuf>) -> std::path::PathBuf {
    state.unwrap_or_else(|| config.state_dir())
}
