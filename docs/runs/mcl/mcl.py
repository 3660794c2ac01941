# mcl (docs/experiments.md): targets from the outcomes of full games.
# mc.htds: every well of every game's line, target = pieces the game still
# lived (diagnose mcwells); mc-V.htds: the same wells valued by the network.
# Usage: mcl.py make HOLD BETA OUT   (targets for all but the last HOLD games)
#        mcl.py score HOLD LABELLED.htds   (within-depth Spearman with the
#        outcome on the last HOLD games, by band of depths)
import os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, '..', 'depth'), os.path.join(HERE, '..')]
import htds
from rankstats import ranks, spearman

def games_of(R):
    """(game, depth) of each well: a game's wells count down to 0."""
    g, out, d = 0, [], 0
    for i, r in enumerate(R):
        out.append((g, d))
        d += 1
        if r == 0:
            g += 1; d = 0
    return out, g

rows, R = htds.read('mc.htds')

def values(path):
    # `hatetris label` writes each distinct well once
    r, v = htds.read(path)
    m = dict(zip(r, v))
    return [m[w] for w in rows]

V = values('mc-V.htds')
gd, ngames = games_of(R)
hold = int(sys.argv[2])
train_games = ngames - hold
by_depth = {}
for i, (g, d) in enumerate(gd):
    by_depth.setdefault((g >= train_games, d), []).append(i)

if sys.argv[1] == 'make':
    beta = float(sys.argv[3])
    T = list(V)
    for (held, d), idx in by_depth.items():
        if held or len(idx) < 3: continue
        vs = sorted(V[i] for i in idx)
        rr = ranks([R[i] for i in idx])
        # the depth's own values, handed out in the order of the outcomes
        for i, r in zip(idx, rr):
            lo, hi = int(r), min(int(r) + 1, len(vs) - 1)
            t = vs[lo] + (r - lo) * (vs[hi] - vs[lo])
            T[i] = (1 - beta) * V[i] + beta * t
    keep = [i for i, (g, d) in enumerate(gd) if g < train_games]
    htds.write(sys.argv[4], [rows[i] for i in keep], [T[i] for i in keep], b'mcl targets')
    print(len(keep), 'wells of', train_games, 'games')
else:
    L = values(sys.argv[3])
    seen = set(rows[i] for i, (g, d) in enumerate(gd) if g < train_games)
    bands = [(0, 20), (20, 35), (35, 50), (50, 75), (75, 100), (100, 150), (150, 400)]
    out = []
    for lo, hi in bands:
        ss = []
        for (held, d), idx in by_depth.items():
            if held and lo <= d < hi:
                # one of each distinct well that training never saw
                idx = list({rows[i]: i for i in idx if rows[i] not in seen}.values())
                if len(idx) < 5: continue
                ss.append(spearman([L[i] for i in idx], [R[i] for i in idx]))
        out.append('%d-%d %.3f' % (lo, hi, sum(ss) / len(ss)) if ss else '%d-%d -' % (lo, hi))
    print(sys.argv[3], ' | '.join(out))
