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
NGINX=/usr/sbin/nginx

missing=()
[ -x "$NGINX" ] || missing+=(nginx)
[ -d "$DOCROOT" ] || missing+=(python3.11-doc)
if [ "${#missing[@]}" -gt 0 ]; then
    # Refresh the package lists only when they don't know the packages.
    if ! apt-cache show "${missing[@]}" >/dev/null 2>&1; then
        apt-get update
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

WORK="$(mktemp -d)"
NGINX_PID=""
cleanup() {
    if [ -n "$NGINX_PID" ]; then
        kill "$NGINX_PID" 2>/dev/null || true
        wait "$NGINX_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "$WORK/tmp"
cat > "$WORK/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/error.log warn;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path $WORK/tmp/body;
    proxy_temp_path $WORK/tmp/proxy;
    fastcgi_temp_path $WORK/tmp/fastcgi;
    uwsgi_temp_path $WORK/tmp/uwsgi;
    scgi_temp_path $WORK/tmp/scgi;
    server {
        listen 127.0.0.1:$PORT;
        root $DOCROOT;
    }
}
CONF
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK" &
NGINX_PID=$!

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
