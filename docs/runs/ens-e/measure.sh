#!/bin/bash
# measure.sh NAME: NAME.hnet (in the current directory) on the default,
# dense2 and other suites, one thread each, two at a time, without chains
# (the default): m-NAME.json, m-NAME-dense2.json, m-NAME-other.json.
set -euo pipefail
B=${HATETRIS:-/work/main/target/release/hatetris}
S=$(cd "$(dirname "$0")/.." && pwd)
m() { $B strength --eval net=$1.hnet "${@:2}" --json --quiet --threads 1; }
(m "$1" > m-$1.json; m "$1" --suite $S/strength/other.htsu > m-$1-other.json) &
(m "$1" --suite $S/ens-a/dense2.htsu > m-$1-dense2.json)
wait
