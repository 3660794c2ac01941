#!/bin/bash
# g3's full games from the empty well with the S/Z chains (quiescence 1), seed 0, one thread.
B=${HATETRIS:-/work/main/target/release/hatetris}
for w in 10000 30000 50000; do
  [ -s q1-$w.json ] || $B search --width $w --eval net --quiescence 1 --seed 0 --threads 1 --json --quiet --out q1-$w.b2048 > q1-$w.json
done
