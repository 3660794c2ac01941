#!/usr/bin/env bash
# master-480 searched on from piece 450 (its second row still open: the
# trunk changed it last at 561) with the master's chains (record, depth 4,
# every candidate, blend 0.5), seed 0, one thread, at each WIDTH given;
# NET=G takes gen-b's packed network G (default 47). Writes
# w<WIDTH>n<G>.json (search, without its replay), .b2048 (the replay)
# and .verify.json (hatetris verify) here, and the search's CPU seconds
# as .cpu. PLAIN=1 searches without chains (files p<WIDTH>n<G>.*): the
# rival at equal CPU time.
# usage: [NET=G] [PLAIN=1] run.sh WIDTH...
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
G=$HERE/..
. "$G/net.sh"
study_setup
n=${NET:-47}
packed_net "$n" "$T/n$n.hnet"
chains=(--quiescence 4 --chain-rule record --chain-band 0 --chain-blend 0.5)
tag=w
if [ "${PLAIN:-0}" = 1 ]; then chains=(); tag=p; fi
for w in "$@"; do
  out=$HERE/$tag${w}n$n
  [ -f "$out.json" ] && continue
  /usr/bin/time -f %U -o "$T/cpu" "$B" search --eval "net=$T/n$n.hnet" --width "$w" --seed 0 \
    "${chains[@]}" --threads 1 --from "$G/master-480.b2048" --at 450 \
    --out "$T/w.b2048" --json --quiet > "$T/w.json"
  cp "$T/w.b2048" "$out.b2048"
  mv "$T/cpu" "$out.cpu"
  "$B" verify "$out.b2048" > "$out.verify.json"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("replay"); print(json.dumps(d))' "$T/w.json" > "$out.json"
done
