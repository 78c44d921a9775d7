#!/usr/bin/env bash
# Runs the library's example (crates/crawl/examples/count.rs) against the demo site served by
# `silhouette demo --serve` on 127.0.0.1, and checks what it printed: the program a reader of
# silhouette-crawl's docs copies must crawl.
set -euo pipefail
cd "$(dirname "$0")/.."
json() { cargo build --profile test --locked "$@" --message-format=json-render-diagnostics \
    | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1; }
bin=$(json --bin silhouette)
example=$(json -p silhouette-crawl --example count)
[ -x "$bin" ] && [ -x "$example" ] || { echo "cannot find the binaries cargo built" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin" demo --serve 2> "$work/serve.log" &
server=$!
for _ in $(seq 100); do
    url=$(sed -n 's/^serving the demo site at \(http:\/\/127\.0\.0\.1:[0-9]*\/\).*/\1/p' "$work/serve.log")
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "$url" ] || { echo "the demo server did not start" >&2; cat "$work/serve.log" >&2; exit 1; }
"$example" "$url" "$work/state" > "$work/out.txt"
cat "$work/out.txt"
# One kept page per template: fewer kept than fetched, and near-duplicates were dropped.
fetched=$(sed -n 's/^fetched \([0-9]*\) pages.*/\1/p' "$work/out.txt")
kept=$(awk '$1 == "kept" { print $2 }' "$work/out.txt")
near=$(awk '$1 == "near-duplicate" { print $2 }' "$work/out.txt")
[ "${fetched:-0}" -gt 20 ] && [ "${kept:-0}" -gt 0 ] && [ "${near:-0}" -gt 0 ] \
    && [ "$kept" -lt "$fetched" ] || { echo "example: unexpected output" >&2; exit 1; }
echo "example: fetched $fetched, kept $kept, near-duplicates $near"
