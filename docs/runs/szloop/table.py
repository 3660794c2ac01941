#!/usr/bin/env python3
"""The two lineages side by side, a row per cycle, from their metrics.jsonl.
usage: table.py DIR  (DIR holds sz/ and record/, each a run's metrics.jsonl)"""
import json, os, sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
arms = {}
for arm in ("sz", "record"):
    path = os.path.join(root, arm, "metrics.jsonl")
    arms[arm] = [json.loads(l) for l in open(path)] if os.path.exists(path) else []
n = max(len(v) for v in arms.values())
print("| cycle | S/Z: lines, pieces | suite | search s | record: lines, pieces | suite | search s |")
print("|---|---|---|---|---|---|---|")
for i in range(n):
    cells = [str(i + 1)]
    for arm in ("sz", "record"):
        if i < len(arms[arm]):
            m = arms[arm][i]
            cells += [f"{m['lines']}, {m['pieces']}", f"{m['suite_pieces']:.1f}", f"{m['search_secs']:.0f}"]
        else:
            cells += ["", "", ""]
    print("| " + " | ".join(cells) + " |")
for arm, ms in arms.items():
    if ms:
        lines = [m["lines"] for m in ms]
        half = lines[len(lines) // 2:]
        print(f"\n{arm}: {len(ms)} cycles, lines mean {sum(lines) / len(lines):.1f}, "
              f"second half mean {sum(half) / len(half):.1f}, best {max(lines)}; "
              f"core-hours {sum(m['wall_secs'] for m in ms) / 3600:.2f}")
