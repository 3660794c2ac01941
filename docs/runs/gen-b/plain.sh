#!/usr/bin/env bash
# plain.sh N [RUN]: generation N's master search again without chains, as
# the record engine's table sets its master games with and without: the
# network generation N searched with (generation N-1's), the width and seed
# of the run's config, one thread, niced behind the run (NICE, default 15). Appends lines,
# pieces and CPU seconds to plain.tsv beside this script. FROM=G: RUN is a
# run that goes on from generation G (pack.sh); its starting network is
# generation G's.
set -euo pipefail
N=$1
R=${2:-/work/runs/gen-b/r}
HERE=$(cd "$(dirname "$0")" && pwd)
K=$((N - ${FROM:-0}))
[ "$N" -gt 1 ] || { echo "plain.sh: generation $N has no network before it" >&2; exit 2; }
. "$HERE/net.sh"
generation_net $((N - 1)) "$R"  # the network generation N searched with
B=${BIN:-$HERE/../../../target/release/hatetris}
# The cycle's seed for generation N (`CycleConfig::cycle_seed`).
read -r WIDTH SEED < <(python3 -c "import json; c=json.load(open('$R/config.json')); print(c['width'], (c['seed'] + $K * 0x9E3779B9) % 2**64)")
T=$(mktemp -d)
/usr/bin/time -f '%U' -o "$T/time" nice -n "${NICE:-15}" "$B" search --eval "net=$NET" --width "$WIDTH" --seed "$SEED" \
  --quiescence 0 --threads 1 --json --quiet > "$T/out.json"
[ -f "$HERE/plain.tsv" ] || printf 'generation\twidth\tlines\tpieces\tcpu_s\treplay\n' > "$HERE/plain.tsv"
python3 - "$T" "$N" "$WIDTH" >> "$HERE/plain.tsv" <<'PY'
import json, sys
t, n, w = sys.argv[1:4]
j = json.load(open(f"{t}/out.json"))
print(f"{n}\t{w}\t{j['score']}\t{j['pieces']}\t{open(f'{t}/time').read().strip()}\t{j['replay']}")
PY
rm -rf "$T"
