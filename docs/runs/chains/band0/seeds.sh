#!/usr/bin/env bash
# Games from the empty well as `play` plays them (no opening noise), one
# per search seed, one thread each: ARM WIDTH QUIESCENCE BAND over seeds
# 0..N-1, appended to OUT/seeds.tsv (arm, seed, lines, pieces, CPU s).
# Usage: seeds.sh OUT ARM WIDTH QUIESCENCE BAND [N]
set -euo pipefail
cd "$(dirname "$0")/../../../.."
B=${BIN:-target/release/hatetris}
o=$1 arm=$2 w=$3 q=$4 band=$5 n=${6:-10}
for ((s = 0; s < n; s++)); do
  /usr/bin/time -f '%U' -o "$o/.t-$arm" "$B" search --width "$w" --quiescence "$q" --chain-rule record \
      --chain-band "$band" --seed "$s" --threads 1 --json --quiet > "$o/.j-$arm"
  python3 -c "import json; j=json.load(open('$o/.j-$arm')); print('\t'.join(map(str,['$arm',$s,j['score'],j['pieces'],open('$o/.t-$arm').read().strip()])))" >> "$o/seeds.tsv"
done
rm -f "$o/.t-$arm" "$o/.j-$arm"
