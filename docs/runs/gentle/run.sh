#!/usr/bin/env bash
# A small gen-b lineage at width 20,000 (gen-b's recipe otherwise) from
# generation 25's network (crates/eval/nets/play.hnet), from the
# repository's root:  bash docs/runs/gentle/run.sh RUN [cycle flags...]
# (arm u: /work/runs/gl/u; arm g: make-g.sh). EPOCHS: --max-epochs.
R=$1; shift
exec nice -n 10 ${BIN:-target/release/hatetris} cycle --dir "$R" --cycles ${CYCLES:-4} --width 20000 --samples 2048 \
  --quiescence 4 --chain-rule record --chain-band 0 --chain-blend 0.5 \
  --refine-width 512 --refine-every 16 --refine-depth 10 --history 1 --retry-below 0.5 \
  --suite-width 1000 --suite-pieces 250 --seed 7 --init crates/eval/nets/play.hnet --max-epochs ${EPOCHS:-100} --threads 1 "$@"
