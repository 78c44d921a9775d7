#!/usr/bin/env bash
# jieba-rs's top-20 TF-IDF keywords against Python jieba's extract_tags on the Chinese pages of
# Debian's debian-reference-zh-cn: fails when fewer than 95% of pages have the same set.
# Installs what it needs (Debian packages) when missing.
# Usage: scripts/jieba-check.sh [--min 0.95] [--hmm] [--han-only]   (see scripts/jieba_check.py;
# scripts/test.sh runs it with --han-only --hmm, BENCHMARKS.md has every variant's figures)
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(python3-jieba python3-html5lib debian-reference-zh-cn)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The test profile optimises jieba-rs (Cargo.toml) and is what `cargo test` builds anyway.
profile="${JIEBA_CHECK_PROFILE:-test}"
cargo build --quiet --locked --profile "$profile" -p silhouette-text --example jieba_keywords
case "$profile" in
    dev | test) dir=target/debug ;;
    *) dir="target/$profile" ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 scripts/jieba_check.py "$work" "$dir/examples/jieba_keywords" "$@"
