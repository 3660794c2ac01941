#!/usr/bin/env bash
# resume.sh: goes on with gen-b's run as current.env names it, in the
# background (detached, niced), logging to LOG (default log.txt beside
# the run folder). On a new machine the folder is restored from its stash
# (stash.sh) or, with no stash, started anew from latest.hnet, the last
# packed generation's network: with FROM's settings when that is
# generation FROM's (metrics.jsonl beside this script holds FROM
# generations), which replays the same search (the search is
# deterministic); when later generations were packed since, as a new run
# r(G+1) from generation G, with generation G+1's seed (then current.env
# is written anew: commit it). Refuses (exit 2) if the run is going
# already. HATETRIS: the binary (default this checkout's release build).
# NEW=1 starts that new run r(G+1) even though RUN's folder is here (RUN
# stopped after its generation G was packed); GAME=FILE hands a new run
# FILE as the game to go on from instead of generation G's (a restart
# from the longest game so far rather than the last one), and current.env
# keeps it (GAME, from the repository's root) for as long as it names
# that run, so that the run started anew on a new machine is the same.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/net.sh"
new_game=
if [ -n "${GAME:-}" ]; then
  [ -f "$GAME" ] || { echo "resume.sh: no game $GAME" >&2; exit 2; }
  new_game=$(realpath --relative-to="$ROOT" "$GAME")
fi
unset GAME
set -a
. "$HERE/current.env"
set +a
[ -z "$new_game" ] || GAME=$new_game
if cycle_pids "$RUN" > /dev/null; then
  echo "resume.sh: $RUN is running already" >&2
  exit 2
fi
unset INIT
# G: the generations packed so far.
G=$(wc -l < "$HERE/metrics.jsonl")
if [ -n "${NEW:-}" ] && [ "$G" -eq "$FROM" ]; then
  echo "resume.sh: NEW=1, but no generation of $RUN is packed yet (pack.sh)" >&2
  exit 2
fi
# from_end_after N: the master_from_end the recipe gives generation N+1,
# the first of a run that goes on from generation N (the binary's own
# reading of the recipe; left out of its JSON when 0).
from_end_after() {
  "${HATETRIS:-$ROOT/target/release/hatetris}" cycle --recipe "${RECIPE:-$ROOT/recipes/record.toml}" \
    --print-config $(($1 + 1)) | python3 -c 'import json, sys; print(json.load(sys.stdin).get("master_from_end", 0))'
}
if [ ! -d "$RUN" ] || [ -n "${NEW:-}" ]; then
  # A run started anew searches generation N+1 (N: the last packed one);
  # with the recipe's master_from_end 0 there it starts from the empty
  # well, and a GAME would have nothing to go on from.
  from_end=$(from_end_after "$G")
  if [ "$from_end" -eq 0 ] && [ -n "$new_game" ]; then
    echo "resume.sh: the recipe searches generation $((G + 1)) from the empty well; GAME has nothing to go on from" >&2
    exit 2
  fi
  if [ -z "${NEW:-}" ] && ls "$HERE/resume/$(basename "$RUN")".tar.* > /dev/null 2>&1; then
    bash "$HERE/stash.sh" restore "$RUN"
  else
    if [ "$G" -ne "$FROM" ]; then
      RUN=$(dirname "$RUN")/r$((G + 1)) FROM=$G SEED=$((81 + G * 0x9E3779B9))
      sed -i "s|^RUN=.*|RUN=$RUN|; s|^FROM=.*|FROM=$FROM|; s|SEED=[0-9]*|SEED=$SEED|; /^GAME=/d" "$HERE/current.env"
      GAME=$new_game
      [ -z "$GAME" ] || echo "GAME=$GAME" >> "$HERE/current.env"
      echo "resume.sh: generations to $G are packed; current.env now names the new run $RUN (commit it)"
    fi
    if [ ! -d "$RUN" ]; then
      echo "resume.sh: no stash of $RUN; starting it anew from latest.hnet (generation $FROM's network)"
      export INIT=$HERE/latest.hnet
      # Where the recipe's master search goes on from the game before's
      # end (master_from_end, from generation 37 but for 46), the new
      # run's first goes on from GAME, or else generation FROM's game, the
      # last of metrics.jsonl.
      if [ "$from_end" -ne 0 ]; then
        mkdir -p "$(dirname "$RUN")"
        if [ -n "${GAME:-}" ]; then
          export LAST_GAME=$(dirname "$RUN")/$(basename "$GAME")
          cp "$ROOT/$GAME" "$LAST_GAME"
        else
          export LAST_GAME=$(dirname "$RUN")/game-$FROM.b2048
          python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[int(sys.argv[2]) - 1])["replay"])' \
            "$HERE/metrics.jsonl" "$FROM" > "$LAST_GAME"
        fi
      fi
    fi
  fi
fi
if [ -n "$new_game" ] && [ -z "${INIT:-}" ]; then
  echo "resume.sh: GAME is for a new run (NEW=1 once a generation is packed); $RUN goes on from its own games" >&2
  exit 2
fi
B=${HATETRIS:-$ROOT/target/release/hatetris}
[ -x "$B" ] || { echo "resume.sh: no binary $B (cargo build --release)" >&2; exit 2; }
export HATETRIS=$B
LOG=${LOG:-$(dirname "$RUN")/log.txt}
mkdir -p "$(dirname "$LOG")"
# setsid makes the run a session of its own, and with autogroup
# scheduling a session shares the cores evenly with the others whatever
# its nice value: the run took a whole core from two one-thread
# measurements. So the run nices its own autogroup from inside the new
# session (/proc/self), and takes what the others leave: niced from
# outside through $!, the write can land on the caller's autogroup
# instead (setsid forks when it leads a process group), which niced the
# shell that started it and not the run.
setsid nohup nice bash -c 'echo 19 > /proc/self/autogroup 2> /dev/null; exec bash "$@"' run \
  "$HERE/run.sh" "$RUN" "${GENERATIONS:-10}" >> "$LOG" 2>&1 < /dev/null &
echo "resume.sh: $RUN goes on (log $LOG)"
