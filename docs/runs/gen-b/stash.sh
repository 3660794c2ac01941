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
# When HEAD holds a stash of the same run already (a run paused in an
# earlier session), the new one is a zstd patch against it,
# resume/NAME.tar.zpatch (a first line naming the base's blob, then the
# patch): the samples the base carries are not committed twice, so a
# generation stashed across several sessions adds to the history only
# what each session searched (r50 at depth 820 against its stash at 400:
# 5.75 MB against 7.38 whole). Restoring follows the chain of bases
# through the history. Stop the cycle first (at a save: the log says when
# one is written; pause.sh KEEP=1 stashes a copy instead). `restore`
# unpacks it to RUN when RUN is not there (the cycle checks the save's
# checksum when it goes on, and refuses a damaged one). The file goes
# when its generation is packed (pack.sh): `git rm` it then.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/net.sh"
what=${1:?usage: stash.sh save|restore RUN}
R=${2:?usage: stash.sh save|restore RUN}
NAME=$(basename "$R")
# The stash's three forms: whole (xz), a patch against an earlier stash
# of the run, and whole in zstd (before session 86, still restored).
FORMS=(tar.xz tar.zpatch tar.zst)
PATCH_MAGIC=hatetris-stash-patch
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# unstash FILE OUT: the tar a stash file (any form) holds, into OUT,
# fetching a patch's bases from the history by their blobs.
unstash() {
  local magic base
  magic=$(head -c ${#PATCH_MAGIC} "$1" | tr -d '\0')
  if [ "$magic" = "$PATCH_MAGIC" ]; then
    base=$(head -1 "$1" | cut -d' ' -f3)
    git -C "$ROOT" cat-file blob "$base" > "$2.base" 2> /dev/null || {
      echo "stash.sh: the base $base of $1 is not in this repository" >&2
      exit 2
    }
    unstash "$2.base" "$2.base.tar"
    tail -n +2 "$1" | zstd -q -d --long=28 --patch-from="$2.base.tar" -o "$2" -f
    rm -f "$2.base" "$2.base.tar"
  elif [ "$(head -c 6 "$1" | od -An -tx1 | tr -d ' \n')" = fd377a585a00 ]; then
    xz -q -d -c "$1" > "$2"
  else
    zstd -q -d -c "$1" > "$2"
  fi
}
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
    tar --exclude='*.prev.*' --exclude='.hatetris-*.tmp' "${done_sets[@]}" -cf "$T/new.tar" \
      -C "$(dirname "$R")" "$(basename "$R")" -C "$T" "$(basename "$blobs")"
    # The run's stash that HEAD holds, if any: the base of a patch.
    rel=$(realpath --relative-to="$ROOT" "$HERE/resume")
    base=
    for form in "${FORMS[@]}"; do
      if [ -z "$base" ] && b=$(git -C "$ROOT" rev-parse -q --verify "HEAD:$rel/$NAME.$form" 2> /dev/null); then base=$b; fi
    done
    if [ -n "$base" ]; then
      F=$HERE/resume/$NAME.tar.zpatch
      git -C "$ROOT" cat-file blob "$base" > "$T/base"
      unstash "$T/base" "$T/base.tar"
      { echo "$PATCH_MAGIC 1 $base"
        # zstd prints tuning notes on stderr with every patch: shown only on failure.
        nice -n 10 zstd -q -19 --long=28 --patch-from="$T/base.tar" -c "$T/new.tar" 2> "$T/zstd.err" ||
          { cat "$T/zstd.err" >&2; exit 1; }; } > "$F.tmp"
    else
      F=$HERE/resume/$NAME.tar.xz
      nice -n 10 xz -q -T2 -9 -c "$T/new.tar" > "$F.tmp"
    fi
    # The check a restore makes, before the stash replaces any other.
    unstash "$F.tmp" "$T/check.tar"
    cmp -s "$T/new.tar" "$T/check.tar" || { echo "stash.sh: $F.tmp does not unpack to the run" >&2; exit 1; }
    for form in "${FORMS[@]}"; do
      [ "$HERE/resume/$NAME.$form" = "$F" ] || rm -f "$HERE/resume/$NAME.$form"
    done
    mv "$F.tmp" "$F"
    ls -la "$F"
    # .ci/budgets refuses a stash over 10 MiB: say so now, not in CI.
    if [ "$(stat -c %s "$F")" -gt $((10 * 1048576)) ]; then
      echo "stash.sh: $F is over the 10 MiB stash budget; do not commit it" >&2
      exit 2
    fi
    ;;
  restore)
    F=
    for form in "${FORMS[@]}"; do
      if [ -z "$F" ] && [ -f "$HERE/resume/$NAME.$form" ]; then F=$HERE/resume/$NAME.$form; fi
    done
    [ -n "$F" ] || { echo "stash.sh: no stash of $R in $HERE/resume" >&2; exit 2; }
    if [ -e "$R" ]; then
      echo "stash.sh: $R is there already; left as it is" >&2
      exit 0
    fi
    P=$(dirname "$R")
    mkdir -p "$P"
    unstash "$F" "$T/run.tar"
    tar -C "$P" -xf "$T/run.tar"
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
