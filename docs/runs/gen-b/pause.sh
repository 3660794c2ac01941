#!/usr/bin/env bash
# pause.sh: stops gen-b's run (current.env) just after it next writes a
# file (a save of the master search every 20 depths, a refine part, a
# network), at most WAIT seconds on (default 900), and stashes it
# (stash.sh save) so that a new machine goes on from there (resume.sh).
# Each file the cycle writes is written whole (a temporary renamed), so a
# stop at any moment loses only the work since the last one. A session
# that would otherwise lose more than about an hour of the run's work ends
# with this, then commits resume/.
# KEEP=1 leaves the cycle running: just after its next file it stashes a
# copy of the run folder taken then (each file is whole, and the next
# write is minutes away), so the session's last minutes still search and
# the machine, if it is kept, goes on from its own later save.
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
  if [ -n "${KEEP:-}" ]; then
    T=$(mktemp -d)
    trap 'rm -rf "$T"' EXIT
    cp -a "$RUN" "$T/"
    echo "pause.sh: copied $RUN as it was at $(date -u +%H:%M:%S); the cycle goes on"
    bash "$HERE/stash.sh" save "$T/$(basename "$RUN")"
    exit 0
  fi
  kill $pid
  while kill -0 $pid 2> /dev/null; do sleep 1; done
  echo "pause.sh: stopped $RUN"
fi
bash "$HERE/stash.sh" save "$RUN"
