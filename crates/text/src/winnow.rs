//! Winnowing (Schleimer, Wilkerson, Aiken 2003): fingerprints with positions, and copied passages.

use std::collections::HashMap;

use silhouette_simhash::fnv1_64;

use crate::TextError;

/// The Karp-Rabin base of the shingle hash (ALGORITHM.md §7).
const B: u64 = 1_000_003;

/// How many positions of one hash in the second text [`Winnowing::overlap`] tries: bounds the
/// work on repetitive text.
const MAX_CANDIDATES: usize = 16;

/// A selected shingle hash and the position (word index) of its shingle's first word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WinnowFingerprint {
    /// The Karp-Rabin hash of the `k` words.
    pub hash: u64,
    /// The index of the shingle's first word.
    pub position: usize,
}

/// A passage of `len` words found at word `a` of the first text and word `b` of the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Passage {
    /// The index of its first word in the first text.
    pub a: usize,
    /// The index of its first word in the second text.
    pub b: usize,
    /// Its length in words (at least `k`).
    pub len: usize,
}

/// Robust winnowing over words with noise threshold `k` and guarantee threshold `g`.
///
/// Words hash with FNV-1 64; a shingle of `k` words hashes as `Σ h[i] · B^(k−1−i)` with
/// `B = 1000003`, wrapping (a rolling Karp-Rabin hash); each window holds `w = g − k + 1`
/// shingle hashes; in each window the minimum is selected, keeping the previous window's
/// selection while it is inside and still minimal, else taking the rightmost minimum; a
/// fingerprint is recorded whenever the selection changes. Every passage of at least `g` words
/// shared by two texts shares a fingerprint; none shorter than `k` does. A text shorter than
/// `g` words (but at least `k`) gets the minimum of its shingles.
///
/// ```
/// use silhouette_text::{Passage, Tokenizer, Winnowing};
/// let w = Winnowing::new(3, 5)?;
/// let a = Tokenizer::Unicode.tokenize("one two three four five six seven eight");
/// let b = Tokenizer::Unicode.tokenize("zero zero three four five six seven nine");
/// assert_eq!(w.overlap(&a, &b), [Passage { a: 2, b: 2, len: 5 }]);
/// # Ok::<(), silhouette_text::TextError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Winnowing {
    k: usize,
    g: usize,
}

impl Winnowing {
    /// Noise threshold `k` (1..=64 words) and guarantee threshold `g` (`k..=k + 1023`).
    ///
    /// # Errors
    /// [`TextError::Config`] when `k` or `g` is out of range.
    pub fn new(k: usize, g: usize) -> Result<Self, TextError> {
        if !(1..=64).contains(&k) {
            return Err(TextError::config("winnow-k", k, "1 to 64 words"));
        }
        if g < k || g - k >= 1024 {
            return Err(TextError::config(
                "winnow-g",
                g,
                format!("{k} (k) to {} words", k + 1023),
            ));
        }
        Ok(Self { k, g })
    }

    /// The noise threshold `k`.
    #[must_use]
    pub const fn k(&self) -> usize {
        self.k
    }

    /// The guarantee threshold `g`.
    #[must_use]
    pub const fn g(&self) -> usize {
        self.g
    }

    /// The Karp-Rabin hashes of the `k`-word shingles of `words`, one per start position.
    #[must_use]
    pub fn shingle_hashes<S: AsRef<str>>(&self, words: &[S]) -> Vec<u64> {
        let k = self.k;
        if words.len() < k {
            return Vec::new();
        }
        let h: Vec<u64> = words
            .iter()
            .map(|w| fnv1_64(w.as_ref().as_bytes()))
            .collect();
        let top = (1..k).fold(1u64, |p, _| p.wrapping_mul(B)); // B^(k−1)
        let mut cur = h[..k]
            .iter()
            .fold(0u64, |acc, &x| acc.wrapping_mul(B).wrapping_add(x));
        let mut out = Vec::with_capacity(h.len() - k + 1);
        out.push(cur);
        for i in k..h.len() {
            cur = cur
                .wrapping_sub(h[i - k].wrapping_mul(top))
                .wrapping_mul(B)
                .wrapping_add(h[i]);
            out.push(cur);
        }
        out
    }

