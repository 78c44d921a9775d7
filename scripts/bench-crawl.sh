#!/usr/bin/env bash
# Crawl benchmark: `silhouette crawl` vs the `spider` crate vs Scrapy on real sites.
#
# Installs what it needs if missing (Debian: nginx, python3.11-doc, cppreference-doc-en-html,
# time, python3-venv, iproute2; PyPI: scrapy into a venv under the scratch dir), builds silhouette
# (`cargo build --release`) and the spider baseline (bench/spider-baseline, its own cargo
# project), then, inside a fresh network namespace whose only interface is loopback (so no
# tool can reach any other address), starts nginx on 127.0.0.1 with one port per site:
#
#   python        /usr/share/doc/python3.11/html          seed /index.html
#   cppreference  /usr/share/cppreference/doc/html        seed /en/index.html
#
# and crawls each site, one tool at a time, at the same concurrency N:
#
#   silhouette   rate limits off, dedup on, on-duplicate = "follow-links" (every page fetched)
#   spider       bench/spider-baseline: spider's default features, no dedup, no delay
#   scrapy       bench/scrapy_baseline.py: CrawlSpider following every same-host link
#   drop         silhouette again with on-duplicate = "drop" (duplicates' links not followed)
#
# Each run is measured with /usr/bin/time -v (wall, user+sys CPU, peak RSS); nginx logs every
# request with its time, which gives a uniform request count per run and, for the python docs,
# the time until every page template (labels of ../shared/eval-dev/sites.py) was first fetched.
# bench/crawl_report.py prints the table and the ratios.
#
# Usage: scripts/bench-crawl.sh [N]          (N = concurrency, default 16)
# Env:   SITES="python cppreference"   TOOLS="silhouette spider scrapy drop"
#        BENCH_DIR=/var/tmp/silhouette-bench   (scratch: venv, runs/<time>/, runs/latest)
#        PERF=1   also record the silhouette runs with `perf record` (SITE-TOOL/perf.data;
#                 figures of a profiled run are not comparable: profile, don't measure)
set -euo pipefail

# All in one function: bash parses it whole before running, so editing this file during a
# run cannot break the run.
main() {
cd "$(dirname "$0")/.."
# Only for bench_crawl_config: this script runs its own nginx in its own network namespace
# (its NGINX_PID and free_port, set below, take over the library's).
# shellcheck source=lib/nginx.sh
source scripts/lib/nginx.sh
CONC="${1:-16}"
SITES="${SITES:-python cppreference}"
TOOLS="${TOOLS:-silhouette spider scrapy drop}"
BENCH_DIR="${BENCH_DIR:-/var/tmp/silhouette-bench}"
PY_ROOT=/usr/share/doc/python3.11/html
CPP_ROOT=/usr/share/cppreference/doc/html
NGINX=/usr/sbin/nginx
SPIDER_BIN=bench/spider-baseline/target/release/spider-baseline

if [ -z "${_BENCH_CRAWL_INNER:-}" ]; then
    # ---- set-up (network allowed: package registries) ----
    missing=()
    [ -x "$NGINX" ] || missing+=(nginx)
    [ -d "$PY_ROOT" ] || missing+=(python3.11-doc)
    [ -d "$CPP_ROOT" ] || missing+=(cppreference-doc-en-html)
    [ -x /usr/bin/time ] || missing+=(time)
    command -v ip >/dev/null || missing+=(iproute2)
    python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
    if [ "${#missing[@]}" -gt 0 ]; then
        if ! apt-cache show "${missing[@]}" >/dev/null 2>&1; then
            apt-get update
        fi
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    fi
    mkdir -p "$BENCH_DIR"
    if [ ! -x "$BENCH_DIR/venv/bin/scrapy" ]; then
        python3 -m venv "$BENCH_DIR/venv"
        "$BENCH_DIR/venv/bin/pip" install -q scrapy
    fi
    cargo build --release --bin silhouette
    cargo build --release --manifest-path bench/spider-baseline/Cargo.toml
    if unshare --net true 2>/dev/null; then
        exec unshare --net -- env _BENCH_CRAWL_INNER=1 bash "$0" "$@"
    fi
    echo "warning: cannot make a network namespace; running on the host's loopback" >&2
    export _BENCH_CRAWL_INNER=nonamespace
fi

# ---- measurement (only 127.0.0.1 from here on) ----
if [ "$_BENCH_CRAWL_INNER" = 1 ]; then
    ip link set lo up
fi

RUN="$BENCH_DIR/runs/$(date +%Y%m%d-%H%M%S)-c$CONC"
mkdir -p "$RUN/nginx/tmp"
ln -sfn "$RUN" "$BENCH_DIR/runs/latest"
NGINX_PID=""
cleanup() {
    if [ -n "$NGINX_PID" ]; then
        kill "$NGINX_PID" 2>/dev/null || true
        wait "$NGINX_PID" 2>/dev/null || true
    fi
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
PY_PORT="$(free_port)"
CPP_PORT="$(free_port)"
while [ "$CPP_PORT" = "$PY_PORT" ]; do CPP_PORT="$(free_port)"; done

N="$RUN/nginx"
cat > "$N/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $N/nginx.pid;
error_log $N/error.log warn;
events { worker_connections 4096; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format bench '\$msec \$status \$request_uri';
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path $N/tmp/body;
    proxy_temp_path $N/tmp/proxy;
    fastcgi_temp_path $N/tmp/fastcgi;
    uwsgi_temp_path $N/tmp/uwsgi;
    scgi_temp_path $N/tmp/scgi;
    server {
        listen 127.0.0.1:$PY_PORT;
        root $PY_ROOT;
        access_log $N/python.log bench;
    }
    server {
        listen 127.0.0.1:$CPP_PORT;
        root $CPP_ROOT;
        access_log $N/cppreference.log bench;
    }
}
CONF
"$NGINX" -c "$N/nginx.conf" -p "$N" &
NGINX_PID=$!

seed_of() {
    case "$1" in
        python) echo "http://127.0.0.1:$PY_PORT/index.html" ;;
        cppreference) echo "http://127.0.0.1:$CPP_PORT/en/index.html" ;;
        *) echo "unknown site $1" >&2; exit 2 ;;
    esac
}
for site in $SITES; do
    for _ in $(seq 50); do
        python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1])" "$(seed_of "$site")" 2>/dev/null && break
        sleep 0.1
    done
    : > "$N/$site.log"   # the readiness probe is not part of any run
