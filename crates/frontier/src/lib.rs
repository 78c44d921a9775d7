//! x
#![deny(missing_docs)]

mod canon;
mod queue;
mod scope;
mod seen;
mod traps;

pub use canon::{
    CanonConfig, CanonConfigError, CanonError, DEFAULT_STRIP_PARAMS, canonicalize, parse_canonical,
    resolve_link,
};
pub use queue::{HostQueues, QueueEntry};
pub use scope::{
    Budget, OutOfScope, Scope, ScopeConfig, ScopeError, ScopeMode, registrable_domain,
};
pub use seen::{SeenSet, UrlKey};
pub use traps::{Trap, TrapConfig, TrapGuard};
