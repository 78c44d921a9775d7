//! `[cluster]` and `--redis URL --crawl NAME`: a crawl shared by workers through Redis.

use std::time::Duration;

use anyhow::{Result, bail};
use serde::Deserialize;
use silhouette_crawl::ClusterConfig;
use silhouette_redis::SharedConfig;

use crate::settings::range;

/// `[cluster]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ClusterOptions {
    /// `redis://HOST:PORT/DB` or `redis+cluster://HOST:PORT,…`; empty: no shared crawl.
    pub url: Option<String>,
    /// The crawl's name in Redis.
    pub crawl: Option<String>,
    /// Seconds a leased URL stays with a worker.
    pub lease_secs: Option<i64>,
    /// Hosts claimed from the schedule in one call.
    pub claim_batch: Option<i64>,
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

/// `None` when neither `--redis` nor `cluster.url` is given (a single-process crawl).
pub fn resolve(
    options: Option<&ClusterOptions>,
    flags: &ClusterFlags,
) -> Result<Option<ClusterConfig>> {
    let default = ClusterOptions::default();
    let o = options.unwrap_or(&default);
    let url = flags
        .redis
        .clone()
        .or_else(|| o.url.clone())
        .filter(|u| !u.is_empty());
    let Some(url) = url else {
        if flags.crawl_name.is_some() {
            bail!("--crawl NAME names a shared crawl: give --redis URL (or cluster.url) too");
        }
        return Ok(None);
    };
    if !(url.starts_with("redis://") || url.starts_with("redis+cluster://")) {
        bail!(
            "cluster.url = {url:?}: must start with redis:// (one server) or redis+cluster:// (a Redis Cluster)"
        );
    }
    let Some(crawl) = flags.crawl_name.clone().or_else(|| o.crawl.clone()) else {
        bail!("a shared crawl needs a name: give --crawl NAME (or cluster.crawl)");
    };
    let mut shared = SharedConfig::default();
    if let Some(v) = o.lease_secs {
        shared.lease = Duration::from_secs(range("cluster.lease-secs", v, 1, 86_400)?);
    }
    if let Some(v) = o.claim_batch {
        shared.claim_batch = range("cluster.claim-batch", v, 1, 4096)?;
    }
    Ok(Some(ClusterConfig { url, crawl, shared }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(toml: &str, flags: &[&str], expected: Result<Option<(&str, &str, u64)>, &str>) {
        let options: ClusterOptions = toml::from_str(toml).expect("parses");
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            flags: ClusterFlags,
        }
        let cli =
            <Cli as clap::Parser>::parse_from(std::iter::once("x").chain(flags.iter().copied()));
        let got = resolve(Some(&options), &cli.flags)
            .map(|s| s.map(|s| (s.url, s.crawl, s.shared.lease.as_secs())))
            .map_err(|e| e.to_string());
        let expected = expected
            .map(|o| o.map(|(u, c, l)| (u.to_owned(), c.to_owned(), l)))
            .map_err(str::to_owned);
        assert_eq!(got, expected);
    }

    #[test]
    fn settings() {
        check("", &[], Ok(None));
        check(
            "url = \"redis://127.0.0.1:6379/0\"\ncrawl = \"c\"\nlease-secs = 30",
            &[],
            Ok(Some(("redis://127.0.0.1:6379/0", "c", 30))),
        );
        check(
            "url = \"redis://a:1/0\"\ncrawl = \"c\"",
            &["--redis", "redis://b:2/1", "--crawl", "d"],
            Ok(Some(("redis://b:2/1", "d", 60))),
        );
        check(
            "",
            &["--redis", "redis://b:2/1"],
            Err("a shared crawl needs a name: give --crawl NAME (or cluster.crawl)"),
        );
        check(
            "",
            &["--crawl", "d"],
            Err("--crawl NAME names a shared crawl: give --redis URL (or cluster.url) too"),
        );
        check(
            "url = \"http://x\"\ncrawl = \"c\"",
            &[],
            Err(
                "cluster.url = \"http://x\": must start with redis:// (one server) or redis+cluster:// (a Redis Cluster)",
            ),
        );
        check(
            "url = \"redis://x\"\ncrawl = \"c\"\nlease-secs = 0",
            &[],
            Err("cluster.lease-secs = 0: must be a whole number from 1 to 86400"),
        );
    }
}
