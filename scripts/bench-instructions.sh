#!/usr/bin/env bash
# Instructions per page of a crawl without and with an option (callgrind), for ratios that do
# not move with this machine's load: wall-clock and CPU-time ratios swing by ±20% here between
# runs, instruction counts by well under 1% (tokio's polling depends a little on scheduling).
#
# Crawls a local copy of a site (nginx on 127.0.0.1, as scripts/bench-crawl-content.sh sets it
# up) with on-duplicate = "follow-links" (every page fetched), rate limits off, concurrency 16,
# under `valgrind --tool=callgrind` (threads run one at a time there: a count, not a speed), once
# with the default configuration and once with each set of FLAGS, and prints instructions per
# page and the ratio.
#
# Usage: scripts/bench-instructions.sh [SITE] [FLAGS...]
#   SITE: python (default; python3.11-doc, 528 pages, ~1 minute per crawl) or cppreference
#         (4,390 pages, ~10 minutes per crawl)
#   FLAGS: default --content; e.g. "--warc /tmp/w --warc-cdxj"
# Env:   BIN (default target/release/silhouette, built when missing); BASE_BIN: compare two
#        builds instead (BASE_BIN without FLAGS against BIN without FLAGS; FLAGS unused)
set -euo pipefail

main() {
cd "$(dirname "$0")/.."
SITE="${1:-python}"
shift || true
FLAGS=("$@")
[ "${#FLAGS[@]}" -gt 0 ] || FLAGS=(--content)
BIN="${BIN:-target/release/silhouette}"
# shellcheck source=lib/nginx.sh
source scripts/lib/nginx.sh
bench_need nginx valgrind python3.11-doc cppreference-doc-en-html
[ -x "$BIN" ] || cargo build --release --bin silhouette
W="$(mktemp -d /var/tmp/silhouette-bench-instructions.XXXXXX)"
trap 'nginx_stop; rm -rf "$W"' EXIT
case "$SITE" in
    python) nginx_start "$W/nginx" site=/usr/share/doc/python3.11/html; seed="http://127.0.0.1:$PORT_site/index.html" ;;
    cppreference) nginx_start "$W/nginx" site=/usr/share/cppreference/doc/html; seed="http://127.0.0.1:$PORT_site/en/index.html" ;;
    *) echo "unknown site $SITE (python or cppreference)" >&2; exit 2 ;;
esac
bench_crawl_config "$W/c.toml"
count() {
    local state="$W/state-$1"
    shift
    local bin="$BIN"
    if [ -n "${BASE_BIN:-}" ] && [ "$state" = "$W/state-off" ]; then bin="$BASE_BIN"; fi
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --config "$W/c.toml" crawl \
        "$@" --state "$state" "$seed" > /dev/null 2> "$W/valgrind"
    local n pages
    n="$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$W/valgrind")"
    pages="$(wc -l < "$state/decisions.jsonl")"
    echo "$n $pages"
}
read -r off pages_off < <(count off)
if [ -n "${BASE_BIN:-}" ]; then
    FLAGS=("(BIN against BASE_BIN)")
    read -r on pages_on < <(count on)
else
    read -r on pages_on < <(count on "${FLAGS[@]}")
fi
python3 -c 'import sys
site, flags, off, po, on, pn = sys.argv[1:]
a, b = int(off) / int(po), int(on) / int(pn)
print(f"{site}: {po} pages without, {pn} with {flags}")
print(f"  instructions per page: {a / 1e6:.2f} M without, {b / 1e6:.2f} M with: {b / a:.3f}x")' \
    "$SITE" "${FLAGS[*]}" "$off" "$pages_off" "$on" "$pages_on"
}
main "$@"
