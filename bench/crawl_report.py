"""Table and ratios of a scripts/bench-crawl.sh run.

Usage: python3 bench/crawl_report.py RUN_DIR

RUN_DIR holds meta.json and one folder per site and tool (SITE-TOOL) with t0/t1 (start and
end, epoch seconds), time.txt (/usr/bin/time -v), access.log (nginx: `msec status uri` for
each request the run made), loadavg, and the tool's own counts: stats.txt (silhouette stats),
stdout (spider baseline: `pages N`), stats.json (Scrapy's stats).

pages = what the tool itself counts as fetched: silhouette's "N URLs recorded", spider's
`get_links().len()`, Scrapy's response_received_count less its robots.txt response. `requests` = requests nginx served to
the run, robots.txt excluded (the same yardstick for all three).

For the python docs, "all templates at" is the time from the start of the run until a page
of every template (labels of ../shared/eval-dev/sites.py, redirect stubs left out) had been
served to the crawler, from nginx's log.
"""
import json
import os
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

TOOLS = ["silhouette", "spider", "scrapy", "drop"]
TOOL_NAMES = {
    "silhouette": "silhouette (follow-links)",
    "spider": "spider",
    "scrapy": "Scrapy",
    "drop": "silhouette (drop)",
}
TARGETS = {"spider_pps": 0.6, "scrapy_pps": 15.0, "spider_rss": 2.0}


def parse_time(path):
    """user+sys CPU seconds, peak RSS in KiB, from /usr/bin/time -v."""
    text = path.read_text()
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", text).group(1))
    system = float(re.search(r"System time \(seconds\): ([\d.]+)", text).group(1))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
    return user + system, rss


def access(path):
    rows = []
    for line in path.read_text().splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3:
            rows.append((float(parts[0]), int(parts[1]), parts[2]))
    return rows


def own_pages(d, tool):
    if tool in ("silhouette", "drop"):
        stats = (d / "stats.txt").read_text()
        pages = int(re.search(r"(\d+) URLs recorded", stats).group(1))
        kept = re.search(r"^\s*kept\s+(\d+)", stats, re.M)
        return pages, int(kept.group(1)) if kept else None
    if tool == "spider":
        return int(re.search(r"^pages (\d+)", (d / "stdout").read_text(), re.M).group(1)), None
    if tool == "scrapy":
        stats = json.loads((d / "stats.json").read_text())
        # response_received_count includes robots.txt, fetched by the robots middleware
        got = int(stats.get("response_received_count", 0))
        return got - int(stats.get("robotstxt/response_count", 0)), None
    raise ValueError(tool)


class Labeller:
    """Template labels of the python docs, by the development set's rules."""

    def __init__(self, root):
        self.root = Path(root)
        here = Path(__file__).resolve().parent
        shared = Path(os.environ.get("EVAL_DEV", here.parent.parent / "shared" / "eval-dev"))
        self.ok = (shared / "sites.py").exists()
        if not self.ok:
            return
        sys.path.insert(0, str(shared))
        import sites  # noqa: E402 (the development set's labelling rules)

        self.sites = sites
        self.cache = {}
        self.universe = set()
        for p in self.root.rglob("*.html"):
            lab = self.label(str(p.relative_to(self.root)))
            if lab and lab != "redirect":
                self.universe.add(lab)

    def label(self, rel):
        if rel in self.cache:
            return self.cache[rel]
        p = self.root / rel
        lab = None
        if p.is_file() and p.suffix == ".html":
            data = p.read_bytes()
            lab = self.sites.label("python", rel, data[:65536], len(data))
        self.cache[rel] = lab
        return lab

    def all_seen_at(self, rows, t0):
        """(seconds after t0 when the last template was first served, requests by then,
        templates seen, templates in all)."""
        seen = set()
        for i, (t, status, uri) in enumerate(sorted(rows)):
            if status != 200:
                continue
            path = unquote(urlsplit(uri).path).lstrip("/")
            if path == "" or path.endswith("/"):
                path += "index.html"
            lab = self.label(path)
            if lab and lab != "redirect" and lab not in seen:
                seen.add(lab)
                if seen >= self.universe:
                    return t - t0, i + 1, len(seen), len(self.universe)
        return None, len(rows), len(seen), len(self.universe)


def fmt(x, nd=2):
    if x is None:
        return "–"
    if isinstance(x, int):
        return f"{x:,}"
    return f"{x:,.{nd}f}"


