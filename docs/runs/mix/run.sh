#!/usr/bin/env bash
# run.sh WIDTH EVAL NAME: one master-style game from the empty well (record
# chains, depth 4, every candidate, blend 0.5, one thread, the seed of
# ../gentle/'s cycle 1) with EVAL (`hatetris search --eval`), into
# NAME.json and NAME.time (CPU s) beside this script. From the repository's
# root; BIN: the binary (default target/release/hatetris); RULE: the chain
# rule (default record); OUT: the folder written (default this script's).
set -euo pipefail
W=$1 E=$2 NAME=$3
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE}
/usr/bin/time -f '%U' -o "$OUT/$NAME.time" nice "${BIN:-target/release/hatetris}" search --eval "$E" --width "$W" \
  --quiescence 4 --chain-rule "${RULE:-record}" --chain-band 0 --chain-blend 0.5 --seed 2654435776 --threads 1 --json --quiet \
  > "$OUT/$NAME.json.part"
mv "$OUT/$NAME.json.part" "$OUT/$NAME.json"