    /// The winnowed fingerprints of `words`, in position order.
    #[must_use]
    pub fn fingerprints<S: AsRef<str>>(&self, words: &[S]) -> Vec<WinnowFingerprint> {
        let hashes = self.shingle_hashes(words);
        let w = self.g - self.k + 1;
        let mut out = Vec::new();
        if hashes.is_empty() {
            return out;
        }
        let rightmost_min = |lo: usize, hi: usize| -> usize {
            (lo..hi).fold(lo, |m, i| if hashes[i] <= hashes[m] { i } else { m })
        };
        let last_start = hashes.len().saturating_sub(w);
        let mut sel: Option<usize> = None;
        for s in 0..=last_start {
            let end = (s + w).min(hashes.len());
            let next = match sel {
                Some(m) if m >= s => {
                    let newest = end - 1;
                    if hashes[newest] < hashes[m] {
                        newest
                    } else {
                        m
                    }
                }
                _ => rightmost_min(s, end),
            };
            if sel != Some(next) {
                out.push(WinnowFingerprint {
                    hash: hashes[next],
                    position: next,
                });
                sel = Some(next);
            }
        }
        out
    }

    /// The passages of `a` copied in `b`, in order of their position in `a`, not overlapping
    /// in `a`.
    ///
    /// Every fingerprint of `a` also found in `b` (its words compared, so hash collisions do
    /// not count) is extended word by word in both directions into a maximal common passage;
    /// of the positions in `b` sharing the hash (the first 16, which bounds the work on
    /// repetitive text), the longest passage is reported.
    #[must_use]
    pub fn overlap<S: AsRef<str>, T: AsRef<str>>(&self, a: &[S], b: &[T]) -> Vec<Passage> {
        let same = |i: usize, j: usize| a[i].as_ref() == b[j].as_ref();
        let mut in_b: HashMap<u64, Vec<usize>> = HashMap::new();
        for fp in self.fingerprints(b) {
            let positions = in_b.entry(fp.hash).or_default();
            if positions.len() < MAX_CANDIDATES {
                positions.push(fp.position);
            }
        }
        let mut out: Vec<Passage> = Vec::new();
        let mut covered = 0; // a[..covered] is already reported
        for fp in self.fingerprints(a) {
            if fp.position < covered {
                continue;
            }
            let Some(candidates) = in_b.get(&fp.hash) else {
                continue;
            };
            let mut best: Option<Passage> = None;
            for &pb in candidates {
                let pa = fp.position;
                if !(0..self.k).all(|i| same(pa + i, pb + i)) {
                    continue;
                }
                let back = (1..=pa.min(pb))
                    .take_while(|&i| pa - i >= covered && same(pa - i, pb - i))
                    .count();
                let fwd = (self.k..)
                    .take_while(|&i| pa + i < a.len() && pb + i < b.len() && same(pa + i, pb + i))
                    .count();
                let p = Passage {
                    a: pa - back,
                    b: pb - back,
                    len: back + self.k + fwd,
                };
                if best.is_none_or(|q| p.len > q.len || (p.len == q.len && p.b < q.b)) {
                    best = Some(p);
                }
            }
            if let Some(p) = best {
                covered = p.a + p.len;
                out.push(p);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    /// Hand-checked: k = 1, g = 3 (w = 3) over word hashes ranked by value.
    #[test]
    fn robust_selection_by_hand() {
        let w = Winnowing::new(1, 3).expect("valid");
        // k = 1: the shingle hash is the word's FNV-1; rank the words by it.
        let mut vocab: Vec<(&str, u64)> = ["a", "b", "c", "d", "e", "f"]
            .iter()
            .map(|s| (*s, fnv1_64(s.as_bytes())))
            .collect();
        vocab.sort_by_key(|p| p.1);
        let r = |rank: usize| vocab[rank].0; // r(0) has the smallest hash
        // Hashes by rank: 3 1 4 1 5 0 2 over windows of 3:
        // [3 1 4] → pos 1; [1 4 1] → keep 1 (still minimal); [4 1 5] → 1 left, rightmost min 3;
        // [1 5 0] → 0 at 5; [5 0 2] → keep 5.
        let text = [r(3), r(1), r(4), r(1), r(5), r(0), r(2)];
        let got: Vec<usize> = w.fingerprints(&text).iter().map(|f| f.position).collect();
        assert_eq!(got, [1, 3, 5]);
        let fps = w.fingerprints(&text);
        assert_eq!(fps[2].hash, fnv1_64(r(0).as_bytes()));
    }

    #[test]
    fn karp_rabin_by_hand() {
        let w = Winnowing::new(2, 2).expect("valid");
        let (ha, hb, hc) = (fnv1_64(b"a"), fnv1_64(b"b"), fnv1_64(b"c"));
        assert_eq!(
            w.shingle_hashes(&words("a b c")),
            [
                ha.wrapping_mul(B).wrapping_add(hb),
                hb.wrapping_mul(B).wrapping_add(hc)
            ]
        );
        let w3 = Winnowing::new(3, 3).expect("valid");
        let direct = |x: &[&str]| {
            x.iter().fold(0u64, |acc, s| {
                acc.wrapping_mul(B).wrapping_add(fnv1_64(s.as_bytes()))
            })
        };
        let text = words("p q r s t u");
        let rolled = w3.shingle_hashes(&text);
        for (i, h) in rolled.iter().enumerate() {
            assert_eq!(*h, direct(&text[i..i + 3]), "shingle {i}");
        }
        assert!(w3.shingle_hashes(&words("p q")).is_empty());
    }

    fn check(a: &str, b: &str, k: usize, g: usize, expected: &[(usize, usize, usize)]) {
        let w = Winnowing::new(k, g).expect("valid");
        let got: Vec<(usize, usize, usize)> = w
            .overlap(&words(a), &words(b))
            .iter()
            .map(|p| (p.a, p.b, p.len))
            .collect();
        assert_eq!(got, expected, "{a:?} ~ {b:?}");
    }

    #[test]
    fn passages() {
        // The copied passage "c d e f g h" is at word 2 in a and word 4 in b.
        check(
            "a b c d e f g h i j",
            "x y z w c d e f g h q",
            3,
            5,
            &[(2, 4, 6)],
        );
        // Two passages, in a's order, b reversed.
        check(
            "p1 p2 p3 p4 p5 mid q1 q2 q3 q4 q5",
            "q1 q2 q3 q4 q5 other p1 p2 p3 p4 p5",
            2,
            4,
            &[(0, 6, 5), (6, 0, 5)],
        );
        // Shorter than k: never found.
        check("a b c d", "x a b y", 3, 4, &[]);
        check("", "a b c", 2, 3, &[]);
        // Identical texts: one passage, the whole text.
        check("a b c d e f", "a b c d e f", 2, 3, &[(0, 0, 6)]);
    }

    #[test]
    fn every_passage_of_g_words_is_found() {
        let base: Vec<String> = (0..300).map(|i| format!("w{i}")).collect();
        let w = Winnowing::new(4, 8).expect("valid");
        for start in [0, 17, 150, 292] {
            let copy: Vec<String> = ["x", "y"]
                .iter()
                .map(|s| (*s).to_owned())
                .chain(base[start..start + 8].iter().cloned())
                .chain(["z".to_owned()])
                .collect();
            let got = w.overlap(&base, &copy);
            assert_eq!(
                got,
                [Passage {
                    a: start,
                    b: 2,
                    len: 8
                }],
                "start {start}"
            );
        }
    }

    #[test]
    fn bad_settings() {
        for (k, g, fragment) in [
            (0, 5, "1 to 64"),
            (65, 70, "1 to 64"),
            (5, 4, "5 (k) to"),
            (2, 2000, "to 1025"),
        ] {
            let err = Winnowing::new(k, g).expect_err("out of range");
            assert!(err.to_string().contains(fragment), "{k} {g}: {err}");
        }
    }
}
