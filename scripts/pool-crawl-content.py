#!/usr/bin/env python3
"""The summary of one or several runs of scripts/bench-crawl-content.sh (their rows).

Per site and run: the median of the rounds' on/off pages/s ratios (each round's runs are
neighbours in time), their range, and the median of the rounds that ran off first and of
those that ran on first (how far the order of a pair moves the ratio). Then, over every round
of every run: the median pages/s ratio with a bootstrap 95% interval (2,000 resamples, fixed
seed), the median CPU-per-page ratio, and peak RSS. A single run's median is known to about
±0.011 with 150 rounds (a round's ratio swings by ±20% with the load), and runs of one binary
differ by that much; several runs pooled narrow it.

Usage: scripts/pool-crawl-content.py OUTPUT...
       (the script calls it on its own rows; for several runs, save each run's output:
        `scripts/bench-crawl-content.sh 150 16 | tee run1.txt`, …)
"""

import random
import statistics
import sys


def read(path):
    """{site: {round: {binary: (pages/s, CPU ms per page, peak RSS MB)}}} of one run."""
    runs = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            p = line.split()
            if len(p) != 10 or p[2] not in ("on", "off") or not p[1].isdigit():
                continue
            site, r, which = p[0], int(p[1]), p[2]
            runs.setdefault(site, {}).setdefault(r, {})[which] = tuple(map(float, p[6:9]))
    return runs


def median(xs):
    return f"{statistics.median(xs):.3f}" if xs else "-"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sites = {}
    for path in sys.argv[1:]:
        for site, rounds in read(path).items():
            pairs = {r: v for r, v in rounds.items() if "on" in v and "off" in v}
            if pairs:
                sites.setdefault(site, []).append(pairs)
    rng = random.Random(1)
    for site, runs in sites.items():
        for n, pairs in enumerate(runs, 1):
            ratio = {r: v["on"][0] / v["off"][0] for r, v in pairs.items()}
            print(
                f"{site} run {n}: on/off pages/s median {median(list(ratio.values()))} over "
                f"{len(ratio)} rounds ({min(ratio.values()):.2f}-{max(ratio.values()):.2f}; "
                f"off first {median([x for r, x in ratio.items() if r % 2 == 1])}, "
                f"on first {median([x for r, x in ratio.items() if r % 2 == 0])})"
            )
        rounds = [v for pairs in runs for v in pairs.values()]
        pps = [v["on"][0] / v["off"][0] for v in rounds]
        cpu = [v["on"][1] / v["off"][1] for v in rounds]
        boot = sorted(statistics.median(rng.choices(pps, k=len(pps))) for _ in range(2000))
        rss = {w: f"{min(v[w][2] for v in rounds):.0f}-{max(v[w][2] for v in rounds):.0f} MB"
               for w in ("on", "off")}
        print(
            f"{site}: {len(runs)} run(s), {len(pps)} rounds: on/off pages/s median {median(pps)} "
            f"(95% interval {boot[50]:.3f}-{boot[1949]:.3f}), CPU per page {median(cpu)}; "
            f"peak RSS on {rss['on']}, off {rss['off']}"
        )


if __name__ == "__main__":
    main()
