#!/usr/bin/env python3
"""Where one function's instructions go, inlined code included, from a callgrind output.

callgrind_annotate attributes an inlined callee's lines to their own source files and shows
them mixed with every other function's. This reads the raw output instead: for the functions
whose name matches REGEX, their self cost per source line (the lines of the code inlined into
them too), the totals per source file, and how many calls they received; all divided by N
(e.g. pages) when given.

Usage: scripts/callgrind-lines.py CALLGRIND_OUT REGEX [N] [LINES] [EVENT]
       EVENT: Ir (default), or Bcm etc. when the output has them (--branch-sim=yes)
Example: valgrind --tool=callgrind --callgrind-out-file=cg.out \\
             target/release/silhouette fingerprint --content --format csv --files-from LIST
         scripts/callgrind-lines.py cg.out 'uax29::fast_words' 106
"""

import collections
import re
import signal
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends it quietly
    path, target = sys.argv[1], re.compile(sys.argv[2])
    n = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    show = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    event = sys.argv[5] if len(sys.argv) > 5 else "Ir"
    files, fns = {}, {}
    cur_file = fn = callee = None
    col = 1
    last = 0
    in_call = False
    cost = collections.Counter()
    calls = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("events:"):
                col = line.split()[1:].index(event) + 1
                continue
            if line[0].isdigit() or line[0] in "+-*":
                parts = line.split()
                p = parts[0]
                last = last + int(p) if p[0] in "+-" else (last if p == "*" else int(p))
                if in_call:
                    # The line after `calls=` is the call's inclusive cost: not this function's.
                    in_call = False
                    continue
                if fn and target.search(fn) and len(parts) > col:
                    cost[(cur_file, last)] += int(parts[col])
                continue
            m = re.match(r"^(fl|fi|fe|cfi|cfl)=\((\d+)\)(?: (.*))?", line)
            if m:
                kind, i, name = m.groups()
                if name:
                    files[i] = name.strip()
                if kind in ("fl", "fi", "fe"):
                    cur_file = files.get(i, i)
                continue
            m = re.match(r"^(fn|cfn)=\((\d+)\)(?: (.*))?", line)
            if m:
                kind, i, name = m.groups()
                if name:
                    fns[i] = name
                if kind == "fn":
                    fn = fns.get(i, i)
                else:
                    callee = fns.get(i, i)
                continue
            m = re.match(r"^calls=(\d+)", line)
            if m:
                in_call = True
                if callee and target.search(callee):
                    calls += int(m.group(1))
    sources = {}

    def text(file, no):
        try:
            if file not in sources:
                with open(file, encoding="utf-8") as s:
                    sources[file] = s.read().split("\n")
            return sources[file][no - 1].strip()[:90]
        except (OSError, IndexError):
            return ""

    print(f"{event} per unit {sum(cost.values()) / n:.0f}; calls per unit {calls / n:.1f}")
    by_file = collections.Counter()
    for (file, _), v in cost.items():
        by_file[file] += v
    for file, v in by_file.most_common():
        print(f"  {v / n:9.0f}  {file}")
    for (file, no), v in cost.most_common(show):
        print(f"{v / n:9.0f}  {file.split('/')[-1]}:{no}  {text(file, no)}")


if __name__ == "__main__":
    main()
