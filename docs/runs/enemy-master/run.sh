#!/usr/bin/env bash
# run.sh WIDTH RULE NAME: ../mix/run.sh's master-style game with generation
# 25's network (crates/eval/nets/play.hnet) and the chain rule RULE (record,
# enemy or sz), into NAME.json and NAME.time (CPU s) beside this script. From
# the repository's root; BIN: the binary (default target/release/hatetris).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$HERE RULE=$2 bash "$HERE/../mix/run.sh" "$1" net=crates/eval/nets/play.hnet "$3"
