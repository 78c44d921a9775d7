#!/usr/bin/env bash
# Where a crawl's time goes in real time, without and with an option (default --content): the
# whole machine's busy and idle time during each crawl (/proc/stat before and after: nginx and
# the kernel included), and a `perf record -e cpu-clock` profile of the crawler (samples per
# function, summed over the rounds). Instruction counts (scripts/bench-instructions.sh) are
# steadier but blind to cache misses; this shows whether the crawl is CPU-bound and which
# functions hold the time.
#
# Crawls python3.11-doc (nginx on 127.0.0.1, as scripts/bench-crawl-content.sh sets it up) with
# on-duplicate = "follow-links", rate limits off, concurrency 16.
#
# Usage: scripts/bench-crawl-profile.sh [ROUNDS] [FLAGS...]
# Env:   BIN (default target/release/silhouette, built when missing)
set -euo pipefail

main() {
cd "$(dirname "$0")/.."
ROUNDS="${1:-5}"
shift || true
FLAGS=("$@")
[ "${#FLAGS[@]}" -gt 0 ] || FLAGS=(--content)
BIN="${BIN:-target/release/silhouette}"
# shellcheck source=lib/nginx.sh
source scripts/lib/nginx.sh
bench_need nginx linux-perf python3.11-doc
[ -x "$BIN" ] || cargo build --release --bin silhouette
W="$(mktemp -d /var/tmp/silhouette-bench-profile.XXXXXX)"
trap 'nginx_stop; rm -rf "$W"' EXIT
nginx_start "$W/nginx" site=/usr/share/doc/python3.11/html
seed="http://127.0.0.1:$PORT_site/index.html"
bench_crawl_config "$W/c.toml"
jiffies() { awk '/^cpu /{print $2+$3+$4+$7+$8, $5+$6}' /proc/stat; }
hz="$(getconf CLK_TCK)"
crawl() { # MODE ROUND [PERF_OUTPUT]
    local flags=()
    [ "$1" = on ] && flags=("${FLAGS[@]}")
    local run=("$BIN" --config "$W/c.toml" crawl "${flags[@]}" --state "$W/s-$1-$2-${3:+p}" "$seed")
    [ -n "${3:-}" ] && run=(perf record -q -F 10000 -e cpu-clock -o "$3" "${run[@]}")
    "${run[@]}" > /dev/null 2> "$W/stderr" || { cat "$W/stderr" >&2; exit 1; }
}
# Busy and idle time first, without the profiler (sampling at 10 kHz slows a crawl and
# sometimes stalls it).
echo "round mode wall_s busy_core_s idle_core_s"
for round in $(seq "$ROUNDS"); do
    for mode in off on; do
        read -r b0 i0 < <(jiffies)
        t0="$(date +%s.%N)"
        crawl "$mode" "$round"
        read -r b1 i1 < <(jiffies)
        t1="$(date +%s.%N)"
        python3 -c "import sys; r, m, t0, t1, b, i, hz = sys.argv[1:]; \
print(r, m, round(float(t1) - float(t0), 3), round(int(b) / int(hz), 2), round(int(i) / int(hz), 2))" \
            "$round" "$mode" "$t0" "$t1" "$((b1 - b0))" "$((i1 - i0))" "$hz"
    done
done
for round in $(seq "$ROUNDS"); do
    for mode in off on; do
        crawl "$mode" "$round" "$W/perf-$mode-$round.data"
    done
done
for mode in off on; do
    for f in "$W"/perf-"$mode"-*.data; do
        perf report -i "$f" -n --no-children --sort sym -g none --percent-limit 0 --stdio 2> /dev/null \
            | grep -E '^\s+[0-9]'
    done > "$W/report-$mode"
done
python3 - "$W" "$ROUNDS" <<'PY'
import collections, re, sys
w, rounds = sys.argv[1], int(sys.argv[2])
def load(mode):
    d = collections.Counter()
    for line in open(f"{w}/report-{mode}"):
        m = re.match(r"\s+[\d.]+%\s+(\d+)\s+\[.\]\s+(.*)", line)
        if m:
            d[m.group(2).strip()[:100]] += int(m.group(1)) / rounds
    return d
off, on = load("off"), load("on")
a, b = sum(off.values()), sum(on.values())
print(f"samples per crawl (10 kHz): {a:.0f} without, {b:.0f} with: {b / a:.3f}x")
print("functions by samples gained with the option (share of the crawl with it):")
for k in sorted(set(off) | set(on), key=lambda k: off[k] - on[k])[:20]:
    print(f"  {on[k] - off[k]:+8.0f}  {100 * on[k] / b:5.2f}%  {k}")
PY
}
main "$@"
