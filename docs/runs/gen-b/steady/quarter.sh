#!/usr/bin/env bash
# quarter.sh: does a generation's learn step need all its refined wells? Network G-1
# fitted with the cycle's settings to a seeded quarter of generation G's
# refined wells (--max-samples: what refine_every = 16 would have
# refined, at a quarter of the refine's time), at fit seeds S, each
# measured as the cycle measures a network (steady suite; the three
# public suites; ../../falling/) and compared with network G (all the
# wells, the cycle's own seed). ALL=1: the same fits on all the wells
# (arms f1, f2...), to tell the fit seed's share of a difference from the
# quarter's. Results in ../quarterG/ (session 88: G = 50, run r50's cycle
# 1; session 89: G = 51, its cycle 2).
#   usage: [GEN=G] [FROM=F] [ALL=1] quarter.sh [RUN] [SEEDS...]
#   (GEN 50, FROM 49: RUN's cycle G-F trained generation G; RUN
#   /work/runs/gen-b/r50)
set -euo pipefail
R=${1:-/work/runs/gen-b/r50}; shift || true
SEEDS=${*:-1 2}
G=${GEN:-50}
export FROM=${FROM:-49}
C=$(printf '%s/cycle-%03d' "$R" $((G - FROM)))
HERE=$(cd "$(dirname "$0")" && pwd)/quarter$G
mkdir -p "$HERE"
. "$HERE/../../net.sh"
generation_net $((G - 1)) "$R"
INIT=$NET
study_setup
g=$(printf 'g%03d' "$G")
for f in "$C/refined.htds" "$INIT" "$HERE/../$g.json" "$HERE/../../falling/$g.json" "$HERE/../../suites/$g-dense2.json"; do
  [ -f "$f" ] || { echo "quarter.sh: no $f (generation $G not finished: finish.sh)" >&2; exit 2; }
done
quarter=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["wells_sampled"] // 4)' "$C/search.json")
a=q; subset=(--max-samples "$quarter")
[ -z "${ALL:-}" ] || { a=f; subset=(); }
for s in $SEEDS; do
  net=$T/$a$s.hnet
  if [ ! -f "$HERE/$a$s-dense2.json" ] || [ ! -f "$HERE/$a$s-steady.json" ] || [ ! -f "$HERE/$a$s-falling.json" ]; then
    nice "$B" train --data "$C/refined.htds" --init "$INIT" "${subset[@]}" \
      --seed "$s" --threads 1 --out "$net" --quiet > /dev/null
    sha256sum "$net" | cut -c1-16 > "$HERE/$a$s.sha"
  fi
  suite_net steady "net=$net" "$HERE/$a$s-steady.json"
  suite_net "$HERE/../../falling/falling.htsu" "net=$net" "$HERE/$a$s-falling.json"
  screen_net "$a$s" "$net"
done
S=$HERE/../../suites
for s in $SEEDS; do
  echo "$a$s (fit seed $s) against network $G: steady, falling, public pooled"
  "$B" compare "$HERE/$a$s-steady.json" "$HERE/../$g.json" | sed -n 2p
  "$B" compare "$HERE/$a$s-falling.json" "$HERE/../../falling/$g.json" | sed -n 2p
  compare_suites "$B" "$HERE/$a$s" "$S/$g" | tail -3 | sed -n "1p;3p"
done
