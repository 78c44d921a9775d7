#!/usr/bin/env bash
# Benchmarks of the content signal (issue 10): what the main-content text and the content
# fingerprint add to the structure fingerprint per page (python3.11-doc and
# cppreference-doc-en-html pages), and the tokenizers' throughput against jieba-rs's own `cut`
# (debian-reference-zh-cn, python3.11-doc). Installs the Debian packages when missing.
#
#   scripts/bench-content.sh          cost per page, then the tokenizer benchmark (criterion)
#   scripts/bench-content.sh cost     cost per page only
#
# Figures and how to read them: BENCHMARKS.md, "Content text (silhouette-text)".
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
[ -d /usr/share/doc/python3.11/html ] || need+=(python3.11-doc)
[ -d /usr/share/cppreference/doc/html/en ] || need+=(cppreference-doc-en-html)
[ -f /usr/share/debian-reference/debian-reference.zh-cn.txt.gz ] || need+=(debian-reference-zh-cn)
if [ "${#need[@]}" -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! apt-cache show "${need[@]}" >/dev/null 2>&1; then
    $sudo apt-get update
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${need[@]}"
fi

cargo bench -p silhouette-text --bench content_cost
if [ "${1:-}" != cost ]; then
  cargo bench -p silhouette-text --bench tokenize
fi
