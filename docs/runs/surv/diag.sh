#!/bin/bash
# surv-diag (docs/experiments.md): within one depth of ens-c cycle 1's samples
# (2,048 consecutive wells at 30% and 50% of the file; the file runs in depth
# order), how well do ens-b's value x and a narrow rollout's survival predict
# the pieces a width-1,000 search survives from each well (every 4th well)?
# Needs /work/runs/ensc/c (docs/runs/ens-c); htds.py is docs/runs/depth/htds.py.
set -euo pipefail
mkdir -p /work/runs/surv && cd /work/runs/surv
B=/work/main/target/release/hatetris
D=/work/main/target/release/examples/diagnose
N=/work/main/docs/runs/ens-b/ens-b.hnet
python3 - <<'PY'
import sys; sys.path.insert(0, '/work/main/docs/runs/depth'); import htds
r, t = htds.read('/work/runs/ensc/c/cycle-001/samples.htds'); n = len(r)
for name, f in [('b30', 0.30), ('b50', 0.50)]:
    i = int(f * n)
    htds.write(name + 's.htds', r[i:i + 2048:4], t[i:i + 2048:4], b'block')
PY
for b in b30s b50s; do
  $B label --teacher net=$N --data $b.htds --out $b-x.htds > /dev/null
  # survival targets 1 - 2 * 0.98^T (step 1): T is read back from them
  $D refine net=$N $b.htds $b-T64.htds 64 150 1 1.0 survival > /dev/null 2>&1
  $D refine net=$N $b.htds $b-T128.htds 128 200 1 1.0 survival > /dev/null 2>&1
  $D refine net=$N $b.htds $b-T1000.htds 1000 250 1 1.0 survival > /dev/null 2>&1
done
python3 - <<'PY'
import sys; sys.path.insert(0, '/work/main/docs/runs/depth'); import htds
rank, spearman = htds.rank, htds.spearman
def T(p):
    return htds.survival(p)[1]
for b in ['b30s', 'b50s']:
    rows = htds.read(b + '.htds')[0]
    own = dict(zip(*htds.read(b + '-x.htds'))); x = [own[r] for r in rows]
    t64, t128, t1k = T(b + '-T64.htds'), T(b + '-T128.htds'), T(b + '-T1000.htds')
    avg = [p + q for p, q in zip(rank(x), rank(t128))]
    print(b, 'against T1000: x %.3f  T64 %.3f  T128 %.3f  rank average of x and T128 %.3f'
          % (spearman(x, t1k), spearman(t64, t1k), spearman(t128, t1k), spearman(avg, t1k)))
PY
