#!/usr/bin/env python3
"""Paired comparison of strength arms over the pooled starts of the suites.

Usage: pair.py DIR A B  -> mean pieces of each, B - A with a 95% interval,
wins/losses, and the time ratio B/A (from DIR/times.tsv)."""
import json, math, sys, collections

def load(d, arm):
    starts = []
    for s in ("default", "other", "dense2"):
        e = json.load(open(f"{d}/{arm}-{s}.json"))["evals"][0]
        starts += [(s, x["source"], x["piece"], x["pieces"]) for x in e["starts"]]
    return starts

def secs(d, arm):
    """CPU seconds (user + system) where recorded, else wall seconds."""
    t = 0.0
    for line in open(f"{d}/times.tsv"):
        f = line.rstrip("\n").split("\t")
        if f[0] == arm:
            cpu = len(f) >= 7 and f[4].replace(".", "").isdigit()
            t += float(f[4]) + float(f[5]) if cpu else float(f[3])
    return t

d, a, b = sys.argv[1:4]
A, B = load(d, a), load(d, b)
assert [x[:3] for x in A] == [x[:3] for x in B]
diff = [y[3] - x[3] for x, y in zip(A, B)]
n = len(diff)
m = sum(diff) / n
sd = math.sqrt(sum((x - m) ** 2 for x in diff) / (n - 1))
h = 1.96 * sd / math.sqrt(n)
ma = sum(x[3] for x in A) / n
mb = sum(x[3] for x in B) / n
w = sum(1 for x in diff if x > 0); l = sum(1 for x in diff if x < 0)
ta, tb = secs(d, a), secs(d, b)
print(f"{b} vs {a}: {mb:.1f} vs {ma:.1f} pieces over {n} starts, {m:+.2f} [{m-h:+.2f}, {m+h:+.2f}] ({w} wins, {l} losses); time {tb:.0f} s vs {ta:.0f} s, ratio {tb/ta:.2f}")
