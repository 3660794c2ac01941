#!/usr/bin/env bash
# stash.sh save|restore RUN: carries a run folder that is still working
# (searching or refining) across a machine that is made anew between sessions (only the
# repository stays). `save` packs RUN (its settings, starting network,
# metrics and cycle folders with the master search's last save, without
# the save before it, temporaries, or the data sets of cycles already
# trained, which no later step reads; the wells of a sampled cycle that
# its refine step skips become placeholders, thin.py) into
# resume/NAME.tar.zst beside this
# script, NAME being RUN's folder name; stop the cycle first (at a save:
# the log says when one is written). `restore` unpacks it to RUN when RUN
# is not there (the cycle checks the save's checksum when it goes on,
# and refuses a damaged one). The file goes when its
# generation is packed (pack.sh): `git rm` it then.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/net.sh"
what=${1:?usage: stash.sh save|restore RUN}
R=${2:?usage: stash.sh save|restore RUN}
F=$HERE/resume/$(basename "$R").tar.zst
case $what in
  save)
    if cycle_pids "$R" > /dev/null; then
      echo "stash.sh: a cycle is running in $R; stop it first" >&2
      exit 2
    fi
    mkdir -p "$HERE/resume"
    done_sets=()
    for n in "$R"/cycle-*/net.hnet; do
      [ -f "$n" ] || continue
      c=$(basename "$(dirname "$n")")
      done_sets+=(--exclude="$(basename "$R")/$c/samples.htds" --exclude="$(basename "$R")/$c/refined.htds")
    done
    every=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["refine"].get("every", 1))' "$R/config.json")
    for s in "$R"/cycle-*/samples.htds; do
      c=$(dirname "$s")
      [ -f "$s" ] && [ -f "$c/search.json" ] && [ ! -f "$c/net.hnet" ] || continue
      # A search that wrote only the refined share (sample_only_refined)
      # left every sampled_every-th well: the refine takes every
      # (every / sampled_every)-th of those.
      kept=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("sampled_every", 1))' "$c/search.json")
      if [ $((every / kept)) -gt 1 ]; then
        python3 "$HERE/thin.py" "$s" $((every / kept))
      fi
    done
    tar -C "$(dirname "$R")" --exclude='*.prev.*' --exclude='.hatetris-*.tmp' "${done_sets[@]}" -cf - "$(basename "$R")" |
      nice -n 10 zstd -q -T2 -15 -o "$F.tmp"
    mv "$F.tmp" "$F"
    ls -la "$F"
    # .ci/budgets refuses a stash over 10 MiB: say so now, not in CI.
    if [ "$(stat -c %s "$F")" -gt $((10 * 1048576)) ]; then
      echo "stash.sh: $F is over the 10 MiB stash budget; do not commit it" >&2
      exit 2
    fi
    ;;
  restore)
    [ -f "$F" ] || { echo "stash.sh: no $F" >&2; exit 2; }
    if [ -e "$R" ]; then
      echo "stash.sh: $R is there already; left as it is" >&2
      exit 0
    fi
    mkdir -p "$(dirname "$R")"
    zstd -q -d -c "$F" | tar -C "$(dirname "$R")" -xf -
    echo "restored $R from $F"
    ;;
  *) echo "stash.sh: save or restore, not $what" >&2; exit 2 ;;
esac
