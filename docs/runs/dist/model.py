#!/usr/bin/env python3
"""The speed-up model of docs/distributed.md, from the width-1,000,000
measurement on 2 loopback processes (costs-1m.p0/.p1 of measure.sh).

Per depth at width W: C core-seconds of expansion and pre-cut (parallel),
S seconds every process repeats (tree append, merges, the owner's
selection), and the bytes each process sends (full-duplex links, so as
many received): children 84 W (P-1)/P, and kept lists 44 W (1 + 1/16)
(P-1)/P with the sampled cut (each owner sends the part of its list within
the bound, about W/P x 17/16, to every other), or 44 W (P-1) with the
all-gather of whole kept lists it replaced. Machines of c cores, no
overlap of transfer and work: T(P) = C/(cP) + S + bytes/bandwidth."""
import json, sys

def load(path):
    rows = [json.loads(l) for l in open(path)]
    return [r for r in rows if r["beam"] >= 1_000_000]

d = sys.argv[1] if len(sys.argv) > 1 else "costs"
p0, p1 = load(f"{d}/costs-1m.p0"), load(f"{d}/costs-1m.p1")
mean = lambda rows, k: sum(r[k] for r in rows) / len(rows)
C = mean(p0, "expand_seconds") + mean(p1, "expand_seconds")
S = mean(p0, "seconds") - mean(p0, "expand_seconds") - mean(p0, "exchange_seconds")
W, c = 1_000_000, 8
print(f"C = {C:.1f} core-seconds, S = {S:.2f} s, one machine T(1) = {C / c + S:.2f} s")
t1 = C / c + S
print("| machines | sampled cut, 1 Gb/s | sampled cut, 10 Gb/s | whole lists, 1 Gb/s | whole lists, 10 Gb/s |")
print("|---|---|---|---|---|")
for P in [4, 8, 16, 32, 64]:
    cut = 84 * W * (P - 1) / P + 44 * W * (17 / 16) * (P - 1) / P
    whole = 84 * W * (P - 1) / P + 44 * W * (P - 1)
    cells = []
    for b in [cut, whole]:
        for gbps in [1, 10]:
            t = C / (c * P) + S + b * 8 / (gbps * 1e9)
            cells.append(f"{t:.2f} s, {t1 / t:.1f}x")
    print(f"| {P} | " + " | ".join(cells) + " |")
