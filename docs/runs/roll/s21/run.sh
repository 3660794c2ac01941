#!/bin/bash
# s21 (docs/experiments.md): g3's 21 teachers as one evaluator, not distilled.
set -euo pipefail
B=${HATETRIS:-/work/main/target/release/hatetris}
T=$(for d in h g2 g3; do for f in /work/runs/roll/$d/t-*.hnet; do printf "net=%s," $f; done; done)
$B strength --eval "mean=${T%,}" --json --quiet --threads 2 > m-s21.json
