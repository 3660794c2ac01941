#!/usr/bin/env bash
# The late-values readings (docs/experiments.md, late-values and
# frozen-values): networks 49 and 50 along master-605's own line, beside
# the rows it has frozen by then and its holes. Needs the release build of
# the diagnose example (cargo build --release -p hatetris-research
# --example diagnose) and networks 49 and 50 (packed_net in net.sh).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
B=$ROOT/target/release
. "$HERE/../net.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
packed_net 49 "$T/n49.hnet"
packed_net 50 "$T/n50.hnet"
G=$ROOT/docs/runs/gen-b/master-605.b2048
"$B/hatetris" verify "$G" > "$T/v.json"
"$B/hatetris" verify --trace "$G" > "$T/trace.jsonl"
for n in 49 50; do
  "$B/examples/diagnose" linevalues "$G" "net=$T/n$n.hnet" > "$T/lv$n.tsv"
  echo "== network $n along master-605"
  python3 "$HERE/lv.py" "$T/lv$n.tsv" "$T/v.json" "$T/trace.jsonl"
done
echo "== holes along master-605"
python3 "$HERE/holes.py" "$T/trace.jsonl"
echo "== the well's shape along master-605 against network 50's value"
python3 "$HERE/shape.py" "$T/lv50.tsv" "$T/trace.jsonl"
