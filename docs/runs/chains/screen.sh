#!/usr/bin/env bash
# Chain rules against plain beams on the 283 starts of three suites
# (default, other, dense2), one arm after another, timing each.
# Usage: screen.sh OUT NAME WIDTH [strength flags...]; appends to OUT/times.tsv
# the wall, user and system seconds of each suite (one-thread arms are
# compared by CPU seconds, which other work on the machine moves less).
set -euo pipefail
out=$1 name=$2 width=$3; shift 3
bin=${BIN:-target/release/hatetris}
mkdir -p "$out"
# The other and dense2 suites left the tree with their run folders at
# 716c9ba; they are taken from there (the history keeps them anyway).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in docs/runs/strength/other.htsu docs/runs/ens-a/dense2.htsu; do
  if [ -f "$f" ]; then cp "$f" "$tmp/"; else git show "716c9ba:$f" > "$tmp/$(basename "$f")"; fi
done
suites=("" "$tmp/other.htsu" "$tmp/dense2.htsu")
labels=(default other dense2)
for i in 0 1 2; do
  suite=()
  [ -n "${suites[$i]}" ] && suite=(--suite "${suites[$i]}")
  res=$out/$name-${labels[$i]}.json
  # A time file per arm and suite: arms run side by side in one OUT.
  t=$out/.time-$name-${labels[$i]}
  /usr/bin/time -f '%e\t%U\t%S' -o "$t" \
    "$bin" strength --eval "${EVAL:-net}" "${suite[@]}" --width "$width" --json --quiet "$@" > "$res.part"
  # Renamed only when whole: a killed arm leaves no result file to misread.
  mv "$res.part" "$res"
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$width" "${labels[$i]}" "$(cat "$t")" "$*" >> "$out/times.tsv"
done
