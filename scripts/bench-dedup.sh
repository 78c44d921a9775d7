#!/usr/bin/env bash
# Benchmark of `silhouette dedup` (issue #11) over a WARC that Debian's wget made crawling the
# 530 Sphinx pages of python3.11-doc (or, with SILHOUETTE_BENCH_CORPUS=cppreference, the
# 4,424 pages of cppreference-doc-en-html) served on 127.0.0.1, against `silhouette fingerprint`
# over the same pages as files (target >= 0.9x pages/s) and warcio iterating the same WARC in
# Python (a reference point); peak RSS of dedup on the WARC and on 4 copies of it.
#
#   scripts/bench-dedup.sh        (SILHOUETTE_BENCH_ROUNDS=N rounds, default 5;
#                                  SILHOUETTE_BENCH_CORPUS=python|cppreference, default python)
#
# Figures and how to read them: BENCHMARKS.md, "`silhouette dedup` over WARC".
set -euo pipefail
cd "$(dirname "$0")/.."

case "${SILHOUETTE_BENCH_CORPUS:-python}" in
  python) corpus=/usr/share/doc/python3.11/html package=python3.11-doc seed=index.html ;;
  cppreference) corpus=/usr/share/cppreference/doc/html package=cppreference-doc-en-html seed=en/index.html ;;
  *) echo "SILHOUETTE_BENCH_CORPUS: python or cppreference" >&2; exit 2 ;;
esac
rounds="${SILHOUETTE_BENCH_ROUNDS:-5}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ -z "$(find -L "$corpus" -name '*.html' -print -quit 2>/dev/null)" ] || ! command -v wget >/dev/null; then
  apt-cache show "$package" >/dev/null 2>&1 || $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "$package" wget
fi
python3 -c 'import warcio' 2>/dev/null || python3 -m pip install -q 'warcio>=1.8.1'

cargo build --release --locked --bin silhouette
bin="$PWD/target/release/silhouette"
work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Serve the corpus on 127.0.0.1 and crawl it with wget into one WARC.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$corpus" "$port" >/dev/null 2>&1 &
server_pid=$!
sleep 1
(cd "$work" && wget --recursive --level=inf --no-verbose --no-http-keep-alive --tries=5 \
  --waitretry=0 --delete-after --no-directories --warc-file=pydoc \
  --reject-regex '\.(png|jpg|gif|svg|ico|css|js|txt|zip|bz2|tar|gz|inv|pdf|epub)$' \
  "http://127.0.0.1:$port/$seed" >/dev/null 2>&1 || true)
kill "$server_pid"
server_pid=""
warc="$work/pydoc.warc.gz"
for _ in 1 2 3 4; do cat "$warc"; done > "$work/pydoc4.warc.gz"
mb=$(python3 -c "import os; print(round(os.path.getsize('$warc') / 1e6, 1))")
pages=$(find -L "$corpus" -name '*.html' | wc -l)
echo "WARC: $warc ($mb MB compressed), corpus: $pages HTML files"

now() { date +%s.%N; }
best_dedup=999999
best_fp=999999
best_warcio=999999
for r in $(seq "$rounds"); do
  t0=$(now); "$bin" dedup --output /dev/null "$warc" 2>"$work/dedup.err"; t1=$(now)
  "$bin" fingerprint --format json "$corpus" >/dev/null; t2=$(now)
  python3 - "$warc" <<'PY'
import sys
from warcio.archiveiterator import ArchiveIterator
n = 0
with open(sys.argv[1], 'rb') as f:
    for rec in ArchiveIterator(f):
        if rec.rec_type == 'response':
            rec.content_stream().read()
            n += 1
PY
  t3=$(now)
  d=$(echo "$t1 - $t0" | bc); f=$(echo "$t2 - $t1" | bc); w=$(echo "$t3 - $t2" | bc)
  echo "round $r: dedup ${d}s, fingerprint ${f}s, warcio ${w}s"
  best_dedup=$(echo "if ($d < $best_dedup) $d else $best_dedup" | bc)
  best_fp=$(echo "if ($f < $best_fp) $f else $best_fp" | bc)
  best_warcio=$(echo "if ($w < $best_warcio) $w else $best_warcio" | bc)
done
judged=$(grep -o 'judged [0-9]*' "$work/dedup.err" | grep -o '[0-9]*')
tail -n 1 "$work/dedup.err"
rss1=$( { /usr/bin/time -f %M "$bin" dedup --output /dev/null "$warc" 2>&1 >/dev/null; } | tail -n 1)
rss4=$( { /usr/bin/time -f %M "$bin" dedup --output /dev/null "$work/pydoc4.warc.gz" 2>&1 >/dev/null; } | tail -n 1)
python3 - "$judged" "$pages" "$mb" "$best_dedup" "$best_fp" "$best_warcio" "$rss1" "$rss4" <<'PY'
import sys
judged, pages, mb = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
d, f, w = map(float, sys.argv[4:7])
rss1, rss4 = int(sys.argv[7]), int(sys.argv[8])
dp, fp = judged / d, pages / f
print(f"best of rounds: dedup {judged} pages in {d:.2f}s = {dp:.0f} pages/s, {mb / d:.1f} MB/s (compressed WARC)")
print(f"                fingerprint {pages} files in {f:.2f}s = {fp:.0f} pages/s")
print(f"                warcio iterating the WARC: {w:.2f}s ({mb / w:.1f} MB/s)")
print(f"dedup / fingerprint pages/s: {dp / fp:.2f}x (target >= 0.9x)")
print(f"peak RSS: 1x WARC {rss1 / 1024:.1f} MB, 4x WARC {rss4 / 1024:.1f} MB")
PY
