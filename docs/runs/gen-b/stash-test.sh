#!/usr/bin/env bash
# Tests stash.sh in a scratch repository: a run stashed three times across
# commits (whole, then patches on patches) restores byte for byte, a
# network the history holds is named rather than carried, each patch
# carries about what was added since its base, and a damaged stash fails
# rather than restoring something else. About 10 s; .ci/run calls it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "stash-test: $*" >&2; exit 1; }
repo=$t/repo
g=$repo/docs/runs/gen-b
mkdir -p "$g"
cp "$here/stash.sh" "$here/net.sh" "$here/thin.py" "$g/"
head -c 300000 /dev/urandom > "$g/latest.hnet"
git -C "$repo" init -q . && git -C "$repo" config user.email ci@localhost && git -C "$repo" config user.name ci
git -C "$repo" add -A && git -C "$repo" commit -qm base
run=$t/runs/rt
mkdir -p "$run/cycle-001"
echo '{"refine": {"every": 4}}' > "$run/config.json"
cp "$g/latest.hnet" "$run/net-000.hnet"
grow() { head -c "$1" /dev/urandom >> "$run/cycle-001/search.htsc"; }
stash() { bash "$g/stash.sh" save "$run" > /dev/null && git -C "$repo" add -A && git -C "$repo" commit -qm "stash $1"; }
grow 500000
stash 1
[ -f "$g/resume/rt.tar.xz" ] || fail "no whole stash"
xz -dc "$g/resume/rt.tar.xz" | tar tf - | grep -q net-000.hnet && fail "the network the history holds was carried"
grow 400000
stash 2
[ -f "$g/resume/rt.tar.zpatch" ] && [ ! -e "$g/resume/rt.tar.xz" ] || fail "no patch in place of the whole stash"
size=$(stat -c %s "$g/resume/rt.tar.zpatch")
[ "$size" -gt 400000 ] && [ "$size" -lt 450000 ] || fail "a patch of $size bytes for 400,000 new ones"
grow 300000
stash 3
size=$(stat -c %s "$g/resume/rt.tar.zpatch")
[ "$size" -gt 300000 ] && [ "$size" -lt 350000 ] || fail "a patch on a patch of $size bytes for 300,000 new ones"
mv "$run" "$t/kept"
bash "$g/stash.sh" restore "$run" > /dev/null
diff -r "$run" "$t/kept" || fail "the restored run differs"
[ ! -e "$t/runs/rt.blobs" ] || fail "the blob list was left beside the run"
# A damaged patch fails, and leaves no run behind to be taken for whole.
rm -rf "$run"
head -c -1000 "$g/resume/rt.tar.zpatch" > "$t/cut" && mv "$t/cut" "$g/resume/rt.tar.zpatch"
if bash "$g/stash.sh" restore "$run" > /dev/null 2>&1; then fail "a truncated patch restored"; fi
[ ! -e "$run" ] || fail "a truncated patch left a run folder"
echo "stash-test: three stashes restore whole; a damaged one is refused"
