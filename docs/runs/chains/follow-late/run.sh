#!/usr/bin/env bash
# follow-late: chains that follow one clear (--chain-follow 1) against the
# whole chain tree (and chains 2 and 6 deep) on the steady suite (late positions of gen-b's master
# games), network 37, record chains depth 4, blend 0.5, one thread each:
# the same width, then follow 1 at 1.5 times the width (about the same
# time). Writes ARM.json here; pair.py A B gives the paired differences.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../gen-b/net.sh"
study_setup
packed_net 37 "$T/n37.hnet"
# NAME:WIDTH:FOLLOW:DEPTH (q2, q6: chains 2 and 6 deep instead of 4)
for arm in tree-1k:1000:0:4 f1-1k:1000:1:4 f1-1500:1500:1:4 tree-3k:3000:0:4 f1-4500:4500:1:4 \
  q2:1000:0:2 q2-1800:1800:0:2 q6:1000:0:6; do
  IFS=: read -r name w f q <<< "$arm"
  s=$(date +%s.%N)
  "$B" strength --eval "net=$T/n37.hnet" --suite steady --width "$w" --quiescence "$q" --chain-blend 0.5 \
    --chain-follow "$f" --threads 1 --json --quiet > "$HERE/$name.json"
  echo "$name $(echo "$(date +%s.%N) - $s" | bc) s" >> "$HERE/times.txt"
done
