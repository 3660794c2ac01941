#!/usr/bin/env bash
# stash.sh save|restore RUN: carries a run folder that is still working
# (searching or refining) across a machine that is made anew between sessions (only the
# repository stays). `save` packs RUN (its settings, starting network,
# metrics and cycle folders with the master search's last save, without
# the save before it, temporaries, or the data sets of cycles already
# trained, which no later step reads; the wells of a sampled cycle that
# its refine step skips become placeholders, thin.py) into
# resume/NAME.tar.xz beside this script, NAME being RUN's folder name.
# A network of RUN's whose bytes HEAD's history holds already
# (net-000.hnet is latest.hnet) is left out and named by its blob in
# NAME.blobs inside the archive: a stash carries only what git does not.
# Stop the cycle first (at a save: the log says when one is written). `restore` unpacks it to RUN when RUN
# is not there (the cycle checks the save's checksum when it goes on,
# and refuses a damaged one). The file goes when its
# generation is packed (pack.sh): `git rm` it then.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/net.sh"
what=${1:?usage: stash.sh save|restore RUN}
R=${2:?usage: stash.sh save|restore RUN}
F=$HERE/resume/$(basename "$R").tar.xz
# A stash of before xz (zstd, every network inside) is still restored.
OLD=$HERE/resume/$(basename "$R").tar.zst
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
    # Networks whose bytes are a blob in HEAD's history: the archive
    # names them (blob, path) instead of carrying them.
    T=$(mktemp -d)
    trap 'rm -rf "$T"' EXIT
    blobs=$T/$(basename "$R").blobs
    : > "$blobs"
    known=$(git -C "$ROOT" rev-list --objects HEAD | cut -d' ' -f1 | sort)
    while IFS= read -r n; do
      h=$(git -C "$ROOT" hash-object "$n")
      if grep -qx "$h" <<< "$known"; then
        rel=$(realpath --relative-to="$(dirname "$R")" "$n")
        echo "$h $rel" >> "$blobs"
        done_sets+=(--exclude="$rel")
      fi
    done < <(find "$R" -name '*.hnet' | sort)
    tar --exclude='*.prev.*' --exclude='.hatetris-*.tmp' "${done_sets[@]}" -cf - \
      -C "$(dirname "$R")" "$(basename "$R")" -C "$T" "$(basename "$blobs")" |
      nice -n 10 xz -q -T2 -9 > "$F.tmp"
    mv "$F.tmp" "$F"
    [ ! -f "$OLD" ] || echo "stash.sh: $F replaces $OLD: git rm the old one" >&2
    ls -la "$F"
    # .ci/budgets refuses a stash over 10 MiB: say so now, not in CI.
    if [ "$(stat -c %s "$F")" -gt $((10 * 1048576)) ]; then
      echo "stash.sh: $F is over the 10 MiB stash budget; do not commit it" >&2
      exit 2
    fi
    ;;
  restore)
    [ -f "$F" ] || F=$OLD
    [ -f "$F" ] || { echo "stash.sh: no stash of $R in $HERE/resume" >&2; exit 2; }
    if [ -e "$R" ]; then
      echo "stash.sh: $R is there already; left as it is" >&2
      exit 0
    fi
    P=$(dirname "$R")
    mkdir -p "$P"
    case $F in
      *.xz) xz -q -d -c "$F" ;;
      *) zstd -q -d -c "$F" ;;
    esac | tar -C "$P" -xf -
    blobs=$P/$(basename "$R").blobs
    if [ -f "$blobs" ]; then
      while read -r h rel; do
        git -C "$ROOT" cat-file blob "$h" > "$P/$rel.tmp" && mv "$P/$rel.tmp" "$P/$rel" || {
          echo "stash.sh: blob $h ($rel) is not in this repository" >&2
          exit 2
        }
      done < "$blobs"
      rm "$blobs"
    fi
    echo "restored $R from $F"
    ;;
  *) echo "stash.sh: save or restore, not $what" >&2; exit 2 ;;
esac
