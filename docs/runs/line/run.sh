#!/bin/bash
# line-10k (docs/experiments.md): knewjade's loop at width 10,000 from the
# embedded default (ens-a), many cycles, its own game's lines per cycle
# being the measure (the cycle's search is a full game at width 10,000,
# seed 0, as `hatetris search --width 10000` would play with that cycle's
# network). Resumable: run it again to continue. Usage: run.sh WORKDIR [CYCLES]
set -euo pipefail
ROOT=$(pwd); B=${HATETRIS:-$ROOT/target/release/hatetris}
mkdir -p "$1" && cd "$1"
cp -n $ROOT/crates/eval/nets/default.hnet ens-a.hnet
$B cycle --dir l10k --init ens-a.hnet --cycles ${2:-30} --width 10000 --samples 512 \
    --refine-width 50 --refine-depth 10 --suite-width 0 --seed 0
# Full games of two cycles' networks and of ens-a at five widths (one game
# each; the replays kept here are these games), and the default suite.
cp l10k/cycle-009/net.hnet c9.hnet; cp l10k/cycle-019/net.hnet c19.hnet
for n in ens-a c9 c19; do
    for w in 10000 20000 30000 40000 60000; do
        echo "$n $w $($B search --width $w --eval net=$n.hnet --quiet --out $n-$w.b2048 | head -1)"
    done
    $B strength --eval net=$n.hnet --json --quiet > m-$n.json
done
