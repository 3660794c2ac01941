#!/bin/bash
# rw25: boot's recipe from the bootstrap with twice the wells a depth and
# half the refine width (--samples 4096 --refine-width 25: about the same
# refine cost a cycle), seed 80; compared cycle by cycle with boot (seed
# 50) and boot2 (seed 70). The same command resumes.
set -euo pipefail
B=${HATETRIS:-/work/runs/rw25/hatetris.bin}
exec $B cycle --dir "${1:-/work/runs/rw25/r}" --cycles "${2:-8}" --width 100000 --samples 4096 \
    --refine-width 25 --refine-depth 10 --students 6 --teacher-window 3 --history 1 \
    --suite-width 1000 --suite-pieces 250 --seed 80 --quiescence 0
