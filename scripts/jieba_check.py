#!/usr/bin/python3
"""jieba-rs against Python jieba: the same top-20 TF-IDF keyword set on >= 95% of pages.

Usage: jieba_check.py WORKDIR RUST_EXAMPLE [--min 0.95] [--hmm] [--han-only]

1. Cuts the Chinese pages of Debian's debian-reference-zh-cn (/usr/share/debian-reference/
   *.zh-cn.html) into one page per top-level section (a page without sections is one page),
   and writes the plain text of each (html5lib parse, the text of the content division, one
   line per block, script/style left out) to WORKDIR/pages/NNN.txt.
2. Python: jieba.analyse.extract_tags(text, topK=20, withWeight=True) on each text.
   With --han-only, every run of non-Han characters becomes a line break first: the text
   silhouette-text's jieba tokenizer gives jieba-rs (the rest goes to UAX #29).
3. Rust: RUST_EXAMPLE (crates/text/examples/jieba_keywords.rs) on the same files, with HMM
   when --hmm is given (Python's extract_tags always cuts with HMM).
4. Prints the agreement and every page whose sets differ, with the words only one side has,
   their weights, and each side's 20th weight; exits 1 when agreement < --min.
"""
import glob
import os
import re
import subprocess
import sys

import html5lib
import jieba
import jieba.analyse

jieba.setLogLevel(60)

BLOCK = {"address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figure",
         "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol",
         "p", "pre", "section", "table", "tbody", "td", "th", "thead", "tr", "ul"}
SKIP = {"script", "style", "noscript", "template"}
CONTENT = ("chapter", "preface", "appendix", "book", "article")
# silhouette-text's is_han: what its jieba tokenizer hands to jieba-rs.
NOT_HAN = re.compile("[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f\U00030000-\U000323af]+")


def classes(el):
    return (el.get("class") or "").split()


def text_of(el):
    out = []

    def walk(node):
        t = node.tag if isinstance(node.tag, str) else ""
        if t in SKIP:
            return
        if t in BLOCK:
            out.append("\n")
        if node.text:
            out.append(node.text)
        for ch in node:
            walk(ch)
            if ch.tail:
                out.append(ch.tail)
        if t in BLOCK:
            out.append("\n")

    walk(el)
    lines = (" ".join(ln.split()) for ln in "".join(out).split("\n"))
    return "\n".join(ln for ln in lines if ln) + "\n"


def pages():
    for path in sorted(glob.glob("/usr/share/debian-reference/*.zh-cn.html")):
        with open(path, "rb") as f:
            root = html5lib.parse(f.read(), treebuilder="etree", namespaceHTMLElements=False)
        content = next((d for d in root.iter("div") if set(classes(d)) & set(CONTENT)), None)
        if content is None:
            content = root.find("body")
        sections = [d for d in content if d.tag == "div" and "section" in classes(d)]
        name = os.path.basename(path).split(".")[0]
        if not sections:
            yield name, text_of(content)
        for i, s in enumerate(sections):
            yield f"{name}-s{i + 1}", text_of(s)


def main():
    workdir, example = sys.argv[1], sys.argv[2]
    minimum = float(sys.argv[sys.argv.index("--min") + 1]) if "--min" in sys.argv else 0.95
    os.makedirs(os.path.join(workdir, "pages"), exist_ok=True)
    files, names, py = [], {}, {}
    han_only = "--han-only" in sys.argv
    for n, (name, text) in enumerate(pages()):
        if han_only:
            text = NOT_HAN.sub("\n", text)
        fn = os.path.join(workdir, "pages", f"{n:03}.txt")
        with open(fn, "w", encoding="utf-8") as f:
            f.write(text)
        files.append(fn)
        names[os.path.basename(fn)] = name
        py[os.path.basename(fn)] = jieba.analyse.extract_tags(text, topK=20, withWeight=True)
    hmm = ["--hmm"] if "--hmm" in sys.argv else []
    out = subprocess.run([example] + hmm + files, check=True, capture_output=True, text=True).stdout
    rs = {}
    for line in out.splitlines():
        f = line.split("\t")
        rs[f[0]] = [(f[i], float(f[i + 1])) for i in range(1, len(f), 2)]
    same, diffs = 0, []
    for fn in sorted(py):
        a, b = dict(py[fn]), dict(rs.get(fn, []))
        if set(a) == set(b):
            same += 1
            continue
        diffs.append((fn, a, b))
    total = len(py)
    mode = ("Han runs only" if han_only else "whole text") + (", jieba-rs HMM on" if hmm else ", jieba-rs HMM off")
    print(f"jieba-check ({mode}): {same}/{total} pages with the same top-20 keyword set "
          f"({100.0 * same / total:.1f}%), jieba-rs vs Python jieba {jieba.__version__}")
    for fn, a, b in diffs:
        last_py = min(a.values()) if a else 0.0
        last_rs = min(b.values()) if b else 0.0
        only_py = {w: a[w] for w in set(a) - set(b)}
        only_rs = {w: b[w] for w in set(b) - set(a)}
        ties = all(abs(v - last_py) <= 1e-12 * max(1.0, v) for v in only_py.values()) and \
            all(abs(v - last_rs) <= 1e-12 * max(1.0, v) for v in only_rs.values())
        kind = "tie at rank 20" if ties else "other"
        print(f"  {names[fn]} ({fn}): {kind}; only Python {sorted(only_py.items())} "
              f"(its 20th {last_py:.6g}); only jieba-rs {sorted(only_rs.items())} "
              f"(its 20th {last_rs:.6g})")
    if same < minimum * total:
        print(f"jieba-check: FAILED, below {100 * minimum:.0f}%", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
