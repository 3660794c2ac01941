#!/usr/bin/env bash
# finish.sh G [RUN]: the steps after generation G ends in RUN (default:
# the run current.env names, with its FROM; FROM=F for a run that goes on
# from generation F, as pack.sh): packs the run (pack.sh), measures G's network on the three
# suites against G-1's (suites.sh) and in `games` (games.sh), compares its
# games with G-1's (Welch) and prints the generations table (table.py) for
# README.md. WAIT=1 waits (a minute a look) for the cycle to record G
# first, so that it can be started beside a running generation. What is
# left by hand: the table and paragraphs of the READMEs, and G's packing
# commit in net.sh's packed_net once this is committed.
# ITEM4=1 also plays issue #45's two `games` tests of network G, side by
# side on one thread each (about 45 minutes; stop the generation run
# first for clean CPU times): item 4, its chained arm
# (../play/games/run.sh gGGG) against the default's (DEFAULT, g029), and
# bar 4, the same chained arm against network G plain at width PLAIN
# (60,000) in ../chains/eqGG/ (../chains/eqd2/run.sh).
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
bash "$HERE/pack.sh" "$R"
bash "$HERE/suites.sh" "$G" "$R"
bash "$HERE/games.sh" "$G" "$R"
python3 "$HERE/../chains/welch.py" "$HERE/games" "$(printf 'g%03d' $((G - 1)))" "$(printf 'g%03d' "$G")"
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
