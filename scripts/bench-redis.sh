#!/usr/bin/env bash
# Shared-crawl benchmark: 1, 2 and 4 workers on one Redis against the single-process crawl
# (SQLite state), on the loopback nginx sites of scripts/bench-crawl.sh (python docs,
# cppreference). Everything listens on 127.0.0.1 only.
#
# Per run: wall time and pages/s; for Redis runs also Redis commands per page (INFO
# commandstats), round trips per page (the workers' own count), Redis memory per seen URL
# (MEMORY USAGE of the seen sets / their size) and per kept fingerprint (the dedup logs),
# used_memory per recorded page (INFO memory, records included), and redis-server's CPU
# seconds (/proc/PID/stat).
#
# Usage: scripts/bench-redis.sh [N]      (N = concurrency per worker and per host, default 16)
# Env:   SITES="python cppreference"   WORKERS="1 2 4"   BIN=target/release/silhouette
#        BENCH_DIR=/var/tmp/silhouette-bench-redis
set -euo pipefail

main() {
cd "$(dirname "$0")/.."
# shellcheck source=lib/nginx.sh
source scripts/lib/nginx.sh
CONC="${1:-16}"
SITES="${SITES:-python cppreference}"
WORKERS="${WORKERS:-1 2 4}"
BIN="${BIN:-target/release/silhouette}"
BENCH_DIR="${BENCH_DIR:-/var/tmp/silhouette-bench-redis}"
PY_ROOT=/usr/share/doc/python3.11/html
CPP_ROOT=/usr/share/cppreference/doc/html
bench_need nginx python3.11-doc cppreference-doc-en-html redis-server
[ -x "$BIN" ] || cargo build --release --bin silhouette

RUN="$BENCH_DIR/$(date +%Y%m%d-%H%M%S)-c$CONC"
mkdir -p "$RUN"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; nginx_stop; }
trap cleanup EXIT
nginx_start "$RUN/nginx" python="$PY_ROOT" cpp="$CPP_ROOT"
PY_PORT="$PORT_python"; CPP_PORT="$PORT_cpp"
bench_crawl_config "$RUN/bench.toml" "$CONC"
printf '| site | run | pages | wall s | pages/s | vs SQLite | Redis cmds/page | round trips/page | seen B/URL | log B/kept | used_memory B/page | redis-server CPU s |\n'
printf '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for site in $SITES; do
    case "$site" in
        python) seed="http://127.0.0.1:$PY_PORT/index.html"; port=$PY_PORT ;;
        cppreference) seed="http://127.0.0.1:$CPP_PORT/en/index.html"; port=$CPP_PORT ;;
    esac
    local_dir="$RUN/$site-sqlite"
    t0=$(date +%s.%N)
    "$BIN" --config "$RUN/bench.toml" crawl --state "$local_dir" --output "$local_dir/pages.jsonl" "$seed" 2>"$RUN/$site-sqlite.log"
    t1=$(date +%s.%N)
    pages=$(wc -l < "$local_dir/decisions.jsonl")
    base=$(python3 -c "print(f'{$pages/($t1-$t0):.1f}')")
    printf '| %s | SQLite | %s | %.1f | %s | 1.00 | | | | | | |\n' "$site" "$pages" "$(python3 -c "print($t1-$t0)")" "$base"
    for w in $WORKERS; do
        rport=$(free_port)
        redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --dir "$RUN" >/dev/null &
        rpid=$!; PIDS+=($rpid)
        until redis-cli -p "$rport" ping >/dev/null 2>&1; do sleep 0.05; done
        mem0=$(redis-cli -p "$rport" info memory | sed -n 's/^used_memory:\([0-9]*\).*/\1/p')
        cpu0=$(awk '{print $14+$15}' "/proc/$rpid/stat")
        redis-cli -p "$rport" config resetstat >/dev/null
        t0=$(date +%s.%N)
        wp=()
        for i in $(seq "$w"); do
            "$BIN" --config "$RUN/bench.toml" crawl --redis "redis://127.0.0.1:$rport/0" --crawl bench "$seed" 2>"$RUN/$site-w$w-$i.log" &
            wp+=($!)
        done
        for p in "${wp[@]}"; do wait "$p"; done
        t1=$(date +%s.%N)
        cpu1=$(awk '{print $14+$15}' "/proc/$rpid/stat")
        tag="{bench@127.0.0.1:$port}"
        pages=$(redis-cli -p "$rport" hlen "sil:$tag:rec")
        redis-cli -p "$rport" info commandstats > "$RUN/$site-w$w.commandstats"
        calls=$(sed -n 's/^cmdstat_[^:]*:calls=\([0-9]*\),.*/\1/p' "$RUN/$site-w$w.commandstats" | paste -sd+ | bc)
        seen=$(redis-cli -p "$rport" scard "sil:$tag:seen")
        seen_b=$(redis-cli -p "$rport" memory usage "sil:$tag:seen" samples 0)
        kept=$(redis-cli -p "$rport" llen "sil:$tag:dlog")
        log_b=$(redis-cli -p "$rport" memory usage "sil:$tag:dlog" samples 0)
        mem1=$(redis-cli -p "$rport" info memory | sed -n 's/^used_memory:\([0-9]*\).*/\1/p')
        trips=$(cat "$RUN"/$site-w$w-*.log | sed -n 's/^worker [^:]*: \([0-9]*\) pages, \([0-9.]*\) Redis round trips per page.*/\1 \2/p' \
            | awk '{p+=$1; t+=$1*$2} END {if (p) printf "%.1f", t/p}')
        python3 - "$site" "$w" "$pages" "$t0" "$t1" "$base" "$calls" "$trips" "$seen" "$seen_b" "$kept" "$log_b" "$mem0" "$mem1" "$cpu0" "$cpu1" <<'PY'
import os, sys
site, w, pages, t0, t1, base, calls, trips, seen, seen_b, kept, log_b, mem0, mem1, cpu0, cpu1 = sys.argv[1:]
pages, wall = int(pages), float(t1) - float(t0)
tck = os.sysconf("SC_CLK_TCK")
print(f"| {site} | Redis, {w} worker{'s' if w != '1' else ''} | {pages} | {wall:.1f} | {pages / wall:.1f} | "
      f"{pages / wall / float(base):.2f} | {int(calls) / pages:.1f} | {trips} | {int(seen_b) / int(seen):.0f} | "
      f"{int(log_b) / max(int(kept), 1):.0f} | {(int(mem1) - int(mem0)) / pages:.0f} | {(int(cpu1) - int(cpu0)) / tck:.1f} |")
PY
        kill "$rpid"; wait "$rpid" 2>/dev/null || true
    done
done
echo "logs and each run's INFO commandstats: $RUN" >&2
}
main "$@"
