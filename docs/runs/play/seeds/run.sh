#!/usr/bin/env bash
# `play`'s one game is one draw: the same setting over several tie-break
# seeds (issue #45's bar: at least 100 lines in at most two minutes).
# One thread (RAYON_NUM_THREADS=1) beside a generation run, so the CPU
# seconds are the measure (two cores take a little over half of them in
# wall time); lines from the engine's replay of the written replay.
#   usage: run.sh NET SEEDS [play flags...]   NET: g20, g24, g25 (gen-b's
#   generations' networks) or d4 (the embedded default); appends to
#   results.tsv: net, seed, lines, CPU s, wall s, peak KB, flags
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../gen-b/net.sh"
study_setup  # B, the binary; T, a scratch folder
net=$1 seeds=$2; shift 2
case $net in
  d4) eval="net=$D4" ;;
  g*) packed_net "${net#g}" "$T/net.hnet"; eval="net=$T/net.hnet" ;;
esac
for s in $seeds; do
  RAYON_NUM_THREADS=1 /usr/bin/time -f '%U %S %e %M' -o "$T/time" "$B" play --quiet --eval "$eval" --seed "$s" "$@" > "$T/out.txt"
  lines=$(tail -n 1 "$T/out.txt" | "$B" verify - | python3 -c "import json,sys; print(json.load(sys.stdin)['score'])")
  read -r u sy e m < "$T/time"
  printf '%s\t%s\t%s\t%.1f\t%s\t%s\t%s\n' "$net" "$s" "$lines" "$(echo "$u + $sy" | bc)" "$e" "$m" "$*" | tee -a "$HERE/results.tsv"
done
