#!/usr/bin/env bash
# Session 43: `play` with record chains inside its two minutes. One game
# from the empty well per setting, on both threads, with nothing else
# running (gen-b's search was stopped with SIGSTOP meanwhile); wall time
# and peak memory from /usr/bin/time. Each output holds `score N` and the
# replay, which `play` has verified.
#   usage: run.sh   (gen-b's generation 20 network is latest.hnet as fa8c652 packed it)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=${BIN:-$HERE/../../../../target/release/hatetris}
. "$HERE/../../chains/genb20/g020.sh"
G20=$NET
one() { # NAME FLAGS...
  local n=$1; shift
  [ -f "$HERE/$n.txt" ] && return
  /usr/bin/time -f '%e s %M KB' -o "$HERE/$n.time" "$B" play --quiet "$@" > "$HERE/.$n.txt"
  # Renamed only when whole: a killed game is played again, not skipped.
  mv "$HERE/.$n.txt" "$HERE/$n.txt"
}
one d4-q2-20k --width 20000 --quiescence 2
one d4-q4-20k --width 20000 --quiescence 4
one g20-q2-20k --width 20000 --quiescence 2 --eval "net=$G20"
