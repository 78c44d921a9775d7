//! What became of a fetched URL: the decision every record carries.

use std::fmt;
use std::str::FromStr;

/// The decision of a record, as `decisions.jsonl`, the output and the state name it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Decision {
    /// An HTML page kept: no kept page has its structure (or content).
    Kept,
    /// Within the threshold of a kept page's structure (and confirmed alike).
    NearDuplicate,
    /// Byte-identical to a kept page.
    ExactDuplicate,
    /// Its main-content text is near a kept page's (`dedup.drop-when`).
    ContentDuplicate,
    /// Fetched, not HTML.
    NotHtml,
    /// The fetch failed (or the server said no).
    #[default]
    Error,
    /// robots.txt disallows it.
    RobotsDisallowed,
    /// A redirect left the crawl's scope.
    OutOfScope,
    /// An HTML page that sends the browser on at once (`<meta http-equiv=refresh>`, within
    /// [`MAX_REFRESH_DELAY`](crate::MAX_REFRESH_DELAY) seconds): not judged, its target
    /// followed as a link.
    Redirect,
}

impl Decision {
    /// Every decision, in the order above.
    pub const ALL: [Self; 9] = [
        Self::Kept,
        Self::NearDuplicate,
        Self::ExactDuplicate,
        Self::ContentDuplicate,
        Self::NotHtml,
        Self::Error,
        Self::RobotsDisallowed,
        Self::OutOfScope,
        Self::Redirect,
    ];

    /// Its name in records: `kept`, `near-duplicate`, `exact-duplicate`,
    /// `content-duplicate`, `not-html`, `error`, `robots-disallowed`, `out-of-scope`,
    /// `redirect`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Kept => "kept",
            Self::NearDuplicate => "near-duplicate",
            Self::ExactDuplicate => "exact-duplicate",
            Self::ContentDuplicate => "content-duplicate",
            Self::NotHtml => "not-html",
            Self::Error => "error",
            Self::RobotsDisallowed => "robots-disallowed",
            Self::OutOfScope => "out-of-scope",
            Self::Redirect => "redirect",
        }
    }

    /// A duplicate of a kept page (near, exact or by content).
    #[must_use]
    pub const fn is_duplicate(self) -> bool {
        matches!(
            self,
            Self::NearDuplicate | Self::ExactDuplicate | Self::ContentDuplicate
        )
    }

    /// An HTML page judged by the dedup stage: kept or a duplicate.
    #[must_use]
    pub const fn is_judged(self) -> bool {
        matches!(self, Self::Kept) || self.is_duplicate()
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no decision.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a decision")]
pub struct UnknownDecision(pub String);

impl FromStr for Decision {
    type Err = UnknownDecision;

    fn from_str(s: &str) -> Result<Self, UnknownDecision> {
        Self::ALL
            .into_iter()
            .find(|d| d.as_str() == s)
            .ok_or_else(|| UnknownDecision(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::Decision;

    #[test]
    fn names_read_back() {
        for d in Decision::ALL {
            assert_eq!(d.as_str().parse::<Decision>(), Ok(d));
        }
        assert!("maybe".parse::<Decision>().is_err());
        assert!(Decision::ContentDuplicate.is_duplicate() && Decision::Kept.is_judged());
        assert!(!Decision::NotHtml.is_judged());
    }
}
