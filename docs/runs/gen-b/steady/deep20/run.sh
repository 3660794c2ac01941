#!/usr/bin/env bash
# deep20: generation 39's refine and learn again with the lookahead 256
# wide and 20 pieces deep instead of 512 x 10 (the same cost a well:
# 120 s of one thread refined 4,864 wells in each arm, twice, A B A B,
# but 5,120 for 256 x 20 the second time; session 74, the lineage
# beside), on the same 254,758 wells of master-420 (r36's cycle-004), from
# network 38 (r36's cycle-003): does a longer horizon teach the network
# what buries the well? A scratch run whose cycle 1 is that step (its
# search marked done), resumable: the same command goes on after a kill.
# Then measure.sh (against network 39; the result is docs/experiments.md's
# row deep20).
#   usage: [R=/work/runs/gen-b/r36] [OUT=/work/exp/deep20] run.sh
set -euo pipefail
R=${R:-/work/runs/gen-b/r36}
OUT=${OUT:-/work/exp/deep20}
B=${HATETRIS:-/work/runs/gen-b/hatetris-a99442b}
run=$OUT/run
if [ ! -f "$run/config.json" ]; then
  mkdir -p "$run/cycle-001"
  python3 - "$R/config.json" "$run/config.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["refine"]["width"], c["refine"]["depth"], c["master_from_end"] = 256, 20, 0
json.dump(c, open(sys.argv[2], "w"), indent=2)
PY
  cp "$R/cycle-004/samples.htds" "$R/cycle-004/search.json" "$run/cycle-001/"
  cp "$R/cycle-003/net.hnet" "$run/net-000.hnet"
fi
setsid nohup bash -c 'echo 19 > /proc/self/autogroup; exec nice -n 19 "$0" cycle --dir "$1" --cycles 1 --threads 1' \
  "$B" "$run" >> "$OUT/log.txt" 2>&1 < /dev/null &
echo "deep20: $run goes on (log $OUT/log.txt)"
