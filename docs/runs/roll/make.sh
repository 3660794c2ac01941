#!/bin/bash
# Rebuilds g3 (the embedded default) from ens-e's work directory, as
# docs/runs/ens-e/make.sh leaves it (ens-e.hnet, e-*.hnet, c/). Five steps,
# each one of the generations of docs/experiments.md (ens-f, ens-g, ens-h,
# g2, g3), about 1.4 core-hours on this machine. Every step is seeded and
# independent of the thread count. Usage, from the repository's root:
#   bash docs/runs/ens-e/make.sh work && bash docs/runs/roll/make.sh work
# which writes work/g3/out.hnet (= crates/eval/nets/default.hnet).
set -euo pipefail
B=${HATETRIS:-$(pwd)/target/release/hatetris}
W=$(cd "$1" && pwd)
cd "$W"
mkdir -p e && for f in e-*.hnet; do ln -sf ../$f e/t-${f#e-}; done && ln -sfn ../c e/c

# gen DIR START SEED FIT TEACHERS...: one cycle at width 100,000 from START
# (its own fit and six students from random weights on its targets, kept
# as DIR/t-*.hnet), then the mean of the TEACHERS directories' networks
# labels their wells, fitted from FIT (DIR/out.hnet). Without START, no
# cycle: DIR only distils its teachers.
gen() {
    local dir=$1 start=$2 seed=$3 fit=$4; shift 4
    mkdir -p $dir && cd $dir
    if [ -n "$start" ]; then
        [ -f c/cycle-001/net.hnet ] || $B cycle --dir c --init $start --cycles 1 --width 100000 --samples 2048 \
            --refine-width 50 --refine-depth 10 --suite-width 1000 --suite-pieces 250 --seed $seed --quiescence 0 --quiet
        cp -n c/cycle-001/net.hnet t-c1.hnet
        for k in 1 2 3 4 5 6; do
            [ -f t-rand$k.hnet ] || $B train --data c/cycle-001/refined.htds --seed $k --out t-rand$k.hnet --quiet
        done
    fi
    local teach=() data=()
    for d in "$@"; do
        for f in $W/$d/t-*.hnet; do teach+=(--teacher "net=$f"); done
        data+=($W/$d/c/cycle-001/samples.htds)
    done
    [ -f lab.htds ] || $B label "${teach[@]}" --data "${data[@]}" --out lab.htds > label.json
    [ -f out.hnet ] || $B train --data lab.htds --init $fit --out out.hnet --quiet
    cd $W
}

gen f  $W/ens-e.hnet 27 $W/ens-e.hnet f          # ens-f
gen g  ""            0  $W/ens-e.hnet e f        # ens-g: no cycle
gen h  $W/g/out.hnet 28 $W/g/out.hnet e f h      # ens-h
gen g2 $W/h/out.hnet 30 $W/h/out.hnet f h g2
gen g3 $W/g2/out.hnet 31 $W/g2/out.hnet h g2 g3
