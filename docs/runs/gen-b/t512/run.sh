#!/usr/bin/env bash
# The record engine's refine (a 512-wide lookahead) against gen-b's (50
# wide), each at step 0.5 (gen-b's: half way from the network's value to
# the lookahead's) and 1 (the record engine's: the lookahead's value), on
# the same wells: every 16th of gen-b generation 23's sampled wells (from the
# FIRST-th), refined by the network that searched them (generation 22's); a
# network trained from that one on each target set, each played on the
# three suites (283 starts, width 1,000, one thread).
# Usage: run.sh TAG FIRST [WORK]   (results in TAG/ beside this script;
# WORK: /work/exp/t512-TAG; RUN: gen-b's run folder; ARMS: which arms)
set -euo pipefail
TAG=$1 FIRST=$2
W=${3:-/work/exp/t512-$TAG}
R=${RUN:-/work/runs/gen-b/r20}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
ROOT=$HERE/../../../..
OUT=$HERE/$TAG
B=${BIN:-$ROOT/target/release/hatetris}
DIAG=${DIAG:-$ROOT/target/release/examples/diagnose}
NET=$R/cycle-003/net.hnet   # generation 22's
ARMS=${ARMS:-w50-s0.5 w50-s1.0 w512-s0.5 w512-s1.0}
mkdir -p "$W/cycle-015" "$OUT"
[ -f "$W/samples.htds" ] || { python3 "$HERE/../../refine-width/subsample.py" 16 "$R/cycle-004" "$W" "$FIRST"
  mv "$W/cycle-015/samples.htds" "$W/samples.htds"; }
rmdir "$W/cycle-015" 2>/dev/null || true
export RAYON_NUM_THREADS=1
for width in 50 512; do
  [ -f "$W/y$width.htds" ] || /usr/bin/time -f "pairs $width %U %e" -a -o "$OUT/times.tsv" \
    "$DIAG" pairs "net=$NET" "$W/samples.htds" "$W/x.htds" "$W/y$width.htds.part" "$width" 10 0
  [ -f "$W/y$width.htds" ] || mv "$W/y$width.htds.part" "$W/y$width.htds"
done
python3 "$HERE/targets.py" "$W" | tee "$OUT/targets.txt"
for arm in $ARMS; do
  [ -f "$W/net-$arm.hnet" ] || fit_as_cycle "$NET" "$W/$arm.htds" "$W/net-$arm.hnet" > "$OUT/train-$arm.txt" 2>&1
  [ -f "$OUT/$arm-dense2.json" ] || EVAL=net=$W/net-$arm.hnet BIN=$B bash "$ROOT/docs/runs/chains/screen.sh" "$OUT" "$arm" 1000 --threads 1
done
S=$HERE/../suites
pooled() { "$B" compare "$1-default.json" "$2-default.json" "$1-other.json" "$2-other.json" "$1-dense2.json" "$2-dense2.json"; }
for arm in $ARMS; do
  [ "$arm" = w50-s0.5 ] || { echo "== $arm against w50-s0.5 (gen-b's targets)"; pooled "$OUT/$arm" "$OUT/w50-s0.5"; }
  echo "== $arm against generation 22's network (its start)"; pooled "$OUT/$arm" "$S/g022"
done
