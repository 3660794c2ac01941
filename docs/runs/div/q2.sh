cd /work/runs/div
while [ ! -s g40-boot16-g3.txt ]; do sleep 5; done
W=/work/main/docs/runs/wide-a/wide-a.hnet
./hatetris.bin games --eval net=$W --open 40 --json --quiet > g40-wide-a.json
./hatetris.bin games --eval net=$W --json --quiet > g-wide-a.json
