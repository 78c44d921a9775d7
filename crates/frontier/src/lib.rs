//! x
#![deny(missing_docs)]

mod canon;

pub use canon::{
    CanonConfig, CanonConfigError, CanonError, DEFAULT_STRIP_PARAMS, canonicalize, parse_canonical,
    resolve_link,
};
