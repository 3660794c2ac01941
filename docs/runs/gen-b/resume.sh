#!/usr/bin/env bash
# resume.sh: goes on with gen-b's run as current.env names it, in the
# background (detached, niced), logging to LOG (default log.txt beside
# the run folder). On a new machine the folder is restored from its stash
# (stash.sh) or, with no stash, started anew from latest.hnet when that is
# generation FROM's network (metrics.jsonl beside this script holds FROM
# generations), which replays the same search (the search is
# deterministic). Refuses (exit 2) if the run is going already or cannot
# be found. HATETRIS: the binary (default this checkout's release build).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
set -a
. "$HERE/current.env"
set +a
if pgrep -f "cycle --dir $RUN( |\$)" > /dev/null; then
  echo "resume.sh: $RUN is running already" >&2
  exit 2
fi
unset INIT
if [ ! -d "$RUN" ]; then
  if [ -f "$HERE/resume/$(basename "$RUN").tar.zst" ]; then
    bash "$HERE/stash.sh" restore "$RUN"
  elif [ "$(wc -l < "$HERE/metrics.jsonl")" -eq "$FROM" ]; then
    echo "resume.sh: no $RUN and no stash; starting it anew from latest.hnet (generation $FROM's network)"
    export INIT=$HERE/latest.hnet
  else
    echo "resume.sh: no $RUN, no stash of it, and latest.hnet is not generation $FROM's network" >&2
    exit 2
  fi
fi
B=${HATETRIS:-$HERE/../../../target/release/hatetris}
[ -x "$B" ] || { echo "resume.sh: no binary $B (cargo build --release)" >&2; exit 2; }
export HATETRIS=$B
LOG=${LOG:-$(dirname "$RUN")/log.txt}
mkdir -p "$(dirname "$LOG")"
setsid nohup nice bash "$HERE/run.sh" "$RUN" "${GENERATIONS:-10}" >> "$LOG" 2>&1 < /dev/null &
echo "resume.sh: $RUN goes on (log $LOG)"
