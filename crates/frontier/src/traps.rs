//! Crawler-trap guards: URLs that are shaped like an endless space.
//!
//! [`TrapGuard::check`] looks at one URL on its own: its length, how deep
//! its path is, a path segment that keeps coming back (`/a/x/b/x/c/x/d/x`),
//! a run of segments repeated back to back (`/a/b/a/b/a/b`, typical of
//! relative links resolved against the wrong base), the number of
//! query parameters (faceted-search combinations), and a query parameter
//! whose value holds that parameter again and again (a login page whose
//! `?next=` link points at a login page with a `next` of its own:
//! `/login?next=/login?next%3D/login%3Fnext%253D…`, one more level per page).
//!
//! Traps that look like ordinary URLs one at a time — a calendar whose
//! "next month" link never ends (`?month=2031-07`), endless pagination, a
//! session id in every link — are not visible here. They are contained by
//! the other limits: canonicalisation removes session parameters, each link
//! is one level deeper than its page (`max_depth`), and a host can take at
//! most `max_pages_per_host` pages, so one trap never spends more than its
//! host's budget; the per-host queues keep the other hosts going meanwhile.

use thiserror::Error;
use url::Url;

/// Trap limits as plain data; the defaults suit ordinary sites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrapConfig {
    /// Longest URL accepted, in bytes of its serialisation. Default: 2048.
    pub max_url_length: usize,
    /// Most path segments (`/a/b/` has 2). Default: 32.
    pub max_path_depth: usize,
    /// Most times one path segment may occur in a path. Default: 3.
    pub max_segment_occurrences: usize,
    /// Most times a run of segments may repeat back to back: with 2,
    /// `/a/b/a/b` passes and `/a/b/a/b/a/b` and `/x/x/x` do not. Default: 2.
    pub max_run_repeats: usize,
    /// Most query parameters (non-empty `&`-separated pairs). Default: 16.
    pub max_query_params: usize,
    /// Most times a query parameter's value may hold a query with that same parameter,
    /// level in level (each level decoded once more): with 1,
    /// `/login?next=/login?next%3D/` passes and `/login?next=/login?next%3D/login%3Fnext%253D/`
    /// does not. Default: 1.
    pub max_query_nesting: usize,
}

impl Default for TrapConfig {
    fn default() -> Self {
        Self {
            max_url_length: 2048,
            max_path_depth: 32,
            max_segment_occurrences: 3,
            max_run_repeats: 2,
            max_query_params: 16,
            max_query_nesting: 1,
        }
    }
}

/// Why a URL looks like a trap.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Trap {
    /// The URL is too long.
    #[error("URL is {length} bytes long, over the maximum {max}")]
    TooLong {
        /// Its length in bytes.
        length: usize,
        /// The limit.
        max: usize,
    },
    /// The path has too many segments.
    #[error("path has {depth} segments, over the maximum {max}")]
    TooDeep {
        /// The number of segments.
        depth: usize,
        /// The limit.
        max: usize,
    },
    /// One segment occurs too often.
    #[error("path segment {segment:?} occurs {count} times, over the maximum {max}")]
    RepeatedSegment {
        /// The segment (as it appears in the path).
        segment: String,
        /// How often it occurs.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A run of segments repeats back to back too often.
    #[error("path segments {run:?} repeat {repeats} times in a row, over the maximum {max}")]
    RepeatingRun {
        /// The run, joined with `/`.
        run: String,
        /// How many times in a row it occurs.
        repeats: usize,
        /// The limit.
        max: usize,
    },
    /// Too many query parameters.
    #[error("query has {count} parameters, over the maximum {max}")]
    TooManyQueryParams {
        /// The number of parameters.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A query parameter's value holds that parameter again, too many levels deep.
    #[error(
        "query parameter {name:?} holds itself {levels} levels deep in its value, over the maximum {max}"
    )]
    NestedQuery {
        /// The parameter's name.
        name: String,
        /// How many levels deep (counted up to one over the limit).
        levels: usize,
        /// The limit.
        max: usize,
    },
}

/// Checks URLs against a [`TrapConfig`].
#[derive(Debug, Clone, Default)]
pub struct TrapGuard {
    config: TrapConfig,
}

impl TrapGuard {
    /// A guard with these limits (every value is valid; 0 allows nothing
    /// of that kind).
    pub fn new(config: TrapConfig) -> Self {
        Self { config }
    }

    /// The limits.
    pub fn config(&self) -> &TrapConfig {
        &self.config
    }

