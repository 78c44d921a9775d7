//! A [`NearIndex`] shared between threads: concurrent readers, one writer at a time.

use std::path::Path;
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use super::{IndexError, Match, NearIndex};
use crate::Fingerprint;

/// A [`NearIndex`] behind a `RwLock`, for a crawler's worker threads.
///
/// Queries ([`any_within`](Self::any_within), [`nearest`](Self::nearest)) take the read lock
/// and run in parallel; [`insert_if_new`](Self::insert_if_new) takes the write lock, so the
/// check and the insert are one atomic step and two workers can never both admit
/// near-duplicates of each other. Writers are serialised: an insert that triggers a segment
/// merge holds the lock for the merge (rare; proportional to the segments merged). The index's
/// methods do not panic, so a poisoned lock (a panic elsewhere while holding the guard) is
/// recovered rather than propagated.
///
/// ```
/// use std::sync::Arc;
/// use silhouette_simhash::{Fingerprint, NearIndex, SharedNearIndex};
///
/// let index = Arc::new(SharedNearIndex::new(NearIndex::new(5)?));
/// let workers: Vec<_> = (0..4u32)
///     .map(|w| {
///         let index = Arc::clone(&index);
///         // Pairwise 16, 32 or 48 bits apart: all four are new.
///         let fp = Fingerprint::new(u64::MAX >> (16 * w));
///         std::thread::spawn(move || index.insert_if_new(fp, w.into()).is_ok())
///     })
///     .collect();
/// for worker in workers {
///     assert_eq!(worker.join().ok(), Some(true));
/// }
/// assert_eq!(index.nearest(Fingerprint::new(u64::MAX ^ 0b101)), Some((0, 2)));
/// assert_eq!(index.len(), 4);
/// # Ok::<(), silhouette_simhash::IndexError>(())
/// ```
#[derive(Debug)]
pub struct SharedNearIndex {
    inner: RwLock<NearIndex>,
}

impl SharedNearIndex {
    /// Wraps `index`.
    #[must_use]
    pub fn new(index: NearIndex) -> Self {
        Self {
            inner: RwLock::new(index),
        }
    }

    /// Unwraps the index.
    #[must_use]
    pub fn into_inner(self) -> NearIndex {
        self.inner
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Shared access, for any query of [`NearIndex`].
    pub fn read(&self) -> RwLockReadGuard<'_, NearIndex> {
        self.inner.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Exclusive access, for any mutation of [`NearIndex`].
    pub fn write(&self) -> RwLockWriteGuard<'_, NearIndex> {
        self.inner.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// [`NearIndex::any_within`] under the read lock.
    #[must_use]
    pub fn any_within(&self, fp: Fingerprint) -> bool {
        self.read().any_within(fp)
    }

    /// [`NearIndex::nearest`] under the read lock.
    #[must_use]
    pub fn nearest(&self, fp: Fingerprint) -> Option<(u64, u32)> {
        self.read().nearest(fp)
    }

    /// [`NearIndex::insert_if_new`] under the write lock: check and insert are atomic.
    ///
    /// # Errors
    /// [`Match`] when `fp` is a near-duplicate; the index is then unchanged.
    pub fn insert_if_new(&self, fp: Fingerprint, id: u64) -> Result<(), Match> {
        self.write().insert_if_new(fp, id)
    }

    /// [`NearIndex::insert`] under the write lock.
    pub fn insert(&self, fp: Fingerprint, id: u64) {
        self.write().insert(fp, id);
    }

    /// [`NearIndex::remove`] under the write lock.
    pub fn remove(&self, id: u64) -> usize {
        self.write().remove(id)
    }

    /// [`NearIndex::len`] under the read lock.
    #[must_use]
    pub fn len(&self) -> usize {
        self.read().len()
    }

    /// [`NearIndex::is_empty`] under the read lock.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.read().is_empty()
    }

    /// [`NearIndex::save`] under the read lock (queries continue; writers wait).
    ///
    /// # Errors
    /// As [`NearIndex::save`].
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), IndexError> {
        self.read().save(path)
    }
}
