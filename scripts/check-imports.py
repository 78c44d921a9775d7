#!/usr/bin/env python3
"""No import circle among the binary's files (crates/cli): each file's `crate::`, `super::`
and `use crate::{…}` references to another file of the binary make an edge; test modules are
left out. Prints the circles found and exits 1 if there is one."""
import glob
import re
import sys

ROOT = "crates/cli"


def module(path):
    name = path[len(ROOT) + 1:-3]
    if name.endswith("/mod"):
        name = name[:-4]
    return "" if name == "main" else name.replace("/", "::")


def main():
    mods = {module(p): p for p in glob.glob(ROOT + "/**/*.rs", recursive=True)}
    edges = {m: set() for m in mods}
    for m, path in mods.items():
        text = re.sub(r"#\[cfg\(test\)\]\s*mod tests.*", "", open(path).read(), flags=re.S)
        parent = m.rsplit("::", 1)[0] + "::" if "::" in m else ""
        refs = re.findall(r"crate::([a-z_]+(?:::[a-z_]+)*)", text)
        refs += [parent + r for r in re.findall(r"super::([a-z_]+(?:::[a-z_]+)*)", text)]
        for group in re.findall(r"use crate::\{([^}]*)\}", text):
            refs += [x.strip() for x in group.split(",")]
        for ref in refs:
            parts = ref.split("::")
            for i in range(len(parts), 0, -1):
                target = "::".join(parts[:i])
                if target in mods:
                    if target != m:
                        edges[m].add(target)
                    break
    circles, state = [], {}

    def visit(u, stack):
        state[u] = 1
        stack.append(u)
        for v in sorted(edges[u]):
            if state.get(v) == 1:
                circles.append(stack[stack.index(v):] + [v])
            elif v not in state:
                visit(v, stack)
        stack.pop()
        state[u] = 2

    for m in sorted(mods):
        if m not in state:
            visit(m, [])
    for c in circles:
        print("import circle: " + " -> ".join(x or "main" for x in c))
    print(f"{len(mods)} files, {sum(map(len, edges.values()))} imports, {len(circles)} circles")
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main())
