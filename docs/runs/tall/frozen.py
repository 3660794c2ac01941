# frozen.py REPLAY...: how fast a game buries its well. For each replay,
# `hatetris verify --trace` gives the well after every lock; frozen(t) is
# the number of bottom rows that stay exactly as they are from lock t to
# lock t + 50 (a row clear above them does not move them). A game that
# lives keeps its well open to the floor; one that dies freezes rows until
# too few are left to play in. Prints pieces, lines, frozen(t) every 25
# locks and the least-squares slope in rows per 100 pieces.
import json, subprocess, sys

B = '/work/main/target/release/hatetris'
HOLD = 50

def trace(path):
    out = subprocess.run([B, 'verify', '--trace', path], capture_output=True, text=True, check=True).stdout
    rows = [json.loads(l) for l in out.splitlines()][1:]
    return [r['well'] for r in rows], rows[-1]['score']

def frozen(wells, t):
    n = len(wells[t])
    k = 0
    while k < n and all(wells[s][n - 1 - k] == wells[t][n - 1 - k] for s in range(t, min(len(wells), t + HOLD))):
        k += 1
    return k

for path in sys.argv[1:]:
    wells, lines = trace(path)
    ts = list(range(0, len(wells) - HOLD, 25))
    ks = [frozen(wells, t) for t in ts]
    xs = list(range(0, len(wells) - HOLD))
    ys = [frozen(wells, t) for t in xs]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / max(1e-9, sum((x - mx) ** 2 for x in xs))
    print(f'{path}: {len(wells)} pieces, {lines} lines, frozen every 25: {ks}, {100 * slope:.2f} rows/100 pieces')
