#!/usr/bin/env bash
# run.sh [SEEDS...]: networks 27 and 28 (packed_net) searching plain from the
# empty well at width 50,000 (no chains, one thread), seed 1 unless given
# (seeds 2 and 3 replayed seed 1's games exactly), the networks
# alternating; each game into nNN-sS.json and its CPU seconds into
# nNN-sS.time beside this script. From anywhere; BIN: the
# binary (default the repository's release build).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../net.sh"
B=${BIN:-$HERE/../../../../target/release/hatetris}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for g in 27 28; do packed_net $g "$T/n$g.hnet"; done
for s in ${@:-1}; do
  for g in 27 28; do
    [ -f "$HERE/n$g-s$s.json" ] && continue
    /usr/bin/time -f '%U' -o "$HERE/n$g-s$s.time" nice "$B" search --eval "net=$T/n$g.hnet" --width 50000 --seed "$s" \
      --quiescence 0 --threads 1 --json --quiet > "$HERE/n$g-s$s.json.part"
    mv "$HERE/n$g-s$s.json.part" "$HERE/n$g-s$s.json"
  done
done
