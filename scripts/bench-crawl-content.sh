#!/usr/bin/env bash
# The crawl's pages/s with the content signal on vs off, in one interleaved run.
#
# "off" is this tree's release build with the default config (content.enabled unset,
# drop-when = "structure": no main-content text, no content fingerprint); "on" is the same
# binary with `--content` (text collected, content fingerprints and signatures computed and
# recorded; the same pages are fetched and kept). With BASE_BIN set, a third binary runs too
# ("base", e.g. one built before the content signal existed, from commit 2fbf3ab: `git
# archive 2fbf3ab | tar -x -C /tmp/base && cargo build --release --manifest-path
# /tmp/base/Cargo.toml`). All crawl the same local copies of a site (nginx on 127.0.0.1, as
# scripts/bench-crawl.sh sets it up: python3.11-doc and cppreference-doc-en-html) with
# on-duplicate = "follow-links" (every page fetched), rate limits off, concurrency N; runs
# alternate base, off, on in odd rounds and base, on, off in even ones. The last lines per site
# (scripts/pool-crawl-content.py) give the median of the rounds' on/off ratios (pages/s, CPU
# per page), by order too, and the peak RSS ranges.
#
# Usage: scripts/bench-crawl-content.sh [ROUNDS] [N]
# Env:   SITES="python cppreference"   NEW_BIN (default target/release/silhouette)   BASE_BIN
#        AA=1: "on" runs without --content too (an A/A run: how far the ratio moves by noise)
set -euo pipefail

main() {
cd "$(dirname "$0")/.."
ROUNDS="${1:-2}"
CONC="${2:-16}"
SITES="${SITES:-python cppreference}"
BASE_BIN="${BASE_BIN:-}"
NEW_BIN="${NEW_BIN:-target/release/silhouette}"
# shellcheck source=lib/nginx.sh
source scripts/lib/nginx.sh
bench_need nginx python3.11-doc cppreference-doc-en-html
[ -x "$NEW_BIN" ] || cargo build --release --bin silhouette
W="$(mktemp -d /var/tmp/silhouette-bench-content.XXXXXX)"
trap nginx_stop EXIT
nginx_start "$W/nginx" python=/usr/share/doc/python3.11/html cpp=/usr/share/cppreference/doc/html
PY_PORT="$PORT_python"
CPP_PORT="$PORT_cpp"
bench_crawl_config "$W/c.toml" "$CONC"
echo "site round binary pages wall_s cpu_s pages_per_s cpu_ms_per_page peak_rss_mb load"
for site in $SITES; do
    case "$site" in
        python) seed="http://127.0.0.1:$PY_PORT/index.html" ;;
        cppreference) seed="http://127.0.0.1:$CPP_PORT/en/index.html" ;;
    esac
    for round in $(seq "$ROUNDS"); do
        # Odd rounds run off then on, even rounds on then off: a bias of the second run of a
        # pair (the page cache, the previous run's files being written back) cancels out.
        order="${BASE_BIN:+base} off on"
        [ $((round % 2)) = 0 ] && order="${BASE_BIN:+base} on off"
        for which in $order; do
            bin="$NEW_BIN"
            flags=()
            [ "$which" = base ] && bin="$BASE_BIN"
            [ "$which" = on ] && [ -z "${AA:-}" ] && flags=(--content)
            state="$W/$site-$which-$round"
            load="$(cut -d' ' -f1 /proc/loadavg)"
            /usr/bin/time -f '%e %U %S %M' -o "$W/time" "$bin" --config "$W/c.toml" crawl \
                "${flags[@]}" --state "$state" "$seed" > /dev/null 2> "$W/stderr" || { cat "$W/stderr" >&2; exit 1; }
            read -r wall user sys rss < "$W/time"
            pages="$(wc -l < "$state/decisions.jsonl")"
            python3 -c 'import sys
site, r, w, pages, wall, user, sys_, rss, load = sys.argv[1:]
cpu = float(user) + float(sys_)
print(site, r, w, pages, wall, round(cpu, 2), round(int(pages) / float(wall), 1), round(1000 * cpu / int(pages), 2), round(int(rss) / 1024, 1), load)' \
                "$site" "$round" "$which" "$pages" "$wall" "$user" "$sys" "$rss" "$load" | tee -a "$W/rows"
        done
    done
done
# Per site: the median of the rounds' on/off ratios, their range, by order, and peak RSS.
python3 scripts/pool-crawl-content.py "$W/rows"
rm -rf "$W"
}
main "$@"
