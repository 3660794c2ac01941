#!/usr/bin/env bash
# mini-lineage at width 20,000 (gen-b's recipe otherwise): ARM dir, extra flags
R=$1; shift
exec nice -n 10 /work/exp/hatetris-lr cycle --dir "$R" --cycles ${CYCLES:-4} --width 20000 --samples 2048 \
  --quiescence 4 --chain-rule record --chain-band 0 --chain-blend 0.5 \
  --refine-width 512 --refine-every 16 --refine-depth 10 --history 1 --retry-below 0.5 \
  --suite-width 1000 --suite-pieces 250 --seed 7 --init /work/main/docs/runs/gen-b/latest.hnet --max-epochs ${EPOCHS:-100} --threads 1 "$@"
