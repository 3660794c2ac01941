#!/bin/bash
# The rolling ensemble step as one command, from the embedded bootstrap
# (session 22): roll's recipe (docs/runs/roll/roll.sh: one cycle at width
# 100,000, six students, the last three cycles' 21 networks labelling their
# wells, fitted from the last network) from the start. Resumable: the same
# command continues the run in RUN (default boot).
set -euo pipefail
B=${HATETRIS:-hatetris}
exec $B cycle --dir "${1:-boot}" --cycles "${2:-30}" --width 100000 --samples 2048 \
    --refine-width 50 --refine-depth 10 --students 6 --teacher-window 3 --history 1 \
    --suite-width 1000 --suite-pieces 250 --seed 50 --quiescence 0
