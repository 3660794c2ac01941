#!/usr/bin/env bash
# Issue #45, bar 4: do chains beat a plain beam at equal CPU in `games`?
# eq29 (../eq29) found a tie for chains of depth 4 (width 10,000 against
# plain 50,000, network 29). Depth 2 was never played in `games`: in
# single games from the empty well it played as long as depth 4 or longer
# at about 0.6 times its CPU (../band0, ../../play/chains). Both arms here
# in the same run, one thread each, side by side: the same 40 noisy
# openings (seed 0) as eq29, gen-b's network G (default 29, the embedded
# default), chained at width 10,000 (record rule, depth DEPTH (default 2),
# every candidate, blend 0.5) and plain at PLAIN (default 30,000). Then
#   python3 ../welch.py . chainedD plainNk
# OUT: the folder the arms go to (default this one); NET=FILE: network G
# (default: its packing commit's). SEED=S: another set of openings
# (`games --seed S`); its arms are named NAME-sS (games-plain60k-s1.json).
#   usage: [BIN=hatetris] [NET=FILE] [G=29] [DEPTH=2] [PLAIN=30000] [OUT=dir] [SEED=0] run.sh [chained|plain ...]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$HERE/../../../.." && pwd)
. "$root/docs/runs/gen-b/net.sh"
study_setup  # B, the binary (BIN=...); T, a scratch folder
G=${G:-29} D=${DEPTH:-2} P=${PLAIN:-30000} OUT=$(mkdir -p "${OUT:-$HERE}" && cd "${OUT:-$HERE}" && pwd)
study_net "$G" "$T/g$G.hnet"
arms=("$@"); [ ${#arms[@]} -gt 0 ] || arms=(chained plain)
seed_suffix  # seed, suffix (SEED=...)
for arm in "${arms[@]}"; do
  case $arm in
    chained) name=chained$D width=10000 flags=(--quiescence "$D" --chain-blend 0.5) ;;
    plain) name=plain$((P / 1000))k width=$P flags=(--quiescence 0) ;;
    *) echo "run.sh: no arm '$arm' (chained, plain)" >&2; exit 2 ;;
  esac
  name=$name$suffix
  [ -s "$OUT/games-$name.json" ] && continue
  (cd "$root" && EVAL=net=$T/g$G.hnet BIN=$B docs/runs/chains/games.sh "$OUT" "$name" "$width" "${flags[@]}" --seed "$seed")
done
