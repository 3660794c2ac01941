#!/usr/bin/env bash
# cross.sh [RUNS]: each lineage's last network searched with the other
# lineage's chain rule (the same width, depth, band and blend as the
# loops' master searches), to tell the rule's worth in the search from
# what the networks learned; and each without chains. One thread, niced;
# one JSON a game here, written whole or not at all.
set -euo pipefail
R=${1:-/work/runs/szloop}
HERE=$(cd "$(dirname "$0")" && pwd)
B=${HATETRIS:-$HERE/../../../target/release/hatetris}
game() {  # NET RULE OUT (RULE plain: no chains)
  [ -s "$3" ] && return 0
  if [ "$2" = plain ]; then chains=(--quiescence 0); else chains=(--quiescence 4 --chain-rule "$2" --chain-band 0); fi
  /usr/bin/time -f '%e s %M KB' nice -n 10 "$B" search --eval "net=$1" --width 20000 "${chains[@]}" \
    --seed 45 --threads 1 --json --quiet > "$3.tmp"
  mv "$3.tmp" "$3"
}
game "$R/sz/cycle-012/net.hnet" record "$HERE/cross-sz12-record.json"
game "$R/record/cycle-008/net.hnet" sz "$HERE/cross-record8-sz.json"
game "$R/sz/cycle-012/net.hnet" plain "$HERE/cross-sz12-plain.json"
game "$R/record/cycle-008/net.hnet" plain "$HERE/cross-record8-plain.json"
