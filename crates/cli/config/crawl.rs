//! The `[crawl]`, `[traps]`, `[fetch]` and crawl-side `[dedup]` settings: options → checked
//! values → the frontier's and the fetcher's plain config structs.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, anyhow};
use silhouette_crawl::CrawlConfig;
use silhouette_fetch::{AddressPolicy, FetchConfig};
use silhouette_frontier::{
    CanonConfig, DedupConfig, DedupScope, DropWhen, FrontierConfig, OnDuplicate, ScopeConfig,
    ScopeMode, TrapConfig,
};

use super::check::{Invalid, range};
use super::content;
use super::fingerprint::{far, min_similarity};
use super::options::{CrawlOptions, DedupOptions, FetchOptions, Options, key};

/// `Name: value` → (name, value), or an error naming `fetch.headers`.
fn header(line: &str) -> Result<(String, String)> {
    match line.split_once(':') {
        Some((name, value))
            if !name.trim().is_empty()
                && reqwest_like_token(name.trim())
                && !value.contains(['\r', '\n']) =>
        {
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(Invalid::new(
            key::HEADERS,
            format!("{line:?}"),
            "each must be \"Name: value\" (a header name without spaces, a colon, a value on one line)",
        )
        .into()),
    }
}

/// An HTTP header name: RFC 9110 token characters.
fn reqwest_like_token(name: &str) -> bool {
    name.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn opt_limit(key: &str, v: Option<i64>, default: Option<u64>) -> Result<Option<u64>> {
    match v {
        None => Ok(default),
        Some(0) => Ok(None),
        Some(v) => range::<u64>(key, v, 0, i64::MAX).map(Some),
    }
}

fn secs(key: &str, v: Option<i64>, default: Duration) -> Result<Duration> {
    v.map_or(Ok(default), |v| {
        range::<u64>(key, v, 1, 86_400).map(Duration::from_secs)
    })
}

/// Checks the crawl sections of `options`; `threshold` is the checked `[dedup] threshold`.
pub fn resolve(options: &Options, threshold: u32) -> Result<CrawlConfig> {
    let crawl = options
        .crawl
        .as_ref()
        .map_or_else(CrawlOptions::default, clone_crawl);
    let default_dedup = DedupOptions::default();
    let dedup = options.dedup.as_ref().unwrap_or(&default_dedup);
    let traps = options.traps.as_ref();
    let fetch = options.fetch.as_ref();
    // The defaults, stated once: the library's.
    let defaults = CrawlConfig::default();

    let (far_reach, far_margin) = far(dedup)?;
    let dedup_config = DedupConfig {
        threshold,
        scope: match &dedup.dedup_scope {
            None => DedupScope::default(),
            Some(s) => s.parse().map_err(|e| Invalid::setting("dedup", &e))?,
        },
        cluster_budget: dedup
            .cluster_budget
            .map_or(Ok(defaults.frontier.dedup.cluster_budget), |v| {
                range("dedup.cluster-budget", v, 1, 1_000_000)
            })?,
        min_elements: dedup
            .min_elements
            .map_or(Ok(defaults.frontier.dedup.min_elements), |v| {
                range("dedup.min-elements", v, 0, 1_000_000_000)
            })?,
        on_duplicate: match &dedup.on_duplicate {
            None => OnDuplicate::default(),
            Some(s) => s.parse().map_err(|e| Invalid::setting("dedup", &e))?,
        },
        min_similarity: Some(min_similarity(dedup)?),
        drop_when: match &dedup.drop_when {
            None => DropWhen::default(),
            Some(s) => s.parse().map_err(|e| Invalid::setting("dedup", &e))?,
        },
        content_threshold: content::threshold(options.content.as_ref())?,
        varying_after: dedup
            .varying_after
            .map_or(Ok(defaults.frontier.dedup.varying_after), |v| {
                range("dedup.varying-after", v, 0, 1_000_000)
            })?,
        far_reach,
        far_margin,
    };

    let mode = match crawl.scope.as_deref() {
        None => ScopeMode::default(),
        Some(s) => s.parse().map_err(|_| {
            Invalid::new(
                key::SCOPE,
                format!("{s:?}"),
                "must be one of \"same-host\", \"same-domain\", \"any\"",
            )
        })?,
    };
    let scope = ScopeConfig {
        mode,
        include: crawl.include.clone().unwrap_or_default(),
        exclude: crawl.exclude.clone().unwrap_or_default(),
        max_depth: match crawl.max_depth {
            None => defaults.frontier.scope.max_depth,
            Some(v) => Some(range(key::MAX_DEPTH, v, 0, 100_000)?),
        },
        max_pages: opt_limit(key::MAX_PAGES, crawl.max_pages, None)?,
        max_pages_per_host: opt_limit("crawl.max-pages-per-host", crawl.max_pages_per_host, None)?,
    };
    silhouette_frontier::Scope::new(&scope).map_err(|e| match e {
        silhouette_frontier::ScopeError::BadPattern {
            list,
            pattern,
            source,
        } => {
            let why = source.to_string().replace('\n', " ");
            let problem = format!("not a valid regular expression: {why}");
            Invalid::new(format!("crawl.{list}"), format!("{pattern:?}"), problem).into()
        }
        e => anyhow!("crawl.{e}"),
    })?;
    let canon = CanonConfig {
        strip_params: crawl
            .strip_params
            .clone()
            .unwrap_or_else(|| CanonConfig::default().strip_params),
        ..CanonConfig::default()
    };
    canon
        .validate()
        .map_err(|e| anyhow!("crawl.strip-params: {e}"))?;

    let d = TrapConfig::default();
    let t = |key: &str, v: Option<i64>, default: usize| -> Result<usize> {
        v.map_or(Ok(default), |v| {
            range(&format!("traps.{key}"), v, 1, 1_000_000)
        })
    };
    let trap_config = TrapConfig {
        max_url_length: t(
            "max-url-length",
            traps.and_then(|o| o.max_url_length),
            d.max_url_length,
        )?,
        max_path_depth: t(
            "max-path-depth",
            traps.and_then(|o| o.max_path_depth),
            d.max_path_depth,
        )?,
        max_segment_occurrences: t(
            "max-segment-occurrences",
            traps.and_then(|o| o.max_segment_occurrences),
            d.max_segment_occurrences,
        )?,
        max_run_repeats: t(
            "max-run-repeats",
            traps.and_then(|o| o.max_run_repeats),
            d.max_run_repeats,
        )?,
        max_query_params: t(
            "max-query-params",
            traps.and_then(|o| o.max_query_params),
            d.max_query_params,
        )?,
        max_query_nesting: t(
            "max-query-nesting",
            traps.and_then(|o| o.max_query_nesting),
            d.max_query_nesting,
        )?,
    };

    let f = defaults.fetch.clone();
    let get = |pick: fn(&FetchOptions) -> Option<i64>| fetch.and_then(pick);
    let per_host = get(|o| o.per_host_concurrency).map_or(Ok(f.per_host_concurrency), |v| {
        range("fetch.per-host-concurrency", v, 1, 1024)
    })?;
    let concurrency = crawl.concurrency.map_or(Ok(defaults.concurrency), |v| {
        range(key::CONCURRENCY, v, 1, 4096)
    })?;
    let fetch_config = FetchConfig {
        user_agent: fetch
            .and_then(|o| o.user_agent.clone())
            .unwrap_or(f.user_agent.clone()),
        robots_agent: fetch
            .and_then(|o| o.robots_agent.clone())
            .unwrap_or(f.robots_agent.clone()),
        host_request_interval: match get(|o| o.request_interval_ms) {
            None => f.host_request_interval,
            Some(0) => None,
            Some(v) => Some(Duration::from_millis(range(
                key::REQUEST_INTERVAL,
                v,
                0,
                3_600_000,
            )?)),
        },
        per_host_concurrency: per_host,
        global_concurrency: concurrency,
        max_crawl_delay: secs(
            "fetch.max-crawl-delay-secs",
            get(|o| o.max_crawl_delay_secs),
            f.max_crawl_delay,
        )?,
        connect_timeout: secs(
            "fetch.connect-timeout-secs",
            get(|o| o.connect_timeout_secs),
            f.connect_timeout,
        )?,
        first_byte_timeout: secs(
            "fetch.first-byte-timeout-secs",
            get(|o| o.first_byte_timeout_secs),
            f.first_byte_timeout,
        )?,
        idle_timeout: secs(
            "fetch.idle-timeout-secs",
            get(|o| o.idle_timeout_secs),
            f.idle_timeout,
        )?,
        total_timeout: secs(
            "fetch.total-timeout-secs",
            get(|o| o.total_timeout_secs),
            f.total_timeout,
        )?,
        max_body_bytes: get(|o| o.max_body_bytes).map_or(Ok(f.max_body_bytes), |v| {
            range("fetch.max-body-bytes", v, 1, i64::MAX)
        })?,
        max_redirects: get(|o| o.max_redirects).map_or(Ok(f.max_redirects), |v| {
            range("fetch.max-redirects", v, 0, 100)
        })?,
        max_retries: get(|o| o.max_retries)
            .map_or(Ok(f.max_retries), |v| range("fetch.max-retries", v, 0, 100))?,
        address_policy: if fetch
            .and_then(|o| o.allow_private_addresses)
            .unwrap_or(false)
        {
            AddressPolicy::allow_all()
        } else {
            AddressPolicy::default()
        },
        headers: fetch
            .and_then(|o| o.headers.as_deref())
            .unwrap_or_default()
            .iter()
            .map(|h| header(h))
            .collect::<Result<_>>()?,
        proxy: fetch.and_then(|o| o.proxy.clone()),
        ..f
    };
    if fetch_config.user_agent.trim().is_empty() || fetch_config.user_agent.contains(['\r', '\n']) {
        return Err(Invalid::new(
            key::USER_AGENT,
            format!("{:?}", fetch_config.user_agent),
            "must be a non-empty HTTP header value on one line",
        )
        .into());
    }
    if let Some(proxy) = &fetch_config.proxy
        && !url::Url::parse(proxy)
            .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
    {
        return Err(Invalid::new(
            key::PROXY,
            format!("{proxy:?}"),
            "must be an http(s) URL such as http://127.0.0.1:3128",
        )
        .into());
    }
    fetch_config.validate().map_err(|e| anyhow!("fetch: {e}"))?;

    Ok(CrawlConfig {
        frontier: FrontierConfig {
            canon,
            scope,
            traps: trap_config,
            dedup: dedup_config,
            per_host_in_flight: per_host,
            summary_of: defaults.frontier.summary_of,
            max_requeues: crawl
                .max_requeues
                .map_or(Ok(defaults.frontier.max_requeues), |v| {
                    range("crawl.max-requeues", v, 0, 1000)
                })?,
            reorder_window: crawl
                .reorder_window
                .map_or(Ok(defaults.frontier.reorder_window), |v| {
                    range("crawl.reorder-window", v, 1, 1_000_000)
                })?,
            reorder_timeout: crawl
                .reorder_timeout_secs
                .map_or(Ok(defaults.frontier.reorder_timeout), |v| {
                    range("crawl.reorder-timeout-secs", v, 1, 86_400).map(Duration::from_secs)
                })?,
            explore: dedup.explore.map_or(Ok(defaults.frontier.explore), |v| {
                range("dedup.explore", v, 0, 1_000_000)
            })?,
        },
        fetch: fetch_config,
        concurrency,
        sitemaps: crawl.sitemaps.unwrap_or(defaults.sitemaps),
    })
}

fn clone_crawl(c: &CrawlOptions) -> CrawlOptions {
    CrawlOptions {
        scope: c.scope.clone(),
        include: c.include.clone(),
        exclude: c.exclude.clone(),
        max_depth: c.max_depth,
        max_pages: c.max_pages,
        max_pages_per_host: c.max_pages_per_host,
        concurrency: c.concurrency,
        state_dir: c.state_dir.clone(),
        strip_params: c.strip_params.clone(),
        max_requeues: c.max_requeues,
        sitemaps: c.sitemaps,
        reorder_window: c.reorder_window,
        reorder_timeout_secs: c.reorder_timeout_secs,
    }
}

/// The state directory of `crawl`, and of `stats`, `replay` and `report` when none is
/// given: crawl.state-dir, else `silhouette-state`.
pub fn state_dir(options: &Options) -> PathBuf {
    PathBuf::from(
        options
            .crawl
            .as_ref()
            .and_then(|c| c.state_dir.clone())
            .unwrap_or_else(|| "silhouette-state".to_owned()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;

    fn check(toml: &str, expected: Result<&str, &str>) {
        let got = Options::parse(toml, "c.toml").and_then(|o| {
            let s = Settings::resolve(&o)?;
            resolve(&o, s.threshold)
        });
        match (got, expected) {
            (Ok(s), Ok(fragment)) => {
                let shown = format!("{s:?}");
                assert!(
                    shown.contains(fragment),
                    "{toml:?}: {fragment} not in {shown}"
                );
            }
            (Err(e), Err(msg)) => assert_eq!(e.to_string(), msg, "{toml:?}"),
            (got, _) => panic!("{toml:?}: unexpected {got:?}"),
        }
    }

    /// An empty config is the library's defaults: a program that embeds the crawl with
    /// `CrawlConfig::default()` crawls as `silhouette crawl` does.
    #[test]
    fn an_empty_config_is_the_library_default() {
        for text in ["", crate::config::options::DEFAULT_CONFIG] {
            let o = Options::parse(text, "c.toml").expect("parses");
            let s = Settings::resolve(&o).expect("resolves");
            let got = resolve(&o, s.threshold).expect("resolves");
            assert_eq!(format!("{got:?}"), format!("{:?}", CrawlConfig::default()));
        }
        let o = Options::default();
        let s = Settings::resolve(&o).expect("resolves");
        assert_eq!(
            format!("{:?}", s.hasher),
            format!("{:?}", silhouette_dom::HasherConfig::default())
        );
    }

    #[test]
    fn crawl_values_and_errors() {
        check("", Ok("on_duplicate: Drop"));
        check(
            "[dedup]\non-duplicate = \"follow-links\"\ncluster-budget = 3",
            Ok("cluster_budget: 3"),
        );
        check("[dedup]\ndedup-scope = \"host\"", Ok("scope: Host"));
        check(
            "[crawl]\nscope = \"same-domain\"\nmax-pages = 0",
            Ok("max_pages: None"),
        );
        check(
            "[fetch]\nrequest-interval-ms = 0",
            Ok("host_request_interval: None"),
        );
        check("[crawl]\nconcurrency = 8", Ok("concurrency: 8"));
        check(
            "[dedup]\non-duplicate = \"skip\"",
            Err(r#"dedup.on-duplicate = "skip": must be one of "drop", "follow-links", "keep""#),
        );
        check(
            "[dedup]\nthreshold = 9",
            Err("dedup.threshold = 9: must be a whole number from 0 to 8"),
        );
        check(
            "[dedup]\ncluster-budget = 0",
            Err("dedup.cluster-budget = 0: must be a whole number from 1 to 1000000"),
        );
        check(
            "[crawl]\nscope = \"site\"",
            Err(r#"crawl.scope = "site": must be one of "same-host", "same-domain", "any""#),
        );
        check(
            "[fetch]\nidle-timeout-secs = 0",
            Err("fetch.idle-timeout-secs = 0: must be a whole number from 1 to 86400"),
        );
        let bad_regex =
            Options::parse("[crawl]\nexclude = [\"(\"]", "c").and_then(|o| resolve(&o, 5));
        let err = bad_regex.expect_err("bad pattern").to_string();
        assert!(err.starts_with("crawl.") && err.contains("\"(\""), "{err}");
    }
}
