#!/bin/bash
# sw.sh NET W P...: search from g3's play game at piece P with NET at width W
for p in "${@:3}"; do
  ${HATETRIS:-./hb} search --from g3play.b2048 --at $p --width $2 --eval net=$1 --threads 1 --quiet --json --out sw-$(basename $1 .hnet)-$2-$p.b2048 > sw-$(basename $1 .hnet)-$2-$p.json
  echo "$1 $2 $p $(cut -c1-150 sw-$(basename $1 .hnet)-$2-$p.json)"
done
