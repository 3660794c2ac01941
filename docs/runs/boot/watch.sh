#!/bin/bash
# watch.sh FROM TO: as each boot cycle's suite.json appears, measure its
# network on the three suites (m-bootN*.json) and compare with g3 and the
# previous cycle over the 283 starts (cmp-N.txt).
cd /work/runs/boot
export HATETRIS=/work/runs/boot/hatetris.bin
for ((n = $1; n <= $2; n++)); do
    c=$(printf 'r/cycle-%03d' $n)
    until [ -f $c/suite.json ]; do sleep 20; done
    cp -n $c/net.hnet boot$n.hnet
    [ -s m-boot$n-other.json ] || bash /work/main/docs/runs/ens-e/measure.sh boot$n
    { echo "cycle $n vs g3"; bash /work/main/docs/runs/roll/cmp.sh . boot$n /work/runs/roll/g3 g3
      echo "cycle $n vs cycle $((n-1))"; bash /work/main/docs/runs/roll/cmp.sh . boot$n . boot$((n-1)); } > cmp-$n.txt
    echo "cycle $n measured $(date +%T)"
done
