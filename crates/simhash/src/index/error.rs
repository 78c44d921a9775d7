//! Errors of the near-duplicate index.

use std::io;
use std::path::PathBuf;

/// Why an index could not be built, saved or loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    /// The requested maximum distance has no exact table layout.
    #[error("the near-duplicate index supports k in 0..={max}, not k = {k}")]
    UnsupportedK {
        /// The requested `k`.
        k: u32,
        /// The largest supported `k`.
        max: u32,
    },
    /// Reading or writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The index file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: io::Error,
    },
    /// The file does not start with the index magic bytes.
    #[error("{}: not a silhouette near-duplicate index file", path.display())]
    NotAnIndex {
        /// The file.
        path: PathBuf,
    },
    /// The file was written by another version of the format.
    #[error("{}: index format version {found}, this build reads version {supported}", path.display())]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// Version found in the file.
        found: u32,
        /// Version this build reads and writes.
        supported: u32,
    },
    /// The file ends before the index does.
    #[error("{}: index file is truncated", path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
    },
    /// The file's checksum does not match its contents.
    #[error("{}: index file is corrupt (checksum mismatch)", path.display())]
    Checksum {
        /// The file.
        path: PathBuf,
    },
    /// The file is well-formed byte-wise but describes an impossible index.
    #[error("{}: index file is corrupt: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The file holds fingerprints made with other parameters (ALGORITHM.md §6).
    #[error(
        "{}: index holds fingerprints made with parameters {found:?}, expected {expected:?}",
        path.display()
    )]
    ParamsMismatch {
        /// The file.
        path: PathBuf,
        /// Parameters the caller expected (lossy UTF-8).
        expected: String,
        /// Parameters recorded in the file (lossy UTF-8).
        found: String,
    },
    /// The file was built for another maximum distance.
    #[error("{}: index was built for k = {found}, expected k = {expected}", path.display())]
    KMismatch {
        /// The file.
        path: PathBuf,
        /// The `k` the caller expected.
        expected: u32,
        /// The `k` recorded in the file.
        found: u32,
    },
}
