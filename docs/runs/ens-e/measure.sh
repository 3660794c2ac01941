#!/bin/bash
# measure.sh NAME [EVAL]: EVAL (default net=NAME.hnet, in the current
# directory) on the default, dense2 and other suites, one thread each, two at
# a time, without chains (the default): m-NAME.json, m-NAME-dense2.json,
# m-NAME-other.json.
set -euo pipefail
B=${HATETRIS:-/work/main/target/release/hatetris}
S=$(cd "$(dirname "$0")/.." && pwd)
E=${2:-net=$1.hnet}
m() { $B strength --eval "$E" "$@" --json --quiet --threads 1; }
(m > m-$1.json; m --suite $S/strength/other.htsu > m-$1-other.json) &
(m --suite $S/ens-a/dense2.htsu > m-$1-dense2.json)
wait
