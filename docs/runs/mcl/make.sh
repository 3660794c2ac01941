#!/bin/bash
# mcl (docs/experiments.md): boot 16 fine-tuned toward the outcomes of its
# own full games. Needs the release binary, the diagnose example and
# /work/runs/sl/sub-V.htds only for the anchored arm (not in the table).
set -euo pipefail
mkdir -p /work/runs/mcl && cd /work/runs/mcl
B=/work/main/target/release/hatetris
D=/work/main/target/release/examples/diagnose
S=/work/main/docs/runs
cp /work/main/crates/eval/nets/default.hnet boot16.hnet
[ -f g240-s1.json ] || $B games --games 240 --width 10000 --seed 1 --json --quiet > g240-s1.json
# the 240 training games, then games's 40 of seed 0 (held out)
python3 -c "
import json
a = json.load(open('g240-s1.json')); b = json.load(open('$S/tall/games-boot16.json'))
a['evals'][0]['games'] += b['evals'][0]['games']
json.dump(a, open('all.json', 'w'))"
$D mcwells all.json mc.htds
$B label --teacher net=boot16.hnet --data mc.htds --out mc-V.htds
for b in 0.5 1.0; do
    python3 $S/mcl/mcl.py make 40 $b T$b.htds
    $B train --init boot16.hnet --data T$b.htds --out M$b.hnet --quiet > M$b.log
    $B games --eval net=M$b.hnet --json --quiet > games-M$b.json
    python3 $S/tall/gcmp.py $S/tall/games-boot16.json games-M$b.json
    # offline: within-depth Spearman on the last 100 games' unseen wells
    python3 $S/mcl/mcl.py make 100 $b h-T$b.htds
    $B train --init boot16.hnet --data h-T$b.htds --out h-M$b.hnet --quiet > h-M$b.log
    $B label --teacher net=h-M$b.hnet --data mc.htds --out l-M$b.htds
    python3 $S/mcl/mcl.py score 100 l-M$b.htds
done
python3 $S/mcl/mcl.py score 100 mc-V.htds
