//! What the `class_paths*` tests share: the default hasher without its clock, so results
//! depend on the input only.

use silhouette_dom::{HasherConfig, Limits, Structure, StructureHasher};

/// The default configuration (class-paths, decay 0.76) without the clock.
pub fn hasher() -> StructureHasher {
    StructureHasher::new(HasherConfig {
        limits: Limits {
            time_budget: None,
            ..Limits::default()
        },
        ..HasherConfig::default()
    })
    .expect("valid config")
}

/// The structure of `html` with [`hasher`].
pub fn hash(html: &str) -> Structure {
    hasher()
        .hash(html.as_bytes())
        .expect("no input is rejected")
}
