#!/usr/bin/env bash
# Issue #45, bar 4 with network 29 (the embedded default from 0975492):
# do chains beat a plain beam at equal CPU in `games`? The chained arm is
# ../../play/games/games-g029.json (40 noisy openings, seed 0, width
# 10,000, record chains depth 4, blend 0.5: 71.6 lines in 2,681 CPU s).
# This plays the plain arm: the same 40 openings, no chains, at WIDTH
# (default 50,000, chosen to take at least the chained arm's CPU), two
# threads (the games are the same on any number), into games-plainW.json
# and times.tsv as ../games.sh writes them, so that
#   python3 ../welch.py . ../../play/games/g029 plainW
# compares them (B - A, and the CPU ratio).
#   usage: [BIN=hatetris] [WIDTH=50000] run.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=${BIN:-$HERE/../../../../target/release/hatetris}
W=${WIDTH:-50000}
name=plain$((W / 1000))k
[ -s "$HERE/games-$name.json" ] && exit 0
/usr/bin/time -f '%e\t%U\t%S' -o "$HERE/.time-$name" \
  "$B" games --eval net --games 40 --seed 0 --width "$W" --quiescence 0 --json --quiet --threads 2 > "$HERE/.games-$name.json"
mv "$HERE/.games-$name.json" "$HERE/games-$name.json"
printf '%s\t%s\tgames\t%s\t%s\n' "$name" "$W" "$(cat "$HERE/.time-$name")" "--quiescence 0 --threads 2" >> "$HERE/times.tsv"
rm -f "$HERE/.time-$name"
