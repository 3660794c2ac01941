# meas.sh NAME NET: games (default and --open 40) and the three suites
cd /work/runs/div
n=$1; net=$2
[ -f g-$n.json ] || ./hatetris.bin games --eval net=$net --json --quiet --threads ${T:-2} > g-$n.json
[ -f g40-$n.json ] || ./hatetris.bin games --eval net=$net --open 40 --json --quiet --threads ${T:-2} > g40-$n.json
