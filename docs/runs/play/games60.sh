#!/bin/bash
# games60.sh: noisy-opening full games at play's width (60,000), 8 a network,
# for the networks whose single games from the empty well differ most.
set -euo pipefail
B=/work/main/target/release/hatetris
S=/work/main/docs/runs
O=/work/main/docs/runs/play
for pair in gd23=net=$S/dmx/teachers/gd23.hnet d4=net boot16=net=$S/boot/boot16.hnet; do
  n=${pair%%=*}; p=${pair#*=}
  [ -f $O/g60-$n.json ] || { $B games --eval "$p" --games 8 --width 60000 --seed 0 --json --quiet > $O/g60-$n.json.tmp && mv $O/g60-$n.json.tmp $O/g60-$n.json; }
done
