#!/usr/bin/env python3
"""switchg: does the lineage's late network help after the default's opening,
over many games? Network 34's 40 `games` (games34.json: `hatetris games --json`,
noisy 20-piece openings, seed 0, plain width 10,000) each searched on from
piece P by network 34 and by network NEW, from the same well, plain width
10,000, one thread: both arms restart, so the pair differs only in the
network. Games over before P are left out. Appends to results.tsv here:
P, game, arm, lines, pieces, frozen_per_100.
  usage: BIN=... N34=net34.hnet NEW=net38.hnet NEWNAME=38 run.py P [P...]"""
import json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ["BIN"]
arms = [("34", os.environ["N34"]), (os.environ.get("NEWNAME", "new"), os.environ["NEW"])]
games = json.load(open(os.path.join(HERE, "games34.json")))["evals"][0]["games"]
out = os.path.join(HERE, "results.tsv")
done = set()
if os.path.exists(out):
    done = {tuple(l.split("\t")[:3]) for l in open(out)}
with tempfile.TemporaryDirectory() as t:
    for p in sys.argv[1:]:
        for i, g in enumerate(games):
            if g["pieces"] <= int(p):
                continue
            src = os.path.join(t, "g.b2048")
            open(src, "w").write(g["replay"])
            for name, net in arms:
                if (p, str(i), name) in done:
                    continue
                r = json.loads(subprocess.run(
                    ["nice", "-n", "10", BIN, "search", "--from", src, "--at", p, "--width", "10000",
                     "--eval", "net=" + net, "--quiescence", "0", "--threads", "1", "--quiet", "--json"],
                    check=True, capture_output=True, text=True).stdout)
                rp = os.path.join(t, "r.b2048")
                open(rp, "w").write(r["replay"])
                v = json.loads(subprocess.run([BIN, "verify", rp], check=True, capture_output=True, text=True).stdout)
                assert v["score"] == r["score"]
                with open(out, "a") as f:
                    f.write(f"{p}\t{i}\t{name}\t{v['score']}\t{v['pieces']}\t{v['frozen_per_100']:.3f}\n")
