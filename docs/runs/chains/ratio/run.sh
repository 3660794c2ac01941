#!/usr/bin/env bash
# Item 3 of issue #86: a chained master-search depth against a plain one,
# side by side in one run. From piece 600 of master-381 (gen-b generation
# 36's master game), network 35 (the lineage's latest.hnet), width
# 200,000, two threads: each arm searches 4 depths (the beam filling up)
# and then 20; the 16 full-width depths between are its cost. Arms in
# turn, ROUNDS times. Appends arm, round, seconds(4), seconds(20),
# seconds a full-width depth, score, peak KB to results.tsv.
#   usage: run.sh [ROUNDS]   (BIN: the binary; THREADS: default 2)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=${BIN:-$HERE/../../../../target/release/hatetris}
NET=$HERE/../../gen-b/latest.hnet
GAME=$HERE/../../gen-b/master-381.b2048
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chains="--quiescence 4 --chain-rule record --chain-blend 0.5"
declare -A arm=(
  [plain]="--no-quiescence"
  [depth1]="--quiescence 1 --chain-rule record --chain-blend 0.5"
  [whole]="$chains"
  [follow1]="$chains --chain-follow 1"
)
run() { # flags, depths -> "seconds score peakKB"
  /usr/bin/time -f '%M' -o "$T/time" "$B" search --from "$GAME" --at 600 --width 200000 \
    --threads "${THREADS:-2}" --eval "net=$NET" --max-depth "$2" --json --quiet $1 > "$T/out.json" 2> "$T/err"
  python3 -c "import json,sys; d=json.load(open('$T/out.json')); print(d['seconds'], d['score'], end=' ')"
  cat "$T/time"
}
for round in $(seq 1 "${1:-2}"); do
  for a in plain depth1 whole follow1; do
    read -r s4 _ _ <<< "$(run "${arm[$a]}" 4)"
    read -r s20 score kb <<< "$(run "${arm[$a]}" 20)"
    per=$(python3 -c "print(f'{($s20 - $s4) / 16:.3f}')")
    printf '%s\t%s\t%.2f\t%.2f\t%s\t%s\t%s\n' "$a" "$round" "$s4" "$s20" "$per" "$score" "$kb" | tee -a "$HERE/results.tsv"
  done
done
