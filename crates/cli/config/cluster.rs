//! `[cluster]` and `--redis URL --crawl NAME`: a crawl shared by workers through Redis.

use std::time::Duration;

use anyhow::{Result, bail};
use silhouette_crawl::ClusterConfig;
use silhouette_redis::SharedConfig;

use super::check::{Invalid, range};
use super::options::{ClusterOptions, key};

/// `None` without `cluster.url` (a single-process crawl); `crawl_by_flag`: the crawl's name
/// came from `--crawl`, which makes no sense without a URL.
pub fn resolve(
    options: Option<&ClusterOptions>,
    crawl_by_flag: bool,
) -> Result<Option<ClusterConfig>> {
    let default = ClusterOptions::default();
    let o = options.unwrap_or(&default);
    let url = o.url.clone().filter(|u| !u.is_empty());
    let Some(url) = url else {
        if crawl_by_flag {
            bail!("--crawl NAME names a shared crawl: give --redis URL (or cluster.url) too");
        }
        return Ok(None);
    };
    if !(url.starts_with("redis://") || url.starts_with("redis+cluster://")) {
        return Err(Invalid::new(
            key::CLUSTER_URL,
            format!("{url:?}"),
            "must start with redis:// (one server) or redis+cluster:// (a Redis Cluster)",
        )
        .into());
    }
    let Some(crawl) = o.crawl.clone() else {
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
    use crate::config::flags::{ClusterFlags, Flags};

    fn check(toml: &str, flags: &[&str], expected: Result<Option<(&str, &str, u64)>, &str>) {
        let mut options = crate::config::Options {
            cluster: Some(toml::from_str(toml).expect("parses")),
            ..Default::default()
        };
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            flags: ClusterFlags,
        }
        let cli =
            <Cli as clap::Parser>::parse_from(std::iter::once("x").chain(flags.iter().copied()));
        let given = cli.flags.apply(&mut options);
        let by_flag = given.iter().any(|(key, _)| *key == "cluster.crawl");
        let got = resolve(options.cluster.as_ref(), by_flag)
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
