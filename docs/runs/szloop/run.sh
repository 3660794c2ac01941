#!/usr/bin/env bash
# Does a lineage trained in an S/Z-chained loop climb as knewjade's did?
# (issue #45; knewjade's 289 lines at width 200,000 were searched with
# chains that take every S and Z clear, and his networks were trained in
# that loop.) Two lineages from the embedded bootstrap that differ only in
# the master search's chain rule: RULE=sz (knewjade's) or RULE=record
# (gen-b's). The rest is knewjade's loop scaled down to one core: every
# candidate chained (depth 4, blend 1: the chain's best value), 512 wells a
# depth, every one refined 200 wide 10 pieces on without chains (step 0.5,
# min-max scaled), the next network trained from the last on three
# cycles' wells; width 20,000 (a proxy: his master width was 100,000 and
# then 200,000). Resumable: the same command continues RUN.
#   usage: RULE=sz|record run.sh RUN [CYCLES]
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
B=${HATETRIS:-$root/target/release/hatetris}
exec nice -n 10 "$B" cycle --dir "$1" --cycles "${2:-12}" \
    --width ${WIDTH:-20000} --samples ${SAMPLES:-512} --quiescence 4 --chain-rule "${RULE:?RULE=sz or record}" --chain-band 0 \
    --refine-width 200 --refine-depth 10 --history 3 \
    --suite-width 1000 --suite-pieces 250 --seed ${SEED:-45} --threads ${THREADS:-1}
