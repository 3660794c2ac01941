#!/usr/bin/env bash
# The README's "Lines by width and time" with network 29 embedded as the
# default: one plain game from the empty well a width
# (`hatetris search --width W --eval net=FILE --json`, seed 0, no chains, both
# cores), run with every other job on the machine stopped (kill -STOP), so
# the wall times are two quiet cores'. Keeps each game's JSON, replay and
# /usr/bin/time output as net29-W.*, checks each score against the
# engine's replay of the written replay, and appends to wall.tsv:
# width, lines, pieces, wall s, CPU s, peak KB. G: gen-b's generation
# whose network plays (default 29, by its packed file: `net` is the
# network embedded now); OUT: the folder they go to (default this one),
# their prefix netG (../default34: G=34 OUT=../default34).
#   usage: [G=29] [OUT=dir] wall.sh [WIDTH...]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$HERE/../../.." && pwd)
. "$root/docs/runs/gen-b/net.sh"
B=${HATETRIS:-$root/target/release/hatetris}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
G=${G:-29} OUT=$(mkdir -p "${OUT:-$HERE}" && cd "${OUT:-$HERE}" && pwd)
packed_net "$G" "$T/g.hnet"
ws=("$@"); [ ${#ws[@]} -gt 0 ] || ws=(1000 10000 30000 40000 50000 60000 80000 100000 120000)
for w in "${ws[@]}"; do
  grep -q "^$w	" "$OUT/wall.tsv" 2>/dev/null && continue
  o="$OUT/net$G-$w"
  /usr/bin/time -f '%U %S %e %M' -o "$o.time.tmp" "$B" search --width "$w" --eval "net=$T/g.hnet" \
    --json --quiet > "$o.json.tmp"
  mv "$o.json.tmp" "$o.json"; mv "$o.time.tmp" "$o.time"
  read -r lines pieces < <(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['score'], d['pieces'])" "$o.json")
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['replay'])" "$o.json" > "$o.b2048"
  v=$("$B" verify "$o.b2048" | python3 -c "import json,sys; print(json.load(sys.stdin)['score'])")
  [ "$v" = "$lines" ] || { echo "width $w: search says $lines lines, its replay $v" >&2; exit 1; }
  read -r u s e m < "$o.time"
  printf '%s\t%s\t%s\t%s\t%.1f\t%s\n' "$w" "$lines" "$pieces" "$e" "$(echo "$u + $s" | bc)" "$m" | tee -a "$OUT/wall.tsv"
done
