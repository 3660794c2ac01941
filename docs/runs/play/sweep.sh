#!/bin/bash
# sweep.sh OUT.jsonl "W1 W2 ..." "S1 S2 ..." NAME=EVAL...: one full game from the
# empty well per network, width and tie-break seed (what `play` plays), as JSON
# lines; the search's own JSON (its `seconds` included) under "result".
# Triples already in OUT are skipped, so a killed sweep goes on.
set -euo pipefail
OUT=$1; WIDTHS=$2; SEEDS=$3; shift 3
B=/work/main/target/release/hatetris
mkdir -p /work/runs/play
for s in $SEEDS; do for w in $WIDTHS; do for pair in "$@"; do
  n=${pair%%=*}; p=${pair#*=}
  grep -q "\"net\":\"$n\",\"width\":$w,\"seed\":$s," "$OUT" 2>/dev/null && continue
  r=$($B search --eval "$p" --width $w --seed $s --json --quiet --out /work/runs/play/$n-$w-$s.b2048)
  echo "{\"net\":\"$n\",\"width\":$w,\"seed\":$s,\"result\":$r}" >> "$OUT"
done; done; done