done

bench_crawl_config "$RUN/follow-links.toml" "$CONC" follow-links
bench_crawl_config "$RUN/drop.toml" "$CONC" drop

cat > "$RUN/meta.json" <<META
{"concurrency": $CONC, "sites": "$SITES", "tools": "$TOOLS",
 "python_root": "$PY_ROOT", "cppreference_root": "$CPP_ROOT",
 "python_seed": "$(seed_of python)", "cppreference_seed": "$(seed_of cppreference)",
 "namespace": "$_BENCH_CRAWL_INNER", "nproc": $(nproc),
 "silhouette_commit": "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- crates Cargo.toml Cargo.lock 2>/dev/null || echo ' + uncommitted changes')"}
META

measure() { # SITE TOOL CMD... : runs CMD under /usr/bin/time -v, keeps its slice of nginx's log
    local site=$1 tool=$2
    shift 2
    local dir="$RUN/$site-$tool" log="$N/$site.log"
    mkdir -p "$dir"
    sleep 2
    cat /proc/loadavg > "$dir/loadavg"
    local n0
    n0=$(wc -l < "$log")
    printf '%s: %s ... ' "$site" "$tool" >&2
    date +%s.%N > "$dir/t0"
    if ! /usr/bin/time -v -o "$dir/time.txt" "$@" > "$dir/stdout" 2> "$dir/stderr"; then
        echo "failed (see $dir/stderr)" >&2
        touch "$dir/failed"
    fi
    date +%s.%N > "$dir/t1"
    sleep 0.3
    tail -n +"$((n0 + 1))" "$log" > "$dir/access.log"
    echo "$(wc -l < "$dir/access.log") requests, $(python3 -c 'import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 2))' "$(cat "$dir/t0")" "$(cat "$dir/t1")") s" >&2
}

for site in $SITES; do
    seed="$(seed_of "$site")"
    for tool in $TOOLS; do
        dir="$RUN/$site-$tool"
        case "$tool" in
            silhouette | drop)
                mode=follow-links
                [ "$tool" = drop ] && mode=drop
                wrap=()
                if [ -n "${PERF:-}" ]; then
                    mkdir -p "$dir"
                    wrap=(perf record -q -F 499 --call-graph dwarf,16384 -o "$dir/perf.data" --)
                fi
                measure "$site" "$tool" "${wrap[@]}" target/release/silhouette crawl --config "$RUN/$mode.toml" \
                    --state "$dir/state" --output "$dir/pages.jsonl" "$seed"
                target/release/silhouette stats "$dir/state" > "$dir/stats.txt"
                ;;
            spider)
                measure "$site" spider "$SPIDER_BIN" "$seed" "$CONC" 1000
                ;;
            scrapy)
                measure "$site" scrapy "$BENCH_DIR/venv/bin/scrapy" runspider bench/scrapy_baseline.py \
                    -a start="$seed" -s CONCURRENT_REQUESTS="$CONC" \
                    -s CONCURRENT_REQUESTS_PER_DOMAIN="$CONC" -s LOG_LEVEL=INFO \
                    -s STATS_FILE="$dir/stats.json"
                ;;
            *) echo "unknown tool $tool" >&2; exit 2 ;;
        esac
    done
done

python3 bench/crawl_report.py "$RUN" | tee "$RUN/report.md"
echo "runs kept in $RUN" >&2
}

main "$@"
exit
