#!/usr/bin/env bash
# Benchmarks of silhouette-dom (issue #2) over real pages: the 530 Sphinx pages of Debian's
# python3.11-doc (/usr/share/doc/python3.11/html, ~50 MB), installed here if missing.
#
#   scripts/bench-dom.sh            ratios (one interleaved run), peak heap, then criterion
#   scripts/bench-dom.sh quick      ratios and peak heap only
#
# SILHOUETTE_BENCH_CORPUS=DIR uses another directory of *.html; SILHOUETTE_BENCH_ROUNDS=N
# sets the rounds of the ratios run (default 7). Figures and how to read them:
# BENCHMARKS.md, "Structure fingerprint (silhouette-dom)".
set -euo pipefail
cd "$(dirname "$0")/.."

corpus="${SILHOUETTE_BENCH_CORPUS:-/usr/share/doc/python3.11/html}"
if [ -z "$(find "$corpus" -name '*.html' -print -quit 2>/dev/null)" ]; then
  if [ "$corpus" != /usr/share/doc/python3.11/html ]; then
    echo "no *.html under $corpus" >&2
    exit 1
  fi
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # Update the package lists only when the package is not known yet.
  if ! apt-cache show python3.11-doc >/dev/null 2>&1; then
    $sudo apt-get update
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends python3.11-doc
fi
echo "corpus: $corpus ($(find "$corpus" -name '*.html' | wc -l) pages)"

cargo bench -p silhouette-dom --bench ratios
cargo bench -p silhouette-dom --bench heap
if [ "${1:-}" != quick ]; then
  cargo bench -p silhouette-dom --bench throughput
fi
