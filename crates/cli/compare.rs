//! `silhouette compare A B`: both fingerprints, the distance and the verdict.

use std::io::Write;

use anyhow::{Context, Result};
use silhouette_dom::StructureHasher;

use crate::inputs::Input;

/// Prints the comparison of two pages to `out` (warnings to `err`); returns whether they
/// have the same structure (distance within the threshold).
pub fn run(
    hasher: &StructureHasher,
    threshold: u32,
    a: &Input,
    b: &Input,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<bool> {
    let mut hash = |input: &Input| -> Result<_> {
        let bytes = input
            .read()
            .with_context(|| format!("{}: cannot read", input.name()))?;
        if let Some(w) = crate::inputs::binary_warning(&input.name(), &bytes) {
            writeln!(err, "{w}")?;
        }
        hasher
            .hash(&bytes)
            .with_context(|| format!("{}: cannot fingerprint", input.name()))
    };
    let (sa, sb) = (hash(a)?, hash(b)?);
    for (label, input, s) in [("A", a, &sa), ("B", b, &sb)] {
        let note = s
            .truncated
            .map(|t| format!("  (truncated: {t})"))
            .unwrap_or_default();
        writeln!(
            out,
            "{label}  {}  {:>6} elements  {}{note}",
            s.fingerprint,
            s.elements,
            input.name()
        )?;
    }
    let d = sa.fingerprint.distance(sb.fingerprint);
    writeln!(out, "distance: {d} bits ({})", hasher.params())?;
    if d <= threshold {
        writeln!(
            out,
            "verdict: same structure (distance {d} <= threshold {threshold})"
        )?;
    } else {
        writeln!(
            out,
            "verdict: different structure (distance {d} > threshold {threshold})"
        )?;
    }
    Ok(d <= threshold)
}
