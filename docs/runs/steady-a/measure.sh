#!/usr/bin/env bash
# A network against gen-b's generation BASE (default 35; net.sh's
# packed_net), paired on the same starts, width 1,000, 250 pieces: writes
# m-SUITE-TAG-vs-BASE.json in the current folder and prints the
# comparison. SUITES: `held.htsu` (here), `steady`, `default`.
#   usage: [BASE=35] measure.sh NET TAG [SUITE...]   (default suites: held.htsu steady)
#   steady-a: measure.sh RUN/cycle-001/net.hnet 36a
#   steady-b: measure.sh RUN/cycle-002/net.hnet 37b steady default
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=${HATETRIS:-$HERE/../../../target/release/hatetris}
. "$HERE/../gen-b/net.sh"
base=${BASE:-35}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
packed_net "$base" "$tmp/base.hnet"
net=$1 tag=$2; shift 2
for suite in "${@:-held.htsu steady}"; do
  for s in $suite; do
    [ "$s" = held.htsu ] && s=$HERE/held.htsu
    out=m-$(basename "${s%.htsu}")-$tag-vs-$base.json
    "$B" strength --eval "net=$net" --vs "net=$tmp/base.hnet" --suite "$s" --width 1000 --pieces 250 \
      --threads "${T:-2}" --json --quiet > "$out"
    "$B" compare "$out" "$out#1"
  done
done
