#!/bin/bash
# run.sh: every network of g3's, g4's and g5's cycles (the cycle's own fit and six
# students each) on the default suite and on own.htsu (our own games' positions),
# width 1,000, 250 pieces; resumable (skips files that exist).
B=/work/main/target/release/hatetris
OWN=/work/main/docs/runs/quiescence/own/own.htsu
one() { # NAME NET
  [ -s d-$1.json ] || $B strength --eval net=$2 --json --quiet --threads 1 > d-$1.json
  [ -s o-$1.json ] || $B strength --eval net=$2 --suite $OWN --json --quiet --threads 1 > o-$1.json
}
L=()
for g in g3 g4 g5; do for f in /work/runs/roll/$g/t-*.hnet; do L+=("$g-$(basename $f .hnet) $f"); done; done
for ((i = 0; i < ${#L[@]}; i += 2)); do
  one ${L[i]} & { [ -n "${L[i+1]:-}" ] && one ${L[i+1]}; } ; wait
done
