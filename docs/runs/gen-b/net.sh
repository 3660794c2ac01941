# Sourced by games.sh, plain.sh and suites.sh: one place that finds a
# generation's network in a run folder.
# generation_net N RUN: sets NET to the network generation N trained, or
# for N = G (FROM=G, pack.sh: RUN goes on from generation G) the network
# RUN started from; stops the script (exit 2) if it is not there.
generation_net() {
  local k=$(($1 - ${FROM:-0}))
  NET=$(printf '%s/cycle-%03d/net.hnet' "$2" "$k")
  [ "$k" -gt 0 ] || NET=$2/net-000.hnet
  [ -f "$NET" ] || { echo "$(basename "$0"): no network $NET (generation $1 not trained)" >&2; exit 2; }
}
