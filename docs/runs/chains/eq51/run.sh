#!/usr/bin/env bash
# Item 4 of issue #86 at equal CPU: network 51 (the lineage's best plain
# `games`, 65.5 lines at 10,000 against network 34's 57.4) plain at width
# 60,000 against `play`'s default, network 34 with record chains at
# 10,000 (../../play/games/games-g034.json, -s1), the openings of seeds 0
# and 1 (40 each), one thread an arm. Then
#   python3 ../welch.py . ../../play/games/g034+../../play/games/g034-s1 plain60k+plain60k-s1
#   usage: [BIN=hatetris] [NET=FILE] run.sh [SEED...]   (default: 0 1, one after the other)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
seeds=("$@"); [ ${#seeds[@]} -gt 0 ] || seeds=(0 1)
for s in "${seeds[@]}"; do
  G=51 PLAIN=60000 OUT=$HERE SEED=$s bash "$HERE/../eqd2/run.sh" plain
done
