#!/usr/bin/env bash
# CPU time of `fingerprint` without and with `--content`, for one or more binaries, in
# interleaved runs: the median task-clock (ms, `perf stat -e task-clock`, which works without
# hardware counters) of each binary in each mode, what `--content` adds, and the ratio.
#
# Usage: scripts/bench-content-ab.sh ROUNDS BIN...
# Env:   LIST: the pages, one path per line (default: python3.11-doc's 530 pages, installed
#        when missing)
# The same binary's two modes share its code layout, so compare the `extra` column across
# binaries, not the `off` one (a build's layout moves the parse by about 1%).
set -euo pipefail

main() {
cd "$(dirname "$0")/.."
ROUNDS="${1:?usage: scripts/bench-content-ab.sh ROUNDS BIN...}"
shift
[ "$#" -gt 0 ] || { echo "usage: scripts/bench-content-ab.sh ROUNDS BIN..." >&2; exit 2; }
# shellcheck source=lib/nginx.sh
source scripts/lib/nginx.sh
W="$(mktemp -d /var/tmp/silhouette-bench-ab.XXXXXX)"
trap 'rm -rf "$W"' EXIT
if [ -z "${LIST:-}" ]; then
    bench_need linux-perf python3.11-doc
    find /usr/share/doc/python3.11/html -name '*.html' | sort > "$W/list"
    LIST="$W/list"
else
    bench_need linux-perf
fi
for _ in $(seq "$ROUNDS"); do
    for bin in "$@"; do
        for mode in off on; do
            flags=()
            [ "$mode" = on ] && flags=(--content)
            ms=$(perf stat -x, -e task-clock "$bin" fingerprint "${flags[@]}" --format csv \
                --files-from "$LIST" 2>&1 >/dev/null | grep task-clock | cut -d, -f1)
            echo "$bin $mode $ms"
        done
    done
done > "$W/runs"
python3 - "$W/runs" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
order = []
for line in open(sys.argv[1]):
    b, m, ms = line.split()
    if b not in order:
        order.append(b)
    runs[(b, m)].append(float(ms))
for b in order:
    off, on = statistics.median(runs[(b, "off")]), statistics.median(runs[(b, "on")])
    print(f"{b}: off {off:7.1f} ms  on {on:7.1f} ms  extra {on - off:6.1f} ms  ratio {on / off:.3f}")
PY
}
main "$@"
