#!/usr/bin/env bash
# finish.sh G [RUN]: the steps after generation G ends in RUN (default:
# the run current.env names, with its FROM; FROM=F for a run that goes on
# from generation F, as pack.sh): packs the run (pack.sh), then measures
# network G in the order the generations table reads it, each measure
# skipped when its file is there already (so a killed finish goes on):
#   1. the steady suite's curve (steady/run.sh G) and the falling
#      stretch's (falling/), each row appended to its curve.tsv when
#      missing, and G against G-1 on the falling stretch, paired;
#   2. G against G-1 on the steady suite, paired
#      (steady/m-steady-G-vs-(G-1).json);
#   3. the three public suites (suites.sh), against G-1 and against 29,
#      pooled;
#   4. `games` (games.sh), Welch against G-1 and against 29;
#   5. the generations table (table.py) for README.md.
# WAIT=1 waits (a minute a look) for the cycle to record G first, so that
# it can be started beside a running generation; NOPACK=1 skips pack.sh
# (a generation packed already). HATETRIS (or BIN) names the binary,
# default this checkout's release build (it must report rows_frozen_at).
# What is left by hand: the table and paragraphs of the READMEs, and G's
# packing commit in net.sh's packed_net once this is committed.
set -euo pipefail
G=${1:?usage: finish.sh G [RUN]}
HERE=$(cd "$(dirname "$0")" && pwd)
if [ $# -ge 2 ]; then
  R=$2
else
  read -r R run_from < <(. "$HERE/current.env" && echo "$RUN $FROM")
  FROM=${FROM:-$run_from}
fi
export FROM=${FROM:-0}
k=$((G - FROM))
[ "$k" -gt 0 ] || { echo "finish.sh: generation $G is not one of RUN's (FROM=$FROM)" >&2; exit 2; }
[ -d "$R" ] || { echo "finish.sh: no run folder $R" >&2; exit 2; }
# The cycle writes its metrics line last, after the network and its suite.
recorded() { [ -f "$R/metrics.jsonl" ] && [ "$(wc -l < "$R/metrics.jsonl")" -ge "$k" ]; }
until recorded; do
  [ -n "${WAIT:-}" ] || { echo "finish.sh: generation $G is not recorded in $R/metrics.jsonl yet (WAIT=1 waits)" >&2; exit 2; }
  sleep 60
done
[ -n "${NOPACK:-}" ] || bash "$HERE/pack.sh" "$R"
. "$HERE/net.sh"
generation_net "$G" "$R"
B=${HATETRIS:-${BIN:-$ROOT/target/release/hatetris}}
export HATETRIS=$B BIN=$B
prev=$((G - 1))
g3() { printf 'g%03d' "$1"; }

echo "== 1. steady curve"
row=$(cd "$HERE/steady" && NET=$NET bash run.sh "$G")
echo "$row"
grep -q "^$G	" "$HERE/steady/curve.tsv" || echo "$row" >> "$HERE/steady/curve.tsv"
F=$HERE/falling
row=$(cd "$HERE/steady" && NET=$NET SUITE=$F/falling.htsu OUT=$F bash run.sh "$G")
echo "falling: $row"
grep -q "^$G	" "$F/curve.tsv" || echo "$row" >> "$F/curve.tsv"
[ ! -f "$F/$(g3 "$prev").json" ] || "$B" compare "$F/$(g3 "$G").json" "$F/$(g3 "$prev").json" | tail -3

echo "== 2. $G - $prev on the steady suite, paired"
m=$HERE/steady/m-steady-$G-vs-$prev.json
if [ -f "$m" ]; then
  "$B" compare "$m" "$m#1"
else
  (cd "$HERE/steady" && BASE=$prev T=1 bash ../../steady-a/measure.sh "$NET" "$G" steady)
fi

echo "== 3. public suites"
[ -f "$HERE/suites/$(g3 "$G")-dense2.json" ] || bash "$HERE/suites.sh" "$G" "$R" > /dev/null
for o in "$prev" 29; do
  a=$HERE/suites/$(g3 "$G") b=$HERE/suites/$(g3 "$o")
  echo "-- against $o"
  compare_suites "$B" "$a" "$b" | sed -n '/^pooled/,$p'
done

echo "== 4. games"
[ -f "$HERE/games/games-$(g3 "$G").json" ] || bash "$HERE/games.sh" "$G" "$R" > /dev/null
python3 "$HERE/../chains/welch.py" "$HERE/games" "$(g3 "$prev")" "$(g3 "$G")"
python3 "$HERE/../chains/welch.py" "$HERE/games" g029 "$(g3 "$G")"

echo "== 5. table"
python3 "$HERE/table.py"
if [ -n "${ITEM4:-}" ]; then
  g=$(printf 'g%03d' "$G") P=${PLAIN:-60000}
  NET=$HERE/latest.hnet bash "$HERE/../play/games/run.sh" "$g" & chained=$!
  NET=$HERE/latest.hnet G=$G PLAIN=$P OUT=$HERE/../chains/eq$G \
    bash "$HERE/../chains/eqd2/run.sh" plain & plain=$!
  wait "$chained"; wait "$plain"
  python3 "$HERE/../chains/welch.py" "$HERE/../play/games" "${DEFAULT:-g029}" "$g"
  python3 "$HERE/../chains/welch.py" "$HERE/../chains/eq$G" "plain$((P / 1000))k" "../../play/games/$g"
fi
