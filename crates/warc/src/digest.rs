//! `sha1:` + base32 digests, as `WARC-Block-Digest` and `WARC-Payload-Digest` spell them.

use sha1::{Digest as _, Sha1};

/// The WARC spelling of the SHA-1 of `bytes`: `sha1:` + 32 upper-case base32 characters.
///
/// ```
/// assert_eq!(silhouette_warc::sha1_digest(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
/// ```
pub fn sha1_digest(bytes: &[u8]) -> String {
    let mut hasher = Sha1::new();
    hasher.update(bytes);
    finish(hasher)
}

/// Streaming form of [`sha1_digest`].
#[derive(Debug, Clone, Default)]
pub struct DigestBuilder(Sha1);

impl DigestBuilder {
    /// An empty digest.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds more bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The `sha1:` spelling of everything fed.
    pub fn finish(self) -> String {
        finish(self.0)
    }
}

fn finish(hasher: Sha1) -> String {
    format!("sha1:{}", data_encoding::BASE32.encode(&hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &[u8], expected: &str) {
        assert_eq!(sha1_digest(input), expected);
        let mut streaming = DigestBuilder::new();
        for chunk in input.chunks(3) {
            streaming.update(chunk);
        }
        assert_eq!(streaming.finish(), expected);
    }

    #[test]
    fn known_digests() {
        // Values checked with `python3 -c 'import hashlib,base64; ...b32encode(sha1(x))'`.
        check(b"", "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
        check(b"abc", "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
    }
}
