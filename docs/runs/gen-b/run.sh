#!/usr/bin/env bash
# Generations as the record engine ran them (issue #45): each generation's
# master search chains clears by the record engine's rule (depth 4, the
# best 3 x width candidates), samples its beams, refines every sample
# without chains (a 50-wide beam 10 pieces on, -1 where it dies), and
# trains the next network from the last one on the last two generations'
# wells. From the embedded bootstrap (the network trained on solved small
# wells), as the record engine's generations started from nothing: gen-a
# ran the same recipe from the default (d4) and collapsed in its second
# generation. Resumable: the same command
# continues the run in RUN (default /work/runs/gen-b/r).
#   usage: run.sh [RUN] [GENERATIONS]
# On several processes: EXTRA="--local 2" (or --processes/--process/
# --hostfile) with THREADS=1; process I > 0 keeps its copy of the run in
# RUN/process-I, which must start as a copy of RUN (see README.md).
# WIDTH (default 100000) is the master width and BAND (default 3) its
# chain band; RETUNE=1 lets a run go on with others (cycle --retune):
# generation 12 searched at WIDTH=200000, from 13 on WIDTH=200000 BAND=0
# (every candidate chained, as the record engine chained them).
# A run folder that is lost goes on as a new run from the last packed
# network: INIT=docs/runs/gen-b/latest.hnet and SEED=81 + G x 0x9E3779B9
# (G: the generations packed), so that the new run's cycle k searches with
# generation G+k's seed (pack.sh with FROM=G numbers it so).
# RULE (default record) is the master search's chain rule and BLEND
# (default 1) its chain blend (with RETUNE=1 for a run that goes on with
# others). From generation 25 on: BLEND=0.5 (../chains/damp/).
# EPOCHS: the learn step's most epochs (cycle --max-epochs) and LR its
# Adam step size (cycle --lr, default 0.001); with RETUNE=1 for a run that
# goes on with others.
# REFINE_WIDTH (default 50), REFINE_EVERY (cycle --refine-every, default
# all) and HISTORY (default 2): the refine step and the wells the learn step
# reads (with RETUNE=1 for a run that goes on with others). From
# generation 24 on: REFINE_WIDTH=512 REFINE_EVERY=16 HISTORY=1 EPOCHS=100
# (every 16th well refined 512 wide, the network trained on those alone to
# early stopping; t512/README.md). From generation 28 on: REFINE_EVERY=4
# (four times the refined wells, towards the record engine's every well).
# Since recipes (#83) the settings and the schedule above are
# recipes/record.toml, and the run goes on under it: a run from before
# (r36) is found to be generation FROM's by its seed and keeps the settings
# it has. WIDTH, BAND, RULE, BLEND, EPOCHS, LR, REFINE_* and HISTORY are
# no longer read: a change is a recipe file given as RECIPE (with RETUNE=1).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
B=${HATETRIS:-$root/target/release/hatetris}
exec nice -n 10 "$B" cycle --dir "${1:-/work/runs/gen-b/r}" --cycles "${2:-10}" \
    --recipe "${RECIPE:-$root/recipes/record.toml}" ${RETUNE:+--retune} \
    ${INIT:+--init "$INIT" --generation "${FROM:-0}"} --threads ${THREADS:-1} ${EXTRA:-}
