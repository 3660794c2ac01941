#!/usr/bin/env bash
# Issue #46: one process of 2 threads against 2 loopback processes of 1
# thread at width 100,000 (alternating, so load changes hit both alike),
# then the exchange per depth at width 1,000,000 on 2 processes.
#   usage: measure.sh OUT_DIR [PAIRS] [DEPTHS]   (DEPTHS 0: whole games;
#   ONE_M=0 skips the width-1,000,000 run)
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
B=${HATETRIS:-$root/target/release/hatetris}
out=${1:?usage: measure.sh OUT_DIR [PAIRS] [DEPTHS]}
pairs=${2:-3}
depths=${3:-100}
mkdir -p "$out"
for i in $(seq 1 "$pairs"); do
    for arm in one two; do
        if [ $arm = one ]; then extra=(--threads 2); else extra=(--threads 1 --local 2 --dist-costs "$out/costs-100k-$i"); fi
        load=$(cut -d' ' -f1 /proc/loadavg)
        /usr/bin/time -f "%e" -o "$out/time-$arm-$i" \
            "$B" search --width 100000 --max-depth "$depths" --json --quiet "${extra[@]}" > "$out/$arm-$i.json"
        echo "{\"pair\": $i, \"arm\": \"$arm\", \"load_before\": $load, \"wall\": $(cat "$out/time-$arm-$i")}" >> "$out/runs.jsonl"
    done
done
[ "${ONE_M:-1}" = 0 ] && exit 0
"$B" search --width 1000000 --max-depth 20 --threads 1 --local 2 --json --quiet --dist-costs "$out/costs-1m" > "$out/1m.json"
