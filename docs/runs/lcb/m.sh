#!/bin/bash
# m.sh NAME SD SUITEARGS... : mean of g3's cycle's 7 nets minus SD x their spread
B=/work/main/target/release/hatetris
G=/work/runs/roll/g3
E="mean=$(ls $G/t-*.hnet | paste -sd,)"
HATETRIS_MEAN_SD=$2 $B strength --eval "$E" "${@:3}" --json --quiet --threads 1 > m-$1.json
