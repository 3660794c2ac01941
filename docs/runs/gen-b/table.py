#!/usr/bin/env python3
"""The generations table of README.md from metrics.jsonl (beside this script)."""
import json, os
here = os.path.dirname(os.path.abspath(__file__))
total = 0.0
for line in open(os.path.join(here, "metrics.jsonl")):
    m = json.loads(line)
    retry = f" (retry with the network before: {m['retry_lines']})" if m.get("retry_lines") is not None else ""
    width = m.get("width") or 100000  # generations before widths were recorded searched at 100k
    q, band = m.get("chains") or (4, 3)  # and chained 4 deep, band 3
    # Generations 1-9 ran on one thread, from 10 on both cores (README.md).
    cores = 1 if m["cycle"] <= 9 else 2
    # A resumed cycle's wall time counts from the resume; its search time
    # counts from the first piece (the saves carry it).
    total += max(m["wall_secs"], m["search_secs"] + m["refine_secs"]) * cores / 3600
    print(f"| {m['cycle']} | {width:,}, band {band} | {m['lines']}, {m['pieces']}{retry} | {m['search_secs']:.0f} | "
          f"{m['refine_secs']:.0f} | {total:.1f} | {m['suite_pieces']:.1f}, {m['suite_lines']:.1f} |")
