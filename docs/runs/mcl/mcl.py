# mcl (docs/experiments.md): targets from the outcomes of full games.
# mc.htds: every well of every game's line, target = pieces the game still
# lived (diagnose mcwells); mc-V.htds: the same wells valued by the network.
# Usage: mcl.py make HOLD BETA OUT   (targets for all but the last HOLD games)
#        mcl.py score HOLD LABELLED.htds   (within-depth Spearman with the
#        outcome on the last HOLD games, by band of depths)
import sys
sys.path.insert(0, '/work/main/docs/runs/depth')
import htds

def games_of(R):
    """(game, depth) of each well: a game's wells count down to 0."""
    g, out, d = 0, [], 0
    for i, r in enumerate(R):
        out.append((g, d))
        d += 1
        if r == 0:
            g += 1; d = 0
    return out, g

def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]: j += 1
        for k in range(i, j + 1): r[order[k]] = (i + j) / 2
        i = j + 1
    return r

def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    c = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra); vb = sum((y - mb) ** 2 for y in rb)
    return c / (va * vb) ** 0.5 if va > 0 and vb > 0 else float('nan')

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
