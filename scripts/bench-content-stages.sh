#!/usr/bin/env bash
# Where the content signal's instructions go, stage by stage (callgrind counts, which do not
# move with this machine's load).
#
# Runs `silhouette fingerprint --format csv --files-from LIST` under `valgrind --tool=callgrind`
# without and with `--content` over the pages of a Debian documentation package, and prints
# instructions per page for the whole run and the inclusive cost of each stage of the content
# path: the bridge's word store, the elements' text contexts, the main-content text (runs
# decoded and written as the tree is built), and silhouette-text's fingerprint (tokenizer, hashes, signature). A stage
# the compiler inlined into its caller shows as "inlined": code layout moves a few hundred
# thousand instructions per page between builds, so compare stages, not only totals.
#
# Usage: scripts/bench-content-stages.sh [SITE]
#   SITE: python (default; python3.11-doc, 530 pages, ~1 minute) or cppreference (the first
#         150 pages of cppreference-doc-en-html)
# Env:   BIN (default target/release/silhouette, built when missing)
#        BRANCHES=1: also simulate branch prediction (`--branch-sim=yes`, about twice as slow)
#        and print mispredicted branches (conditional + indirect) per page beside the
#        instructions: a change that trades instructions for predictable branches shows there
#        (a mispredict costs some 15-20 cycles on current x86 cores; instructions ~0.3-1 each).
set -euo pipefail

main() {
cd "$(dirname "$0")/.."
SITE="${1:-python}"
BIN="${BIN:-target/release/silhouette}"
# shellcheck source=lib/nginx.sh
source scripts/lib/nginx.sh
bench_need valgrind python3.11-doc cppreference-doc-en-html
[ -x "$BIN" ] || cargo build --release --bin silhouette
W="$(mktemp -d /var/tmp/silhouette-bench-stages.XXXXXX)"
trap 'rm -rf "$W"' EXIT
case "$SITE" in
    python) find /usr/share/doc/python3.11/html -name '*.html' | sort > "$W/list" ;;
    cppreference)
        find /usr/share/cppreference/doc/html/en -name '*.html' | sort > "$W/all"
        head -150 "$W/all" > "$W/list" ;;
    *) echo "unknown site $SITE (python or cppreference)" >&2; exit 2 ;;
esac
for mode in plain content; do
    flags=()
    [ "$mode" = content ] && flags=(--content)
    sim=()
    [ "${BRANCHES:-}" = 1 ] && sim=(--branch-sim=yes)
    valgrind --tool=callgrind "${sim[@]}" --callgrind-out-file="$W/cg.$mode" "$BIN" fingerprint "${flags[@]}" \
        --format csv --files-from "$W/list" > /dev/null 2> "$W/valgrind.$mode"
    callgrind_annotate --inclusive=yes --auto=no --threshold=100 --show=Ir "$W/cg.$mode" 2>/dev/null \
        | grep -v '=>' > "$W/inclusive.$mode"
    if [ "${BRANCHES:-}" = 1 ]; then
        for ev in Bcm Bim; do
            callgrind_annotate --inclusive=yes --auto=no --threshold=100 --show="$ev" --sort="$ev" \
                "$W/cg.$mode" 2>/dev/null | grep -v '=>' > "$W/inclusive-$ev.$mode"
        done
    fi
done
python3 - "$W" "$(wc -l < "$W/list")" "$SITE" "${BRANCHES:-}" <<'PY'
import os, re, sys
w, pages, site, branches = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"

def load(mode, event=None):
    cost = {}
    path = f"{w}/inclusive.{mode}" if event is None else f"{w}/inclusive-{event}.{mode}"
    if not os.path.exists(path):
        return cost
    for line in open(path):
        m = re.match(r"\s*([\d,]+) \(.*?\)\s+(\S.*)$", line)
        if not m:
            continue
        n, name = int(m.group(1).replace(",", "")), m.group(2)
        name = name.split(":", 1)[1] if ":" in name else name
        name = name.split(" [")[0].strip()
        cost[name] = max(cost.get(name, 0), n)
    return cost

plain, content = load("plain"), load("content")
total = lambda c: c.get("PROGRAM TOTALS", 0) / pages / 1e6
print(f"{site}: {pages} pages; instructions per page: {total(plain):.2f} M without "
      f"--content, {total(content):.2f} M with (+{total(content) - total(plain):.2f} M)")
stages = [
    ("the bridge's word store", "silhouette_dom::tokens::Bridge::push_words"),
    ("element contexts (arena)", "silhouette_dom::tree::TreeArena::enter"),
    ("main-content text (runs decoded, written)", "silhouette_dom::words::WordDecoder::decode"),
    ("content fingerprint (silhouette-text)", "silhouette_text::hasher::ContentHasher::fingerprint"),
    ("  of which words (tokenizer, counts)", "silhouette_text::tokenize::Tokenizer::for_each_word_in"),
    ("  of which the signature's ranking", "silhouette_text::signature::ranked"),
]
def mispredicts(mode):
    c, i = load(mode, "Bcm"), load(mode, "Bim")
    return {k: c.get(k, 0) + i.get(k, 0) for k in set(c) | set(i)}

if branches:
    bp, bc = mispredicts("plain"), mispredicts("content")
    per = lambda m: m.get("PROGRAM TOTALS", 0) / pages / 1e3
    print(f"  mispredicted branches per page: {per(bp):.1f} k without --content, "
          f"{per(bc):.1f} k with (+{per(bc) - per(bp):.1f} k)")
for label, name in stages:
    n = content.get(name)
    shown = f"{n / pages / 1e6:6.2f} M" if n else "inlined "
    extra = ""
    if branches and n:
        extra = f"  {bc.get(name, 0) / pages / 1e3:5.1f} k mispredicts"
    print(f"  {label:40} {shown}{extra}  ({name})")
# What the words leave (the minhash's bits, the signature's ranking and MD5; the words are
# counted for the signature inside the word loop).
whole, words = (content.get(stages[i][1]) for i in (3, 4))
if whole and words:
    print(f"  {'  of which the rest (minhash, ranking)':40} {(whole - words) / pages / 1e6:6.2f} M")
PY
}
main "$@"
