#!/usr/bin/env bash
# gen-b's generations: `hatetris cycle` under recipes/record.toml (the
# record engine's generations from the bootstrap, with gen-b's schedule:
# ../../recipes.md). Resumable: the same command goes on with the run in
# RUN (default /work/runs/gen-b/r).
#   usage: run.sh [RUN] [GENERATIONS]
# INIT=NET with FROM=G starts a new run from generation G's network (a
# run folder lost with no stash: INIT=docs/runs/gen-b/latest.hnet), and
# LAST_GAME=FILE hands it the game that network's generation played, to
# go on from (`--last-game`; record.toml's master_from_end).
# RECIPE=FILE (with RETUNE=1) goes on under another recipe; THREADS (1);
# EXTRA="--local 2" (or --processes/--process/--hostfile) spreads it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
B=${HATETRIS:-$root/target/release/hatetris}
exec nice -n 10 "$B" cycle --dir "${1:-/work/runs/gen-b/r}" --cycles "${2:-10}" \
    --recipe "${RECIPE:-$root/recipes/record.toml}" ${RETUNE:+--retune} \
    ${INIT:+--init "$INIT" --generation "${FROM:-0}"} ${LAST_GAME:+--last-game "$LAST_GAME"} --threads ${THREADS:-1} ${EXTRA:-}
