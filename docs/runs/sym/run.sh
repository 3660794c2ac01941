#!/bin/bash
# The mirror rows (docs/experiments.md, search settings), from the
# repository's root: ens-b read on the mirror image, alone and averaged with
# itself, on the three suites (compare with docs/runs/ens-b/m-ens-b*.json).
set -euo pipefail
B=${HATETRIS:-target/release/hatetris}; R=docs/runs; N=$R/ens-b/ens-b.hnet
$B strength --eval mirror:net=$N --json --quiet > m-mir.json
S=mean=net=$N,mirror:net=$N
$B strength --eval $S --json --quiet > m-sym.json
$B strength --eval $S --suite $R/ens-a/dense2.htsu --json --quiet > m-sym-dense2.json
$B strength --eval $S --suite $R/strength/other.htsu --json --quiet > m-sym-other.json
