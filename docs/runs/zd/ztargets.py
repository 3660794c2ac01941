# zd and a3 targets: a data set's targets re-scaled within each depth (the
# beam only ever compares wells of one depth).
#   z K: standardised per depth and squashed, tanh(K z)
#   amp K: the deviations from the depth's mean times K, the mean kept,
#          clamped to +-0.99
# Usage: ztargets.py IN OUT z|amp K
import sys, math; sys.path.insert(0, '/work/main/docs/runs/depth'); import htds
rows, t = htds.read(sys.argv[1]); mode, K = sys.argv[3], float(sys.argv[4])
g = htds.depth_groups(rows)
out = [0.0] * len(t); clamped = 0
for b, e in htds.runs(g):
    v = t[b:e]; m = sum(v) / len(v)
    s = max(math.sqrt(sum((x - m) ** 2 for x in v) / len(v)), 1e-3)
    for k in range(b, e):
        if mode == 'z':
            out[k] = math.tanh(K * (t[k] - m) / s)
        else:
            a = m + K * (t[k] - m)
            clamped += abs(a) > 0.99
            out[k] = max(-0.99, min(0.99, a))
print(len(rows), 'wells', g[-1] + 1, 'depth groups', clamped, 'clamped')
htds.write(sys.argv[2], rows, out, ('targets re-scaled per depth: %s %g' % (mode, K)).encode())
