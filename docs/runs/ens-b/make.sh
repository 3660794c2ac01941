#!/bin/bash
# Rebuilds the embedded default (run ens-b) from the one before it (ens-a),
# in the work directory of `docs/runs/ens-a/make.sh` (it labels the wells of
# that run's kjc-48, kjc-96 and wells10k-* too): about 0.8 core-hours on
# this machine, most of it the cycle's search and refine. Every step is
# seeded and does not depend on the thread count. The cycle's search ran
# with the S/Z chains, the default of its day. Usage: bash
# docs/runs/ens-b/make.sh WORKDIR (from the repository's root, with
# hatetris on the PATH or in target/release).
set -euo pipefail
ROOT=$(pwd)
B=${HATETRIS:-$ROOT/target/release/hatetris}
ENSA=$ROOT/docs/runs/ens-a/ens-a.hnet
cd "$1"

# 1. Targets: one cycle of knewjade's loop from ens-a (its lookahead on the
#    wells of a width-100,000 search).
[ -f ensb-c/cycle-001/net.hnet ] || $B cycle --dir ensb-c --init "$ENSA" --cycles 1 --width 100000 \
    --samples 2048 --refine-width 50 --refine-depth 10 --suite-width 1000 --suite-pieces 250 \
    --seed 24 --quiescence 1 --quiet

# 2. Six students of those targets from random weights.
DATA=ensb-c/cycle-001/refined.htds
cp ensb-c/cycle-001/net.hnet b-c1.hnet
for seed in 1 2 3 4 5 6; do
    [ -f b-rand$seed.hnet ] || $B train --data $DATA --seed $seed --out b-rand$seed.hnet --quiet
done

# 3. The mean of the seven as targets on the cycle's wells and ens-a's run's
#    wells, fitted from ens-a.
TEACH=()
for f in b-*.hnet; do TEACH+=(--teacher "net=$f"); done
$B label "${TEACH[@]}" --data ensb-c/cycle-001/samples.htds kjc-48/cycle-001/samples.htds \
    kjc-96/cycle-002/samples.htds wells10k-*/cycle-001/samples.htds --out lab7.htds
$B train --data lab7.htds --init "$ENSA" --out ens-b.hnet
