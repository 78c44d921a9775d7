#!/usr/bin/env bash
# Coverage-guided fuzzing of silhouette-dom on the stable toolchain (no cargo-fuzz, no
# nightly): the same SanitizerCoverage flags cargo-fuzz passes, minus AddressSanitizer (the
# crate has no unsafe code). Usage, from anywhere:
#   crates/dom/fuzz/fuzz-stable.sh [SECONDS] [libFuzzer options...]
# Corpus in crates/dom/fuzz/corpus/hash, crashes in crates/dom/fuzz/artifacts/hash (ignored
# by git). With nightly and cargo-fuzz installed, `cargo fuzz run hash` in crates/dom works too.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
secs="${1:-60}"
shift || true
target="$(rustc -vV | sed -n 's/^host: //p')"
RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions" \
  cargo build --manifest-path "$here/Cargo.toml" --release --target "$target"
mkdir -p "$here/corpus/hash" "$here/artifacts/hash"
[ -n "$(ls -A "$here/corpus/hash")" ] ||
  printf '<!DOCTYPE html><div><p>x<table><tr><td>y</table><template><b>z</template><svg><g/></svg>' \
    >"$here/corpus/hash/seed"
exec "$here/target/$target/release/hash" -max_total_time="$secs" -max_len=16384 -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$here/artifacts/hash/" "$@" "$here/corpus/hash"
