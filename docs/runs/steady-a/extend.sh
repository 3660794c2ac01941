#!/usr/bin/env bash
# From late positions of master-381, network 36a (steady-a) against 35, the master's chains, to the game's end.
set -euo pipefail
B=/work/main/target/release/hatetris
G=/work/main/docs/runs/gen-b/master-381.b2048
cd /work/exp/steady-a
for at in ${ATS:-780 860 940}; do
  for n in 36a:run/cycle-001/net.hnet 35:/work/main/docs/runs/gen-b/latest.hnet; do
    tag=${n%%:*}; net=${n#*:}
    $B search --from $G --at $at --width ${W:-20000} --threads 2 --eval net=$net --quiescence 4 --chain-rule record --chain-blend 0.5 --json --quiet --out ext-$tag-$at-w${W:-20000}.b2048 > ext.json
    python3 -c "import json; d=json.load(open('ext.json')); print('$tag', $at, d['score'], d['pieces'], round(d['seconds']))" | tee -a extend.tsv
  done
done