def main():
    run = Path(sys.argv[1])
    meta = json.loads((run / "meta.json").read_text())
    conc = meta["concurrency"]
    res = {}
    for d in sorted(run.iterdir()):
        if not d.is_dir() or "-" not in d.name or not (d / "time.txt").exists():
            continue
        site, tool = d.name.rsplit("-", 1)
        t0 = float((d / "t0").read_text())
        t1 = float((d / "t1").read_text())
        cpu, rss = parse_time(d / "time.txt")
        rows = access(d / "access.log")
        reqs = [r for r in rows if not r[2].startswith("/robots.txt")]
        try:
            pages, kept = own_pages(d, tool)
        except (OSError, AttributeError, ValueError):
            pages, kept = None, None
        res[(site, tool)] = dict(
            wall=t1 - t0, t0=t0, cpu=cpu, rss_mb=rss / 1024, pages=pages, kept=kept,
            requests=len(reqs), ok=sum(1 for r in reqs if r[1] == 200), rows=rows,
            load=(d / "loadavg").read_text().split()[0] if (d / "loadavg").exists() else "?",
            failed=(d / "failed").exists(),
        )

    out = []
    w = out.append
    w(f"Concurrency {conc} for every tool; nproc {meta['nproc']}; silhouette at "
      f"{meta['silhouette_commit']}; network namespace: {meta['namespace']}.")
    w("")
    w("| site | tool | pages | requests (nginx) | wall s | pages/s | CPU s per 1,000 pages "
      "| CPU % | peak RSS MB | load avg |")
    w("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for site in meta["sites"].split():
        for tool in TOOLS:
            r = res.get((site, tool))
            if not r:
                continue
            pages = r["pages"]
            pps = pages / r["wall"] if pages else None
            cpk = r["cpu"] / pages * 1000 if pages else None
            r["pps"], r["cpk"] = pps, cpk
            flag = " (failed)" if r["failed"] else ""
            w(f"| {site} | {TOOL_NAMES[tool]}{flag} | {fmt(pages)} | {fmt(r['requests'])} | "
              f"{fmt(r['wall'])} | {fmt(pps, 0)} | {fmt(cpk, 3)} | {100 * r['cpu'] / r['wall']:.0f} | "
              f"{fmt(r['rss_mb'], 1)} | "
              f"{r['load']} |")
    w("")
    w("Ratios (silhouette follow-links / peer, same run):")
    w("")
    w("| site | pages/s vs spider (target ≥ 0.6) | pages/s vs Scrapy (target ≥ 15) "
      "| CPU per page vs spider | peak RSS vs spider (target ≤ 2) |")
    w("| --- | ---: | ---: | ---: | ---: |")
    for site in meta["sites"].split():
        ours = res.get((site, "silhouette"))
        sp = res.get((site, "spider"))
        sc = res.get((site, "scrapy"))
        if not ours or not ours.get("pps"):
            continue

        def ratio(a, b, key, target=None, above=True):
            if not b or not b.get(key) or a.get(key) is None:
                return "–"
            x = a[key] / b[key]
            shown = f"{x:.3f}" if x < 10 else f"{x:.1f}"
            if target is None:
                return f"{shown}×"
            ok = x >= target if above else x <= target
            return f"{shown}× {'met' if ok else 'MISSED'}"

        w(f"| {site} | {ratio(ours, sp, 'pps', TARGETS['spider_pps'])} | "
          f"{ratio(ours, sc, 'pps', TARGETS['scrapy_pps'])} | {ratio(ours, sp, 'cpk')} | "
          f"{ratio(ours, sp, 'rss_mb', TARGETS['spider_rss'], above=False)} |")

    if any(t == "drop" for _, t in res):
        w("")
        w("Drop mode (duplicates' links not followed) vs follow-links:")
        w("")
        w("| site | run | pages fetched | kept | wall s | all templates seen at | "
          "requests until then |")
        w("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
        labeller = None
        for site in meta["sites"].split():
            if site == "python":
                labeller = Labeller(meta["python_root"])
            for tool in TOOLS:
                r = res.get((site, tool))
                if not r:
                    continue
                at, n = "–", "–"
                if site == "python" and labeller and labeller.ok:
                    t, i, seen, total = labeller.all_seen_at(r["rows"], r["t0"])
                    if t is None:
                        at = f"never ({seen}/{total} templates)"
                    else:
                        at = f"{t:.2f} s ({total} templates)"
                        n = f"{i:,}"
                elif site == "python":
                    at = "n/a (no ../shared/eval-dev/sites.py)"
                w(f"| {site} | {TOOL_NAMES[tool]} | {fmt(r['pages'])} | {fmt(r['kept'])} | "
                  f"{fmt(r['wall'])} | {at} | {n} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
