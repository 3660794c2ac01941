#!/usr/bin/env bash
# Issue #45, bar 4: network 32 chained at width 10,000 (depth 4, blend 0.5,
# ../../play/games/games-g032.json: 76.8 lines in 3,424 CPU s) against
# network 32 plain at 60,000, a width chosen to spend at least as much CPU
# (network 29 plain at 50,000 spent 2,996 s for 72.6 lines). Same 40 noisy
# openings (seed 0), one thread. Then
#   python3 ../welch.py . plain60k ../../play/games/g032
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
G=32 PLAIN=${PLAIN:-60000} OUT=$HERE exec bash "$HERE/../eqd2/run.sh" plain
