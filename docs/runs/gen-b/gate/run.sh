#!/usr/bin/env bash
# Session 47: does the lineage's loss since generation 20 lie in its
# starting networks or in its data? Generation 24's learn step again
# (its wells, refined 512 wide as the cycle refined them; the cycle's
# training settings) from generation 20's network, the lineage's best in
# `games`, instead of generation 23's. Measured as the generations are:
# the three suites (width 1,000, one thread) against generations 20's and
# 24's, and `games` (40 noisy-opening games, plain width 10,000).
# Arms: g20w24 on the cycle's own targets (generation 23's network made
# them); g20own on targets generation 20's network makes itself on those
# wells (`diagnose pairs`: its value x and its 512-wide, 10-piece
# lookahead y; x + 0.5 (y - x), min-max scaled, as the cycle makes them);
# and g20own's wells halved in order. pairs-time.txt: the lookaheads' CPU
# and wall seconds. Arms already made are read back, not made again.
#   usage: run.sh [RUN]   (RUN: gen-b's run folder from generation 19)
set -euo pipefail
R=${1:-/work/runs/gen-b/r20}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
study_setup
W=${WORK:-/work/exp/gate}
mkdir -p "$W"
# Generation 20 is cycle 1 of the run, generation 24 cycle 5 (FROM=19).
NET=$R/cycle-001/net.hnet   # generation 20's
# fit_and_measure NAME DATA: generation 20's network fitted on DATA with
# the cycle's training settings into W/NAME.hnet, measured on the suites
# against generations 20's and 24's and in `games` (Welch) against theirs.
fit_and_measure() {
  local name=$1 data=$2 g
  [ -f "$W/$name.hnet" ] || NICE=15 fit_as_cycle "$NET" "$data" "$W/$name.hnet" > "$HERE/train-$name.txt" 2>&1
  screen_net "$name" "$W/$name.hnet"
  for g in g020 g024; do
    echo "$name against $g:"; compare_suites "$B" "$HERE/$name" "$HERE/../suites/$g" | tail -3
  done
  [ -f "$HERE/games-$name.json" ] || (cd "$HERE/../../../.." && EVAL=net=$W/$name.hnet BIN=$B nice -n 15 \
    docs/runs/chains/games.sh "$HERE" "$name" 10000 --quiescence 0)
  # welch.py reads both arms (and their CPU times) from one folder.
  cp "$HERE/../games/games-g020.json" "$HERE/../games/games-g024.json" "$HERE/games-$name.json" "$T/"
  cat "$HERE/../games/times.tsv" "$HERE/times.tsv" > "$T/times.tsv"
  for g in g020 g024; do python3 "$HERE/../../chains/welch.py" "$T" "$g" "$name"; done
}
fit_and_measure g20w24 "$R/cycle-005/refined.htds"
DIAG=${DIAG:-$HERE/../../../../target/release/examples/diagnose}
[ -f "$W/y20-512.htds" ] || { RAYON_NUM_THREADS=${THREADS:-2} /usr/bin/time -f "pairs 512 %U %e" -o "$HERE/pairs-time.txt" \
  "$DIAG" pairs "net=$NET" "$R/cycle-005/refined.htds" "$W/x20.htds" "$W/y20-512.htds.part" 512 10 0
  mv "$W/y20-512.htds.part" "$W/y20-512.htds"; }
[ -f "$W/own.htds" ] || python3 - "$W" "$HERE/../../depth" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[2])
import htds
w = sys.argv[1]
rows, x = htds.read(os.path.join(w, "x20.htds"))
r, y = htds.read(os.path.join(w, "y20-512.htds"))
assert r == rows
t = [a + 0.5 * (b - a) for a, b in zip(x, y)]
lo, hi = min(t), max(t)
htds.write(os.path.join(w, "own.htds"), rows, [-1 + 2 * (v - lo) / (hi - lo) for v in t], b"gate own w512-s0.5")
print("%d wells, %.1f%% dead lookaheads" % (len(y), 100 * sum(v <= -1 for v in y) / len(y)))
PY
fit_and_measure g20own "$W/own.htds"
# g20own's wells split in two in their order (the master game's first and
# second half: stacks of 62-75 cells and 79-110), each fitted alone.
[ -f "$W/own-h2.htds" ] || python3 - "$W" "$HERE/../../depth" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[2])
import htds
w = sys.argv[1]
rows, t = htds.read(os.path.join(w, "own.htds"))
n = len(t) // 2
htds.write(os.path.join(w, "own-h1.htds"), rows[:n], t[:n], b"gate own first half")
htds.write(os.path.join(w, "own-h2.htds"), rows[n:], t[n:], b"gate own second half")
PY
fit_and_measure g20own-h1 "$W/own-h1.htds"
fit_and_measure g20own-h2 "$W/own-h2.htds"
