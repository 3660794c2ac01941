#!/usr/bin/env bash
# run.sh WIDTH RULE NAME: one master-style game from the empty well with
# generation 25's network (crates/eval/nets/play.hnet), chains of depth 4
# by RULE (record or enemy), every candidate, blend 0.5, one thread, the
# seed of ../gentle/'s cycle 1 (as ../mix/run.sh), into NAME.json and
# NAME.time (CPU s) beside this script. From the repository's root; BIN:
# the binary (default target/release/hatetris).
set -euo pipefail
W=$1 RULE=$2 NAME=$3
HERE=$(cd "$(dirname "$0")" && pwd)
/usr/bin/time -f '%U' -o "$HERE/$NAME.time" nice "${BIN:-target/release/hatetris}" search \
  --eval net=crates/eval/nets/play.hnet --width "$W" \
  --quiescence 4 --chain-rule "$RULE" --chain-band 0 --chain-blend 0.5 --seed 2654435776 --threads 1 --json --quiet \
  > "$HERE/$NAME.json.part"
mv "$HERE/$NAME.json.part" "$HERE/$NAME.json"
