#!/bin/bash
# dm (docs/experiments.md): boot 16 fitted to the mean of boot 16 and g3
# over boot's cycle-17 wells and g3's cycle's wells (1,001,868 distinct),
# then measured on both full-game yardsticks and the three suites: dmx's
# script with two teachers and two sets of wells (into /work/runs/dmx/dm).
set -euo pipefail
S=/work/main/docs/runs
DATA="/work/runs/boot/r/cycle-017/samples.htds /work/runs/roll/g3/c/cycle-001/samples.htds" \
    bash $S/dmx/make.sh dm $S/boot/boot16.hnet $S/roll/g3.hnet
