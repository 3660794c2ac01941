#!/usr/bin/env bash
# pause.sh: stops gen-b's run (current.env) just after it next writes a
# file (a save of the master search every 20 depths, a refine part, a
# network), at most WAIT seconds on (default 900), and stashes it
# (stash.sh save) so that a new machine goes on from there (resume.sh).
# Each file the cycle writes is written whole (a temporary renamed), so a
# stop at any moment loses only the work since the last one. A session
# that would otherwise lose more than about an hour of the run's work ends
# with this, then commits resume/.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/current.env"
. "$HERE/net.sh"
newest() { find "$RUN" -type f ! -name '*.tmp' ! -name '.hatetris-*' -printf '%T@\n' | sort -n | tail -1; }
pid=$(cycle_pids "$RUN" || true)
if [ -n "$pid" ]; then
  last=$(newest)
  for _ in $(seq "${WAIT:-900}"); do
    [ "$(newest)" = "$last" ] || break
    sleep 1
  done
  kill $pid
  while kill -0 $pid 2> /dev/null; do sleep 1; done
  echo "pause.sh: stopped $RUN"
fi
bash "$HERE/stash.sh" save "$RUN"
