#!/usr/bin/env bash
# Needs /tmp/hatetris-floor: this checkout with floor.patch applied (git apply), built
# (cargo build --release) and copied there; /tmp/n45.hnet from net.sh packed_net 45.
# floor probe: network 45, width W, record chains depth 4 blend 0.5, from the empty well to piece D,
# with HATETRIS_FLOOR=λ for each λ given.
set -euo pipefail
W=${W:-20000}; D=${D:-150}
B=${HATETRIS:-$(cd "$(dirname "$0")/../../../.." && pwd)/target/release/hatetris}
mkdir -p /tmp/floor
for l in "$@"; do
  out=/tmp/floor/w$W-d$D-l$l${MODE:+-$MODE}.b2048
  [ -f "$out" ] && continue
  s=$(date +%s)
  HATETRIS_FLOOR_MODE=${MODE:-} HATETRIS_FLOOR=$l /tmp/hatetris-floor search --width $W --eval net=/tmp/n45.hnet --quiescence 4 --chain-blend 0.5 \
    --max-depth $D --threads 1 --quiet --json --out "$out" > "${out%.b2048}.json"
  echo "λ=$l ${MODE:-} W=$W D=$D $(( $(date +%s) - s ))s $("$B" verify "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["score"], d["pieces"], d["rows_frozen_at"][:4])')" >> /tmp/floor/log.txt
done
