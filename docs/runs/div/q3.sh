cd /work/runs/div
while pgrep -f "q2.sh" > /dev/null; do sleep 5; done
M=mean=/work/main/crates/eval/nets/default.hnet,/work/runs/g3.hnet
./hatetris.bin games --eval $M --open 40 --json --quiet > g40-mean-b16-g3.json
./hatetris.bin games --eval $M --json --quiet > g-mean-b16-g3.json
