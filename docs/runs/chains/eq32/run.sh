#!/usr/bin/env bash
# Issue #45, bar 4 with gen-b's network G (default 32, the first trained on
# a 300-line chained master game): do chains beat a plain beam at equal CPU
# in `games`? Both arms here, one thread each, in the same conditions (the
# eq29 arms were played in different sessions): the same 40 noisy openings
# (seed 0) as ../eq29 and ../../play/games, chained as `play/games` chains
# (width 10,000, record rule depth 4 on every candidate, blend 0.5) and
# plain at PLAIN (default 45,000: eq29's plain 50,000 took 1.12 times the
# chained arm's CPU). Then
#   python3 ../welch.py . chained10k plainNk
#   usage: [BIN=hatetris] [G=32] [PLAIN=45000] run.sh [chained|plain ...]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$HERE/../../../.." && pwd)
. "$root/docs/runs/gen-b/net.sh"
study_setup  # B, the binary (BIN=...); T, a scratch folder
G=${G:-32} P=${PLAIN:-45000}
packed_net "$G" "$T/g$G.hnet"
arms=("$@"); [ ${#arms[@]} -gt 0 ] || arms=(chained plain)
for arm in "${arms[@]}"; do
  case $arm in
    chained) name=chained10k width=10000 flags=(--quiescence 4 --chain-blend 0.5) ;;
    plain) name=plain$((P / 1000))k width=$P flags=(--quiescence 0) ;;
    *) echo "run.sh: no arm '$arm' (chained, plain)" >&2; exit 2 ;;
  esac
  [ -s "$HERE/games-$name.json" ] && continue
  (cd "$root" && EVAL=net=$T/g$G.hnet BIN=$B docs/runs/chains/games.sh "$HERE" "$name" "$width" "${flags[@]}")
done
