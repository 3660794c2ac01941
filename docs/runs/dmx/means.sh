#!/bin/bash
# means.sh: d4's four teachers' mean as the evaluator (no distillation) on
# the three suites (docs/experiments.md, d5b: mean4d), in the current
# directory; run it where the m-*.json files should land. Four networks'
# cost: about 35 minutes on two threads beside a cycle.
set -euo pipefail
S=$(cd "$(dirname "$0")/.." && pwd)
T4=$S/boot/boot16.hnet,$S/roll/g3.hnet,$S/roll/g4/g4.hnet,$S/dmx/teachers/gd23.hnet
bash "$S/ens-e/measure.sh" mean4d "mean=$T4"
