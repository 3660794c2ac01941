# mc.py FILE.jsonl: across the games of `diagnose mc`, Spearman's
# correlation of the pieces a game lived with its line's value, cells and
# frozen rows at pieces 25, 50, 75 and 100 (games that reached them).
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from rankstats import ranks as rank, pearson
games = [json.loads(l) for l in open(sys.argv[1])]
p = [g['pieces'] for g in games]
print(f"{len(games)} games: pieces {min(p)}-{max(p)}, mean {sum(p)/len(p):.1f}; lines mean {sum(g['lines'] for g in games)/len(games):.1f}")
for d in (25, 50, 75, 100):
    rows = [(g['pieces'], a) for g in games for a in g['at'] if a['piece'] == d]
    if len(rows) < 5: continue
    life = [r[0] - d for r in rows]
    out = [f"piece {d}: n {len(rows)}"]
    for k in ('value', 'cells', 'frozen'):
        xs = [(l, r[1][k]) for l, r in zip(life, rows) if r[1][k] is not None]
        if len(xs) >= 5:
            out.append(f"{k} {pearson(rank([x[1] for x in xs]), rank([x[0] for x in xs])):+.2f} (n {len(xs)})")
    print(', '.join(out))
