#!/usr/bin/env python3
"""subset.py IN OUT RULE: a data set of IN's records that RULE keeps.
RULE `head:F` keeps the first share F of the records (the sampler writes a
master game's wells depth by depth, so these are its first depths);
`alive` drops the records whose target is below -0.99 (the lookahead
died). `stats IN`: mean target and share of dead targets by tenth."""
import sys
import htds

if sys.argv[1] == "stats":
    _, recs = htds.read(sys.argv[2])
    n = len(recs)
    for i in range(10):
        ts = [htds.target(r) for r in recs[i * n // 10:(i + 1) * n // 10]]
        print(f"tenth {i}: mean {sum(ts) / len(ts):+.3f}, dead {sum(t < -0.99 for t in ts) / len(ts):.3f}")
    sys.exit(0)
src, out, rule = sys.argv[1:4]
desc, recs = htds.read(src)
if rule.startswith("head:"):
    keep = recs[: int(len(recs) * float(rule[5:]))]
elif rule == "alive":
    keep = [r for r in recs if htds.target(r) >= -0.99]
else:
    sys.exit(f"subset.py: unknown rule {rule}")
htds.write(out, desc + f" ({rule})".encode(), keep)
print(f"{len(keep)} of {len(recs)} records")