    /// Whether `url` looks like a trap. Give it the canonical URL, so that
    /// stripped parameters do not count. Work is bounded by the length and
    /// depth limits, which are checked first.
    pub fn check(&self, url: &Url) -> Result<(), Trap> {
        let c = &self.config;
        let length = url.as_str().len();
        if length > c.max_url_length {
            return Err(Trap::TooLong {
                length,
                max: c.max_url_length,
            });
        }
        let path = url.path();
        let path = path.strip_prefix('/').unwrap_or(path);
        // A trailing `/` does not make another segment.
        let path = path.strip_suffix('/').unwrap_or(path);
        let segments: Vec<&str> = if path.is_empty() {
            Vec::new()
        } else {
            path.split('/').collect()
        };
        if segments.len() > c.max_path_depth {
            return Err(Trap::TooDeep {
                depth: segments.len(),
                max: c.max_path_depth,
            });
        }
        check_runs(&segments, c.max_run_repeats)?;
        check_occurrences(&segments, c.max_segment_occurrences)?;
        let count = url
            .query()
            .map_or(0, |q| q.split('&').filter(|p| !p.is_empty()).count());
        if count > c.max_query_params {
            return Err(Trap::TooManyQueryParams {
                count,
                max: c.max_query_params,
            });
        }
        for (name, value) in url.query_pairs() {
            let levels = nesting(&name, &value, c.max_query_nesting);
            if levels > c.max_query_nesting {
                return Err(Trap::NestedQuery {
                    name: name.into_owned(),
                    levels,
                    max: c.max_query_nesting,
                });
            }
        }
        Ok(())
    }
}

/// How many levels deep `value` (decoded), a value of query parameter `name`, holds a query
/// with `name` again: the query after its first `?`, parsed and decoded as a query is, level
/// by level; counted up to `max` + 1. Each level is shorter than the one that holds it.
fn nesting(name: &str, value: &str, max: usize) -> usize {
    let mut levels = 0;
    let mut current = std::borrow::Cow::Borrowed(value);
    while levels <= max {
        let Some((_, query)) = current.split_once('?') else {
            break;
        };
        let Some(inner) = url::form_urlencoded::parse(query.as_bytes())
            .find(|(key, _)| key == name)
            .map(|(_, inner)| inner.into_owned())
        else {
            break;
        };
        levels += 1;
        current = std::borrow::Cow::Owned(inner);
    }
    levels
}

/// The first segment occurring more than `max` times.
fn check_occurrences(segments: &[&str], max: usize) -> Result<(), Trap> {
    if segments.len() <= max {
        return Ok(());
    }
    // Quadratic in a path no deeper than `max_path_depth`: cheaper than a map.
    for (i, segment) in segments.iter().enumerate() {
        if segments[..i].contains(segment) {
            continue;
        }
        let count = segments[i..].iter().filter(|s| *s == segment).count();
        if count > max {
            return Err(Trap::RepeatedSegment {
                segment: (*segment).to_owned(),
                count,
                max,
            });
        }
    }
    Ok(())
}

/// The first run of segments repeated back to back more than `max` times.
fn check_runs(segments: &[&str], max: usize) -> Result<(), Trap> {
    let n = segments.len();
    if max == 0 {
        return match segments.first() {
            Some(first) => Err(Trap::RepeatingRun {
                run: (*first).to_owned(),
                repeats: 1,
                max,
            }),
            None => Ok(()),
        };
    }
    let min_repeats = max.saturating_add(1);
    // A run of `len` segments repeated `min_repeats` times spans
    // `len * min_repeats` segments; `segments[i] == segments[i + len]` for
    // `len * max` positions in a row means exactly that.
    let needed_len = |len: usize| len.saturating_mul(max);
    for len in 1..=n / min_repeats {
        let mut equal_in_a_row = 0;
        for i in 0..n - len {
            if segments[i] == segments[i + len] {
                equal_in_a_row += 1;
            } else {
                equal_in_a_row = 0;
            }
            if equal_in_a_row >= needed_len(len) {
                let start = i + 1 - equal_in_a_row;
                // Count how far the repetition goes on.
                let mut end = i + len + 1;
                while end < n && segments[end] == segments[end - len] {
                    end += 1;
                }
                return Err(Trap::RepeatingRun {
                    run: segments[start..start + len].join("/"),
                    repeats: (end - start) / len,
                    max,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "traps_tests.rs"]
mod tests;
