#!/bin/bash
# me.sh NAME EVAL: EVAL on the three suites, m-NAME{,-dense2,-other}.json
set -euo pipefail
B=${HATETRIS:-/work/runs/xc/hb}
S=/work/main/docs/runs
m() { $B strength --eval "$1" "${@:2}" --json --quiet --threads 1; }
(m "$2" > m-$1.json; m "$2" --suite $S/strength/other.htsu > m-$1-other.json) &
(m "$2" --suite $S/ens-a/dense2.htsu > m-$1-dense2.json)
wait
