#!/usr/bin/env bash
# Session 36: the `forced` chain rule (the record rule only where every
# piece can clear) against the record rule's numbers in ../band0/ (d4, one
# thread each, beside a generation run: compare CPU seconds). Single games
# from the empty well, then 40 noisy-opening games against plain 10,000
# (`../games/games-plain-10k.json`: 51.2 lines, 337 CPU s).
set -euo pipefail
cd "$(dirname "$0")/../../../.."
B=${BIN:-target/release/hatetris}
o=${1:-docs/runs/chains/forced}
[ -f "$o/single.tsv" ] || printf 'width\tquiescence\tband\trule\tlines\tpieces\tcpu_s\n' > "$o/single.tsv"
for arm in ${ARMS:-"10000 4 0 forced" "5000 4 0 forced" "2500 4 0 forced"}; do
  set -- $arm
  /usr/bin/time -f '%U' -o "$o/.t" nice -n 10 "$B" search --width "$1" --quiescence "$2" --chain-rule "$4" --chain-band "$3" \
      --threads 1 --json --quiet > "$o/.j"
  python3 -c "import json,sys; j=json.load(open('$o/.j')); print('\t'.join(map(str,['$1','$2','$3','$4',j['score'],j['pieces'],open('$o/.t').read().strip()])))" >> "$o/single.tsv"
done
rm -f "$o/.t" "$o/.j"
[ -n "${GAMES_ARM:-1}" ] && BIN=$B nice -n 10 docs/runs/chains/games.sh "$o" forced4b0-2500 2500 --quiescence 4 --chain-rule forced --chain-band 0
