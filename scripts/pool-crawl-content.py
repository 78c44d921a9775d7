#!/usr/bin/env python3
"""Pools the rounds of several runs of scripts/bench-crawl-content.sh (their saved output).

A single run's median on/off ratio is known to about ±0.011 with 150 rounds (a round's ratio
swings by ±20% with the load), and runs of one binary differ by that much; the rounds of
several runs pooled narrow it. Per site: each run's median, the median of all rounds with a
bootstrap 95% interval (2,000 resamples, fixed seed), and the median CPU-per-page ratio.

Usage: scripts/pool-crawl-content.py OUTPUT...
       (e.g. `scripts/bench-crawl-content.sh 150 16 | tee run1.txt`, several times)
"""

import random
import statistics
import sys


def rounds(path):
    """(pages/s on/off, CPU per page on/off) of each round of one run, by site."""
    runs = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            p = line.split()
            if len(p) != 10 or p[2] not in ("on", "off"):
                continue
            site, r, which = p[0], p[1], p[2]
            runs.setdefault(site, {}).setdefault(r, {})[which] = (float(p[6]), float(p[7]))
    return {
        site: [
            (v["on"][0] / v["off"][0], v["on"][1] / v["off"][1])
            for v in by_round.values()
            if "on" in v and "off" in v
        ]
        for site, by_round in runs.items()
    }


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    pooled = {}
    for path in sys.argv[1:]:
        for site, pairs in rounds(path).items():
            if pairs:
                pooled.setdefault(site, []).append(pairs)
    rng = random.Random(1)
    for site, runs in pooled.items():
        pps = [a for run in runs for a, _ in run]
        cpu = [c for run in runs for _, c in run]
        boot = sorted(statistics.median(rng.choices(pps, k=len(pps))) for _ in range(2000))
        per_run = ", ".join(f"{statistics.median(a for a, _ in run):.3f}" for run in runs)
        print(
            f"{site}: {len(runs)} runs (medians {per_run}); {len(pps)} rounds pooled: "
            f"pages/s on/off median {statistics.median(pps):.3f} "
            f"(95% interval {boot[50]:.3f}-{boot[1949]:.3f}), "
            f"CPU per page {statistics.median(cpu):.3f}"
        )


if __name__ == "__main__":
    main()
