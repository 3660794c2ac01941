#!/usr/bin/env bash
# Issue #45, bar 4: network 34 chained at width 10,000 (record rule depth 4,
# every candidate, blend 0.5: ../../play/games/games-g034.json and
# games-g034-s1.json) against network 34 plain at 60,000 (the width that
# spent 1.16-1.19 times the chained arm's CPU with networks 32 and 33), the
# openings of seeds 0 and 1 (40 each), one thread an arm. Then
#   python3 ../welch.py . plain60k+plain60k-s1 ../../play/games/g034+../../play/games/g034-s1
#   usage: [BIN=hatetris] [NET=FILE] run.sh [SEED...]   (default: 0 1, one after the other)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
seeds=("$@"); [ ${#seeds[@]} -gt 0 ] || seeds=(0 1)
for s in "${seeds[@]}"; do
  G=34 PLAIN=60000 OUT=$HERE SEED=$s bash "$HERE/../eqd2/run.sh" plain
done
