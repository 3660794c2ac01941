#!/usr/bin/env bash
# Refine targets from a chained lookahead: generation 30's sampled wells
# (RUN's cycle 6, searched by generation 29's network) refined as the cycle
# refines them (512 wide, 10 pieces, step 0.5, scaled), once plain (the
# cycle's own kind) and once with the lookahead chained as the master
# search chains (`cycle --refine-quiescence 4`: record rule, every
# candidate, blend 0.5); on two disjoint subsets, a (every EVERY-th well
# from the first) and b (the same from the EVERY/2-th), as t512 did. Each
# data set fits a network from generation 29's with the cycle's settings
# (net.sh's fit_as_cycle), each network plays the three suites (283
# starts, width 1,000, plain), and the chained arm is compared with the
# plain one on each subset.
#   usage: run.sh [RUN]   (RUN: gen-b's run folder, default /work/runs/gen-b/r25;
#   W: scratch folder, default /work/exp/cref; EVERY: default 64; SUBS: the
#   subsets to run, default "a b" (one process each runs them side by side);
#   BIN: the binary)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
R=${1:-/work/runs/gen-b/r25}
W=${W:-/work/exp/cref}
EVERY=${EVERY:-64}
. "$HERE/../net.sh"
study_setup
NET=$R/cycle-005/net.hnet   # generation 29's, which searched and refined cycle 6
read -ra subs <<< "${SUBS:-a b}"
for sub in "${subs[@]}"; do
  for arm in plain chained; do
    name=$arm-$sub
    run=$W/$name
    if [ ! -f "$W/$name.htds" ]; then
      mkdir -p "$run/cycle-005" "$run/cycle-006"
      cp "$NET" "$run/cycle-005/net.hnet"
      cp "$R/cycle-006/search.json" "$run/cycle-006/"
      shift=0; [ $sub = a ] || shift=$((EVERY / 2))
      python3 "$HERE/../double/shift.py" "$R/cycle-006/samples.htds" "$run/cycle-006/samples.htds" $shift
      q=0; [ $arm = plain ] || q=4
      python3 - "$R/config.json" "$run/config.json" "$EVERY" "$q" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["refine"].update(every=int(sys.argv[3]), quiescence=int(sys.argv[4]), chain_rule=c["chain_rule"], chain_blend=c["chain_blend"])
json.dump(c, open(sys.argv[2], "w"), indent=2)
PY
      s=$(date +%s)
      nice "$B" refine --run "$run" --cycle 6 --out "$W/$name.htds.part" --threads 1 --quiet
      mv "$W/$name.htds.part" "$W/$name.htds"
      printf '%s\trefine\t%s\n' "$name" $(($(date +%s) - s)) >> "$HERE/times.tsv"
    fi
    [ -f "$W/net-$name.hnet" ] || fit_as_cycle "$NET" "$W/$name.htds" "$W/net-$name.hnet" > "$HERE/train-$name.txt" 2>&1
    screen_net "$name" "$W/net-$name.hnet"
  done
  compare_suites "$B" "$HERE/chained-$sub" "$HERE/plain-$sub" | tee "$HERE/compare-$sub.txt"
done
