cd /work/runs/dm
for w in 60000 30000 100000; do
  /usr/bin/time -f "%e s %M KB" /work/runs/div/hatetris.bin search --width $w --eval net=dm.hnet --json --quiet --out dm-$w.b2048 > dm-$w.json 2> dm-$w.time
done
