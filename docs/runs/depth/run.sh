#!/bin/bash
# The depth experiment (docs/experiments.md, depth), in a work directory,
# from the repository's root: about 0.4 core-hours. Usage: run.sh WORKDIR
set -euo pipefail
ROOT=$(pwd); B=${HATETRIS:-$ROOT/target/release/hatetris}; R=$ROOT/docs/runs
cargo build --release -p hatetris-research --example diagnose
DIAG=$ROOT/target/release/examples/diagnose
mkdir -p "$1" && cd "$1"
cp $R/ens-b/ens-b.hnet .
# 1. ens-c cycle 1's wells: ens-b's width-100,000 search, seed 25 (stopped
#    once the samples are written, before refine).
$B cycle --dir c --init ens-b.hnet --cycles 1 --width 100000 --samples 2048 \
    --refine-width 50 --refine-depth 10 --suite-width 0 --seed 25 --quiet &
pid=$!; while [ ! -f c/cycle-001/search.json ]; do sleep 2; done; kill $pid; wait $pid || true
# 2. Value and lookahead of each well, then the three target sets.
$DIAG pairs net=ens-b.hnet c/cycle-001/samples.htds x.htds y.htds 50 10 25
python3 $R/depth/targets.py x.htds y.htds .
python3 $R/depth/within.py x.htds y.htds
# 3. Fine-tunes and controls.
for a in kj c05 c1; do $B train --data $a.htds --init ens-b.hnet --out ft-$a.hnet --quiet; done
for a in kj c05; do $B train --data $a.htds --init ens-b.hnet --lr 0.0001 --out ft-$a-lr4.hnet --quiet; done
for s in 1 2; do $B train --data kj.htds --init ens-b.hnet --seed $s --out ft-kj-s$s.hnet --quiet; done
$B train --data x.htds --init ens-b.hnet --out ft-x.hnet --quiet
# 4. Each on the three suites (compare with docs/runs/ens-b/m-ens-b*.json).
suite() { $B strength --eval "$1" --json --quiet > m-$2.json
  $B strength --eval "$1" --suite $R/ens-a/dense2.htsu --json --quiet > m-$2-dense2.json
  $B strength --eval "$1" --suite $R/strength/other.htsu --json --quiet > m-$2-other.json; }
for n in ft-kj ft-c05 ft-c1 ft-kj-lr4 ft-c05-lr4 ft-x; do suite net=$n.hnet $n; done
suite mean=net=ft-kj.hnet,net=ft-kj-s1.hnet,net=ft-kj-s2.hnet kj3
