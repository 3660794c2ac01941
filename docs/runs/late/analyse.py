# Late suite (starts from pieces 150, 190, ... of gen-b's master games 14-26)
# per network: mean pieces over all starts and over the starts of games the
# network never saw (games after it); against the master game its network
# played next (generation g+1's game is played by network g).
import json, math, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gen-b'))
import table  # gen-b's records: metrics.jsonl (master games, suites) and games/
metrics = [json.loads(l) for l in open(os.path.join(table.here, 'metrics.jsonl'))]
master = {m['cycle']: m['lines'] for m in metrics}
suite = {m['cycle']: round(m['suite_pieces'], 1) for m in metrics}
games = {g: round(sum(x) / len(x), 1) for g in suite if (x := table.games_lines(g))}
def load(n):
    return json.load(open(f's{n}.json'))['evals'][0]['starts']
rows = []
print('net\tall\tunseen(n)\tlate-half\tsuite\tgames\tnext_master')
for g in range(13, max(suite) + 1):
    try:
        st = load(g)
    except FileNotFoundError:
        continue
    allm = sum(s['pieces'] for s in st) / len(st)
    un = [s['pieces'] for s in st if int(s['source'][1:]) > g + 1]
    lh = [s['pieces'] for s in st if s['piece'] >= 270]
    nm = master.get(g + 1)
    rows.append((g, allm, nm))
    print(f"{g}\t{allm:.1f}\t{(sum(un)/len(un) if un else float('nan')):.1f}({len(un)})\t{sum(lh)/len(lh):.1f}\t{suite[g]}\t{games.get(g, '')}\t{nm}")
try:
    d4 = load('d4'); print(f"d4\t{sum(s['pieces'] for s in d4)/len(d4):.1f}")
except FileNotFoundError:
    pass
def pearson(xs, ys):
    n = len(xs); mx = sum(xs)/n; my = sum(ys)/n
    sxy = sum((x-mx)*(y-my) for x, y in zip(xs, ys)); sx = math.sqrt(sum((x-mx)**2 for x in xs)); sy = math.sqrt(sum((y-my)**2 for y in ys))
    return sxy/(sx*sy)
pairs = [(g, a, m) for g, a, m in rows if m is not None and g in games]
for name, f in (('late suite', lambda g, a: a), ('suite', lambda g, a: suite[g]), ('games', lambda g, a: games[g])):
    xs = [f(g, a) for g, a, m in pairs]; ys = [m for g, a, m in pairs]
    print(f"Pearson with the next master game ({len(xs)} networks): {name} {pearson(xs, ys):+.2f}")
