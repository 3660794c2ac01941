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
. "$HERE/game.sh"
game "net=$R/sz/cycle-012/net.hnet" record "$HERE/cross-sz12-record.json"
game "net=$R/record/cycle-008/net.hnet" sz "$HERE/cross-record8-sz.json"
game "net=$R/sz/cycle-012/net.hnet" plain "$HERE/cross-sz12-plain.json"
game "net=$R/record/cycle-008/net.hnet" plain "$HERE/cross-record8-plain.json"
