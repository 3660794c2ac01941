#!/bin/bash
# t5.sh C: the fifth-teacher test (docs/experiments.md, d5b). d4r4's recipe (d4's
# four teachers, each teacher's own game at width 100,000 as wells, boot 16
# the student) with boot2's cycle-C network (/work/runs/boot2/r) as a fifth
# teacher and its own game's wells added; measured against boot 16 (make.sh)
# and against d4r4 (its measures in cand/).
set -euo pipefail
C=$1; NAME=d5b$C
B=/work/main/target/release/hatetris
S=/work/main/docs/runs
W=/work/runs/dmx/wells
mkdir -p /work/runs/dmx/t5
cp /work/runs/boot2/r/cycle-$(printf %03d "$C")/net.hnet /work/runs/dmx/t5/boot2c$C.hnet
[ -f $W/boot2c$C.htds ] || $B sample --eval net=/work/runs/dmx/t5/boot2c$C.hnet --width 100000 --samples 2048 --seed 1 --out $W/boot2c$C.htds --quiet > $W/boot2c$C.json
DATA="$W/boot16.htds $W/g3.htds $W/g4.htds $W/gd23.htds $W/boot2c$C.htds" bash $S/dmx/make.sh $NAME $S/boot/boot16.hnet $S/roll/g3.hnet $S/roll/g4/g4.hnet $S/dmx/teachers/gd23.hnet /work/runs/dmx/t5/boot2c$C.hnet
cd /work/runs/dmx/$NAME
bash $S/roll/cmp.sh . $NAME $S/dmx/cand d4r4 | tail -1 > cmp-d4r4.txt
python3 $S/tall/gcmp.py g-$NAME.json $S/dmx/cand/g-d4r4.json > gcmp-d4r4.txt
python3 $S/tall/gcmp.py g40-$NAME.json $S/dmx/cand/g40-d4r4.json > g40cmp-d4r4.txt
