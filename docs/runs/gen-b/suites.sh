#!/usr/bin/env bash
# suites.sh N [RUN]: generation N's network on the three suites (283 starts
# of the default, other and dense2 suites, width 1,000, one thread), into
# suites/gNNN-*.json beside this script, then start by start against (minus)
# generation N-1's (its suites/ files, or PREV=DIR/NAME for files kept
# elsewhere, as ../epochs/init for generation 19's). FROM=G as pack.sh.
set -euo pipefail
N=$1
R=${2:-/work/runs/gen-b/r}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/net.sh"
generation_net "$N" "$R"
B=${BIN:-$HERE/../../../target/release/hatetris}
NAME=$(printf 'g%03d' "$N")
(cd "$HERE/../../.." && EVAL=net=$NET BIN=$B docs/runs/chains/screen.sh "$HERE/suites" "$NAME" 1000 --threads 1)
P=${PREV:-$HERE/suites/$(printf 'g%03d' $((N - 1)))}
S=$HERE/suites/$NAME
compare_suites "$B" "$S" "$P" | tee "$HERE/suites/compare-$NAME.txt"
