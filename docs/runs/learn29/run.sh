#!/usr/bin/env bash
# Is network 29's lead in `games` a lottery of its learn step, is gen-b's
# plateau one of capacity, and would more history help? Generation 29's
# learn step again, from network 28 on generation 29's refined wells
# (gen-b's run r25, cycle 5), as `cycle` ran it (patience 3, up to 100
# epochs), with
#   h48-s0: the cycle's own seed (must give network 29 byte for byte),
#   h48-s1, h48-s2: two other seeds (the step's own spread),
#   h96-s0..s2: widened to 96 hidden units (the new units start with zero
#     output weights), the same three seeds,
#   hist2, hist3: the cycle's seed, with generation 28's wells added, and
#     27's too (knewjade's three cycles; gen-b trains on one);
# then each network in `games` as gen-b/games.sh plays them (40 noisy
# openings, seed 0, plain width 10,000, one thread) into games/.
# Networks go to NETS (not kept in the tree: rebuilt by this script).
#   usage: run.sh [RUN] [NETS]
set -euo pipefail
R=${1:-/work/runs/gen-b/r25}
N=${2:-/work/exp/cap}
HERE=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$HERE/../../.." && pwd)
B=${HATETRIS:-$root/target/release/hatetris}
mkdir -p "$N" "$HERE/games"
s0=$((63706458537 + 5 * 0x9E3779B9))  # config.json's seed, cycle 5 (Config::cycle_seed)
arm() {  # NAME HIDDEN SEED FIRST-CYCLE: fit on cycles FIRST..5, then play
  local name=$1 data=() c
  for c in $(seq "$4" 5); do data+=("$R/cycle-00$c/refined.htds"); done
  if [ ! -s "$N/$name.hnet" ]; then
    nice -n 10 "$B" train --init "$R/cycle-004/net.hnet" --data "${data[@]}" \
      --hidden "$2" --seed "$3" --max-epochs 100 --patience 3 --threads 1 --quiet \
      --out "$N/$name.part.hnet" --plot "$N/$name.png" > "$N/$name.epochs.jsonl"
    mv "$N/$name.part.hnet" "$N/$name.hnet"
  fi
  if [ "$name" = h48-s0 ]; then
    cmp "$N/$name.hnet" "$R/cycle-005/net.hnet" && echo "h48-s0 is network 29" \
      || { echo "h48-s0 differs from network 29: the step is not reproduced" >&2; exit 1; }
    return 0  # its games: gen-b/games/games-g029.json
  fi
  [ -s "$HERE/games/games-$name.json" ] || (cd "$root" && EVAL="net=$N/$name.hnet" BIN=$B nice -n 10 \
    docs/runs/chains/games.sh "$HERE/games" "$name" 10000 --quiescence 0)
}
for h in 48 96; do
  for k in 0 1 2; do arm "h$h-s$k" "$h" $((s0 + k)) 5; done
done
arm hist2 48 "$s0" 4
arm hist3 48 "$s0" 3
