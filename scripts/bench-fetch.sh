#!/usr/bin/env bash
# Fetch throughput of silhouette-fetch against a fast local server.
#
# Installs nginx and python3.11-doc from Debian's packages if missing, starts
# nginx on 127.0.0.1 (a free port, config in a temp dir, one worker process)
# serving /usr/share/doc/python3.11/html, then runs the fetch_bench example
# (rate limits off) at 16 and 64 concurrent requests and stops nginx.
#
# Usage: scripts/bench-fetch.sh [REQUESTS]   (default 20000 fetches per run)
set -euo pipefail

cd "$(dirname "$0")/.."
REQUESTS="${1:-20000}"
DOCROOT=/usr/share/doc/python3.11/html
. scripts/lib/nginx.sh
bench_need nginx python3.11-doc

WORK="$(mktemp -d)"
cleanup() {
    nginx_stop
    rm -rf "$WORK"
}
trap cleanup EXIT

nginx_start "$WORK/nginx" docs="$DOCROOT"
PORT=$PORT_docs

(cd "$DOCROOT" && find -L . -name '*.html' -printf '%P\n' | sort) > "$WORK/paths.txt"
echo "pages in list: $(wc -l < "$WORK/paths.txt")"

cargo build --release -p silhouette-fetch --example fetch_bench
BIN=target/release/examples/fetch_bench

for _ in $(seq 50); do
    curl -sf -o /dev/null "http://127.0.0.1:$PORT/index.html" 2>/dev/null && break
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/index.html')" 2>/dev/null && break
    sleep 0.1
done

for c in 16 64; do
    "$BIN" --base "http://127.0.0.1:$PORT/" --list "$WORK/paths.txt" --concurrency "$c" --requests "$REQUESTS"
done
