#!/usr/bin/env bash
# Damped chains in `play` (issue #45's bar: at least 100 lines in at most
# two minutes): one game an arm, both cores, nothing else running (the
# generation run paused), wall time and peak memory from /usr/bin/time,
# lines from the engine's replay of the written replay.
#   usage: run.sh NAME [play flags...]   (NAME.txt, NAME.time; an arm
#                                          already played is kept)
# `--eval g20` and `--eval g24` stand for gen-b's generations 20 and 24's networks.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../gen-b/net.sh"
study_setup  # B, the binary; T, a scratch folder
packed_net 20 "$T/g20.hnet"
packed_net 24 "$T/g24.hnet"
n=$1; shift
[ -f "$HERE/$n.txt" ] && exit 0
args=()
for a in "$@"; do
  case $a in g20 | g24) args+=("net=$T/$a.hnet") ;; *) args+=("$a") ;; esac
done
/usr/bin/time -f '%e s %M KB' -o "$HERE/$n.time" "$B" play --quiet "${args[@]}" > "$T/out.txt"
mv "$T/out.txt" "$HERE/$n.txt"
# play prints "score N" and then the replay; the engine verifies the replay.
lines=$(tail -n 1 "$HERE/$n.txt" | "$B" verify - | python3 -c "import json,sys; print(json.load(sys.stdin)['score'])")
printf '%s\t%s\t%s\t%s\n' "$n" "$lines" "$(cat "$HERE/$n.time")" "$*" | tee -a "$HERE/results.tsv"
