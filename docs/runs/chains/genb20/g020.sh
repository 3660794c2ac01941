# Sourced by the scripts that measure gen-b's generation 20 network (this
# folder's and ../../play/chains/run.sh): NET, that network (gen-b's
# latest.hnet as fa8c652 packed it), in a temporary file removed when the
# script ends. The commit is pinned: latest.hnet moves on each generation.
NET=$(mktemp --suffix .hnet)
trap 'rm -f "$NET"' EXIT
git -C "$(dirname "${BASH_SOURCE[0]}")" show fa8c652:docs/runs/gen-b/latest.hnet > "$NET"
