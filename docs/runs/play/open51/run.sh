#!/usr/bin/env bash
# open51: a learn step that also sees `play`'s kind of game, valued by the
# network that learns (open38's own conclusion: opening wells must be the
# current network's, not an old generation's). Generation 51's step
# (network 50 on r50's cycle-002/refined.htds, the tail of master-691)
# fitted twice as the cycle fits (fit_as_cycle, fit seed 0):
#   A: on the tail wells alone;
#   B: on them and the wells of four narrow games network 50 plays from
#      the empty well as `play` does (width 10,000, record chains depth 4,
#      blend 0.5; `sample --openings 3`, seed 51), every 16th of their
#      sampled wells refined as the cycle refines (512 wide, 10 deep).
# Then both in `games` at `play`'s chains (40 noisy openings, seed 0, one
# thread each) and on the steady suite. RUN: gen-b's r50 run folder;
# T: a scratch folder (default /work/exp/open51).
#   usage: [RUN=...] [T=...] run.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../gen-b/net.sh"
B=${BIN:-$ROOT/target/release/hatetris}
RUN=${RUN:-/work/runs/gen-b/r50}
T=${T:-/work/exp/open51}
mkdir -p "$T/run/cycle-001"
cd "$T"
FROM=49 generation_net 50 "$RUN"  # NET: r50's cycle 1 network
cp "$NET" net50.hnet
cp net50.hnet run/net-000.hnet
[ -s run/cycle-001/samples.htds ] || "$B" sample --eval net=net50.hnet --width 10000 --samples 2048 --seed 51 \
  --quiescence 4 --chain-rule record --chain-band 0 --chain-blend 0.5 --openings 3 --threads 1 \
  --out run/cycle-001/samples.htds > sample.json
# The refine reads the run's config (r50's, every 16th well refined) and
# a search record saying every sampled well was kept.
python3 - "$RUN" <<'P'
import json, sys
c = json.load(open(sys.argv[1] + '/config.json'))
c['refine']['every'] = 16
c['sample_only_refined'] = False
json.dump(c, open('run/config.json', 'w'), indent=2)
s = json.load(open(sys.argv[1] + '/cycle-002/search.json'))
s['sampled_every'] = 1
json.dump(s, open('run/cycle-001/search.json', 'w'))
P
[ -s openB.htds ] || "$B" refine --run run --cycle 1 --out openB.htds --threads 2 --quiet
fit_as_cycle net50.hnet "$RUN/cycle-002/refined.htds" netA.hnet > fitA.jsonl
fit_as_cycle net50.hnet "$RUN/cycle-002/refined.htds" netB.hnet openB.htds > fitB.jsonl
for arm in A B; do
  (cd "$ROOT" && EVAL=net=$T/net$arm.hnet BIN=$B docs/runs/chains/games.sh "$HERE" "$arm" 10000 \
    --quiescence 4 --chain-blend 0.5 --seed 0) &
done
wait
for arm in A B; do
  suite_net steady "net=$T/net$arm.hnet" "$HERE/steady-$arm.json"
done
