# Sourced by cross.sh and calib.sh: one game from the empty well as the
# lineages' master searches play it (width 20,000, chains of depth 4 on
# every candidate, seed 45), one thread, niced.
#   game EVAL RULE OUT   RULE: sz, record, or plain (no chains); OUT is
#   written whole or not at all, with the wall time and peak memory in
#   OUT.time; skipped if OUT is there.
game() {
  [ -s "$3" ] && return 0
  if [ "$2" = plain ]; then chains=(--quiescence 0); else chains=(--quiescence 4 --chain-rule "$2" --chain-band 0); fi
  /usr/bin/time -f '%e s %M KB' -o "$3.time" nice -n 10 "$B" search --eval "$1" --width 20000 "${chains[@]}" \
    --seed 45 --threads 1 --json --quiet > "$3.part"
  mv "$3.part" "$3"
}
