#!/usr/bin/env bash
# 40 full games with noisy openings (`hatetris games`), one arm a call, one
# thread, recording wall, user and system seconds in OUT/times.tsv.
# Usage: games.sh OUT NAME WIDTH [games flags...]
set -euo pipefail
out=$1 name=$2 width=$3; shift 3
bin=${BIN:-target/release/hatetris}
mkdir -p "$out"
/usr/bin/time -f '%e\t%U\t%S' -o "$out/.time-$name" \
  "$bin" games --eval "${EVAL:-net}" --games "${GAMES:-40}" --width "$width" --json --quiet --threads 1 "$@" > "$out/.games-$name.json"
# Renamed only when whole: a killed arm leaves no games file to misread.
mv "$out/.games-$name.json" "$out/games-$name.json"
printf '%s\t%s\tgames\t%s\t%s\n' "$name" "$width" "$(cat "$out/.time-$name")" "$*" >> "$out/times.tsv"
