#!/bin/bash
# m.sh NAME K M [SUITEARGS...]: g3 on a suite with at most M beam entries per ancestor K pieces back (K=0: plain)
B=/work/main/target/release/hatetris
V=(); [ "$2" = 0 ] || V=(HATETRIS_CLAN_K=$2 HATETRIS_CLAN_M=$3)
env "${V[@]}" $B strength --eval net=g3.hnet "${@:4}" --json --quiet --threads 1 > m-$1.json
