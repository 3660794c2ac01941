#!/usr/bin/env bash
# steady-a's network against network 35 (its parent) and 34, paired on the same starts.
set -euo pipefail
B=/work/main/target/release/hatetris
N36=/work/exp/steady-a/run/cycle-001/net.hnet
N35=/work/main/docs/runs/gen-b/latest.hnet
cd /work/exp/steady-a
for suite in held.htsu steady; do
  tag=${suite%.htsu}
  $B strength --eval net=$N36 --vs net=$N35 --suite $suite --width 1000 --pieces 250 --threads ${T:-2} --json --quiet > m-$tag-36a-vs-35.json
  $B compare m-$tag-36a-vs-35.json "m-$tag-36a-vs-35.json#1"
done
