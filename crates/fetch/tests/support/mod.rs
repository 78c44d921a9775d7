//! What both integration-test files share: a config with small limits, and shorthands.

use std::time::Duration;

use silhouette_fetch::{
    AddressPolicy, FetchConfig, FetchContext, FetchError, FetchOutcome, Fetcher,
};
use url::Url;

/// Small limits so every case ends within a few seconds. The "seed" is 127.0.0.1 exactly;
/// any other loopback address counts as a private address reached from a public seed.
pub fn config() -> FetchConfig {
    FetchConfig {
        connect_timeout: Duration::from_secs(2),
        first_byte_timeout: Duration::from_secs(2),
        idle_timeout: Duration::from_secs(1),
        total_timeout: Duration::from_secs(5),
        host_request_interval: None,
        max_retries: 2,
        backoff_base: Duration::from_millis(100),
        backoff_cap: Duration::from_millis(400),
        max_host_wait: Duration::from_secs(10),
        robots_retry_interval: Duration::from_secs(30),
        address_policy: AddressPolicy::allowing(["127.0.0.1"]),
        ..FetchConfig::default()
    }
}

pub fn fetcher(config: FetchConfig) -> Fetcher {
    Fetcher::new(config).expect("valid config")
}

pub async fn get(fetcher: &Fetcher, url: &Url) -> FetchOutcome {
    fetcher.fetch(url, &FetchContext::new()).await
}

pub fn err(outcome: &FetchOutcome) -> &FetchError {
    match &outcome.result {
        Ok(page) => panic!("expected an error, got status {} page", page.status),
        Err(e) => e,
    }
}

/// Asserts that `outcome` failed with an error `expected` accepts (a `matches!` pattern).
#[track_caller]
pub fn check_err(outcome: &FetchOutcome, expected: impl Fn(&FetchError) -> bool) {
    assert!(expected(err(outcome)), "{:?}", outcome.result);
}
