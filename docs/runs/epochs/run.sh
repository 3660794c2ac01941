#!/usr/bin/env bash
# How much should a generation's learn step train? gen-b trains each
# network from the last on the refined wells with early stopping (patience
# 3 on a tenth held out: 7 to 13 epochs of batch 8,192); the record engine
# passes over its million wells once (256 steps of 4,096). From one
# generation's refined wells and the network that refined them, one
# network a setting, all from the same seed, measured on the three suites
# (283 starts, width 1,000, one thread) and compared start by start with
# the early-stopped one (arm `stop`).
# Usage: run.sh RUN CYCLE [WORK]   (RUN: a cycle's run folder; WORK: /tmp/epochs)
set -euo pipefail
R=$1 C=$2 W=${3:-/tmp/epochs}
HERE=$(cd "$(dirname "$0")" && pwd)
B=${BIN:-$HERE/../../../target/release/hatetris}
D=$(printf '%s/cycle-%03d' "$R" "$C")
INIT=$([ "$C" -gt 1 ] && printf '%s/cycle-%03d/net.hnet' "$R" $((C - 1)) || echo "$R/net-000.hnet")
mkdir -p "$W"
# arm: max epochs, batch
declare -A EPOCHS=([stop]=100 [e1]=1 [e2]=2 [e1b4k]=1)
declare -A BATCH=([stop]=8192 [e1]=8192 [e2]=8192 [e1b4k]=4096)
for arm in ${ARMS:-stop e1 e2 e1b4k}; do
  [ -f "$W/net-$arm.hnet" ] || /usr/bin/time -f '%U %e' -o "$HERE/train-$arm.time" nice -n 10 "$B" train \
      --data "$D/refined.htds" --init "$INIT" --out "$W/net-$arm.hnet" --hidden 48 --seed 0 \
      --batch "${BATCH[$arm]}" --lr 0.001 --max-epochs "${EPOCHS[$arm]}" --patience 3 --validation 0.1 --loss mse \
      --threads 1 --plot "$W/train-$arm.png" > "$HERE/train-$arm.txt" 2>&1
  [ -f "$HERE/$arm-dense2.json" ] || (cd "$HERE/../../.." && EVAL=net=$W/net-$arm.hnet BIN=$B nice -n 10 \
      docs/runs/chains/screen.sh "$HERE" "$arm" 1000 --threads 1)
done
# The network the arms started from, as it is.
[ -f "$HERE/init-dense2.json" ] || (cd "$HERE/../../.." && EVAL=net=$INIT BIN=$B nice -n 10 \
    docs/runs/chains/screen.sh "$HERE" init 1000 --threads 1)
# 40 noisy-opening games at plain width 10,000 (`../gen-b/games.sh`'s), for two arms.
for arm in ${GAMES:-e1 stop}; do
  [ -f "$HERE/games-$arm.json" ] || (cd "$HERE/../../.." && EVAL=net=$W/net-$arm.hnet BIN=$B nice -n 10 \
      docs/runs/chains/games.sh "$HERE" "$arm" 10000 --quiescence 0)
done
# compare A B: arm A against arm B, start by start over the three suites.
compare() {
  "$B" compare "$HERE/$1-default.json" "$HERE/$2-default.json" "$HERE/$1-other.json" "$HERE/$2-other.json" \
    "$HERE/$1-dense2.json" "$HERE/$2-dense2.json"
}
for arm in ${ARMS:-e1 e2 e1b4k}; do
  [ "$arm" = stop ] && continue
  compare "$arm" stop > "$HERE/compare-$arm.txt"
  echo "$arm against stop:"; cat "$HERE/compare-$arm.txt"
done
for arm in e1 stop; do
  compare "$arm" init > "$HERE/compare-$arm-init.txt"
done
