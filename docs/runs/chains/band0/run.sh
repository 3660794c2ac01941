#!/usr/bin/env bash
# Session 35: the chain band in whole games (d4, one thread each, beside a
# generation run: compare CPU seconds). Single games from the empty well
# at several widths, chains depth 4, band 0 (every candidate chained, as
# the record engine chains) against band 3 and plain; then 40 noisy-opening
# games of band 0 against plain 10,000 (`../games/games-plain-10k.json`).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
B=${BIN:-target/release/hatetris}
o=${1:-docs/runs/chains/band0}
for arm in "10000 0 0 record" "10000 1 0 record" "10000 2 0 record" "5000 2 0 record" "15000 2 0 record" "20000 2 0 record" "10000 4 3 record" "10000 4 10 record" "10000 4 0 record" "10000 20 0 record" "10000 20 3 record" \
           "5000 4 0 record" "5000 4 3 record" "20000 4 3 record" "20000 4 0 record" "2500 4 0 record" "2500 0 0 record" \
           "5000 4 0 enemy" "2500 4 0 enemy"; do
  set -- $arm
  /usr/bin/time -f '%U' -o "$o/.t" "$B" search --width "$1" --quiescence "$2" --chain-rule "$4" --chain-band "$3" \
      --threads 1 --json --quiet > "$o/.j"
  python3 -c "import json,sys; j=json.load(open('$o/.j')); print('\t'.join(map(str,['$1','$2','$3','$4',j['score'],j['pieces'],open('$o/.t').read().strip()])))" >> "$o/single.tsv"
done
rm -f "$o/.t" "$o/.j"
g=docs/runs/chains/games.sh
BIN=$B $g "$o" rec4b0-2500 2500 --quiescence 4 --chain-rule record --chain-band 0
BIN=$B $g "$o" enemy4b0-2000 2000 --quiescence 4 --chain-rule enemy --chain-band 0
BIN=$B $g "$o" rec4b0-2500-open4 2500 --quiescence 4 --chain-rule record --chain-band 0 --open 4
BIN=$B $g "$o" plain-10k-open4 10000 --quiescence 0 --open 4
