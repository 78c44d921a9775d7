#!/usr/bin/env bash
# What `crawl --warc DIR` costs (issue #11, target: at most 10% fewer pages/s): the 4,424
# cppreference pages (Debian's cppreference-doc-en-html) served by nginx on 127.0.0.1, crawled
# with every page fetched (on-duplicate = "follow-links", no rate limit, concurrency 16),
# alternately without and with `--warc` (+ `--warc-cdxj`), fresh state each run.
#
#   scripts/bench-crawl-warc.sh        (SILHOUETTE_BENCH_ROUNDS=N pairs of runs, default 5;
#                                       SILHOUETTE_BIN=PATH: that binary, no build;
#                                       SILHOUETTE_BENCH_WARC_RECORDS=all: every page written,
#                                       not only kept pages and revisits)
#
# Prints wall pages/s and the crawl's CPU time (user + system) per run: the machine may be
# shared, and CPU per page is steadier than wall time under load.
#
# Figures and how to read them: BENCHMARKS.md, "`crawl --warc`".
set -euo pipefail
cd "$(dirname "$0")/.."

corpus=/usr/share/cppreference/doc/html
rounds="${SILHOUETTE_BENCH_ROUNDS:-5}"
. scripts/lib/nginx.sh
bench_need cppreference-doc-en-html nginx bc

if [ -n "${SILHOUETTE_BIN:-}" ]; then
  bin="$SILHOUETTE_BIN"   # a binary built (and copied) beforehand
else
  cargo build --release --locked --bin silhouette
  bin="$PWD/target/release/silhouette"
fi
work=$(mktemp -d)
cleanup() {
  nginx_stop
  rm -rf "$work"
}
trap cleanup EXIT

nginx_start "$work/nginx" cpp="$corpus"
port=$PORT_cpp
cat > "$work/c.toml" <<EOF
[dedup]
on-duplicate = "follow-links"

[crawl]
concurrency = 16

[fetch]
request-interval-ms = 0
per-host-concurrency = 16
EOF
if [ -n "${SILHOUETTE_BENCH_WARC_RECORDS:-}" ]; then
  printf '\n[output]\nwarc-records = "%s"\n' "$SILHOUETTE_BENCH_WARC_RECORDS" >> "$work/c.toml"
fi
seed="http://127.0.0.1:$port/en/index.html"

now() { date +%s.%N; }
results="$work/results"
: > "$results"
for r in $(seq "$rounds"); do
  for mode in plain warc; do
    extra=()
    [ "$mode" = warc ] && extra=(--warc "$work/w-$r" --warc-cdxj)
    t0=$(now)
    TIMEFORMAT='%U %S'
    { time "$bin" --config "$work/c.toml" crawl --state "$work/s-$mode-$r" "${extra[@]}" "$seed" \
      2>"$work/$mode-$r.err" ; } 2>"$work/$mode-$r.cpu"
    t1=$(now)
    pages=$(grep -o '^fetched [0-9]*' "$work/$mode-$r.err" | tail -n 1 | grep -o '[0-9]*')
    secs=$(echo "$t1 - $t0" | bc)
    cpu=$(awk '{print $1 + $2}' "$work/$mode-$r.cpu")
    echo "round $r $mode: $pages pages in ${secs}s, CPU ${cpu}s"
    echo "$r $mode $pages $secs $cpu" >> "$results"
  done
  du -sb "$work/w-$r" | awk '{printf "  WARC written: %.1f MB\n", $1 / 1e6}'
  rm -rf "$work/w-$r" "$work/s-plain-$r" "$work/s-warc-$r"
done
python3 - "$results" <<'PY'
import statistics, sys
runs, cpu = {}, {}
for line in open(sys.argv[1]):
    r, mode, pages, secs, cpu_secs = line.split()
    runs.setdefault(int(r), {})[mode] = int(pages) / float(secs)
    cpu.setdefault(mode, []).append(1000 * float(cpu_secs) / int(pages))
ratios = [v["warc"] / v["plain"] for v in runs.values()]
plain = [v["plain"] for v in runs.values()]
warc = [v["warc"] for v in runs.values()]
print(f"pages/s without --warc: best {max(plain):.0f}, median {statistics.median(plain):.0f}")
print(f"pages/s with --warc:    best {max(warc):.0f}, median {statistics.median(warc):.0f}")
print("per-round ratio (with / without):", " ".join(f"{x:.3f}" for x in ratios))
print(f"median ratio {statistics.median(ratios):.3f}, best/best {max(warc) / max(plain):.3f} (target >= 0.90)")
p, w = statistics.median(cpu["plain"]), statistics.median(cpu["warc"])
print(f"CPU ms per page, median: {p:.3f} without, {w:.3f} with --warc ({w / p:.3f}x)")
PY
