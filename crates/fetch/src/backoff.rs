//! `Retry-After` parsing and exponential backoff with jitter.

use std::time::{Duration, SystemTime};

use rand::Rng;
use reqwest::header::{HeaderMap, RETRY_AFTER};

/// A server cannot make us wait longer than this, whatever it says.
pub(crate) const MAX_RETRY_AFTER: Duration = Duration::from_secs(24 * 60 * 60);

/// Parses `Retry-After` as delay-seconds or an HTTP date (relative to
/// `now`), capped at [`MAX_RETRY_AFTER`]. A date in the past means zero.
pub(crate) fn parse_retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    let delay = if let Ok(secs) = value.parse::<u64>() {
        Duration::from_secs(secs)
    } else {
        let date = httpdate::parse_http_date(value).ok()?;
        date.duration_since(now).unwrap_or(Duration::ZERO)
    };
    Some(delay.min(MAX_RETRY_AFTER))
}

/// Delay after `failures` consecutive failures (1 = first failure):
/// `base * 2^(failures-1)` capped at `cap`, with "equal jitter" (a random
/// value in the upper half), so it is never below half the nominal delay.
pub(crate) fn backoff_delay(failures: u32, base: Duration, cap: Duration) -> Duration {
    let exponent = failures.saturating_sub(1).min(30);
    let nominal = base.saturating_mul(1u32 << exponent).min(cap);
    let half = nominal / 2;
    let jitter_nanos = u64::try_from(half.as_nanos()).unwrap_or(u64::MAX);
    let extra = if jitter_nanos == 0 {
        0
    } else {
        rand::rng().random_range(0..=jitter_nanos)
    };
    half + Duration::from_nanos(extra)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn headers(value: &str) -> HeaderMap {
        let mut map = HeaderMap::new();
        if let Ok(v) = HeaderValue::from_str(value) {
            map.insert(RETRY_AFTER, v);
        }
        map
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(
            parse_retry_after(&headers("2"), now),
            Some(Duration::from_secs(2))
        );
        let later = httpdate::fmt_http_date(now + Duration::from_secs(120));
        assert_eq!(
            parse_retry_after(&headers(&later), now),
            Some(Duration::from_secs(120))
        );
        let earlier = httpdate::fmt_http_date(now - Duration::from_secs(120));
        assert_eq!(
            parse_retry_after(&headers(&earlier), now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after(&headers("soon"), now), None);
        assert_eq!(
            parse_retry_after(&headers("99999999999"), now),
            Some(MAX_RETRY_AFTER)
        );
        assert_eq!(parse_retry_after(&HeaderMap::new(), now), None);
    }

    #[test]
    fn backoff_grows_and_is_capped() {
        let base = Duration::from_millis(100);
        let cap = Duration::from_secs(1);
        for failures in 1..40 {
            let d = backoff_delay(failures, base, cap);
            let nominal = (base * 2u32.saturating_pow(failures.min(20) - 1)).min(cap);
            assert!(d >= nominal / 2 && d <= nominal, "{failures}: {d:?}");
        }
    }
}
