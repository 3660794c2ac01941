#!/usr/bin/env bash
# Generation 29's learn step with more history: network 28 fitted to
# generation 29's refined wells together with generation 28's (hist2) and
# generation 27's too (hist3), knewjade's three cycles; gen-b trains on one
# (history 1). The cycle's own seed and fit settings, hidden 48 (as
# run.sh's h48-s0, which is network 29); then `games` as run.sh plays them.
#   usage: history.sh [RUN] [NETS]
set -euo pipefail
R=${1:-/work/runs/gen-b/r25}
N=${2:-/work/exp/cap}
HERE=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$HERE/../../.." && pwd)
B=${HATETRIS:-$root/target/release/hatetris}
mkdir -p "$N" "$HERE/games"
s0=$((63706458537 + 5 * 0x9E3779B9))  # config.json's seed, cycle 5 (Config::cycle_seed)
for k in 2 3; do
  name=hist$k
  data=()
  for c in $(seq $((6 - k)) 5); do data+=("$R/cycle-00$c/refined.htds"); done
  if [ ! -s "$N/$name.hnet" ]; then
    nice -n 10 "$B" train --init "$R/cycle-004/net.hnet" --data "${data[@]}" \
      --seed $s0 --max-epochs 100 --patience 3 --threads 1 --quiet \
      --out "$N/$name.part.hnet" --plot "$N/$name.png" > "$N/$name.epochs.jsonl"
    mv "$N/$name.part.hnet" "$N/$name.hnet"
  fi
  [ -s "$HERE/games/games-$name.json" ] || (cd "$root" && EVAL="net=$N/$name.hnet" BIN=$B nice -n 10 \
    docs/runs/chains/games.sh "$HERE/games" "$name" 10000 --quiescence 0)
done
