#!/bin/bash
B=/work/main/target/release/hatetris
for k in 1 2 3 4 5 6; do [ -s d-w$k.json ] || $B strength --eval net=w-$k.hnet --json --quiet --threads 1 > d-w$k.json; done
E="mean=/work/runs/roll/g3/t-c1.hnet,$(ls $PWD/w-*.hnet | paste -sd,)"
[ -s m-w7.json ] || $B strength --eval "$E" --json --quiet --threads 1 > m-w7.json
