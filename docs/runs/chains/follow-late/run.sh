#!/usr/bin/env bash
# follow-late: chains that follow one clear (--chain-follow 1) against the
# whole chain tree on the steady suite (late positions of gen-b's master
# games), network 37, record chains depth 4, blend 0.5, one thread each:
# the same width, then follow 1 at 1.5 times the width (about the same
# time). Writes ARM.json here; pair.py A B gives the paired differences.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
B=${HATETRIS:-$HERE/../../../../target/release/hatetris}
. "$HERE/../../gen-b/net.sh"
packed_net 37 "$HERE/n37.hnet"
trap 'rm -f "$HERE/n37.hnet"' EXIT
for arm in tree-1k:1000:0 f1-1k:1000:1 f1-1500:1500:1 tree-3k:3000:0 f1-4500:4500:1; do
  IFS=: read -r name w f <<< "$arm"
  s=$(date +%s.%N)
  "$B" strength --eval "net=$HERE/n37.hnet" --suite steady --width "$w" --quiescence 4 --chain-blend 0.5 \
    --chain-follow "$f" --threads 1 --json --quiet > "$HERE/$name.json"
  echo "$name $(echo "$(date +%s.%N) - $s" | bc) s" >> "$HERE/times.txt"
done
