#!/bin/bash
# setup.sh BOOT_RUN OUT: two runs continued from boot's cycle 18 (the
# plateau), side by side on one thread each:
#   OUT/ctl  boot's own recipe (its config.json as it is): the control;
#   OUT/op   the same with three opening games a cycle (--openings 3:
#            20 pieces of a width-30,000 search over values with noise 0.3,
#            then searched on without noise at 30,000, 512 wells a depth
#            each) and the main game sampled 1,024 a depth instead of
#            2,048, so that a cycle refines about as many wells.
# Both keep boot's cycles 16-18 (the teacher window and history need 17
# and 18) and its metrics; cycle 19's seed is the same in both, so their
# main games are the same game (87 lines). Then, in OUT:
#   hatetris cycle --dir ctl --cycles 21 --threads 1 &
#   hatetris cycle --dir op --cycles 21 --threads 1 &
set -euo pipefail
boot=$1; out=$2
for d in ctl op; do
    mkdir -p "$out/$d"
    cp "$boot"/{config.json,metrics.jsonl,net-000.hnet,suite-000.json} "$out/$d/"
    for c in 016 017 018; do cp -r "$boot/cycle-$c" "$out/$d/"; done
done
python3 - "$out/op/config.json" <<'PY'
import json, sys
p = sys.argv[1]
c = json.load(open(p))
c.update(samples_per_depth=1024, openings=3, opening_pieces=20, opening_noise=0.3,
         opening_width=30000, opening_samples=512)
json.dump(c, open(p, "w"), indent=2)
PY
