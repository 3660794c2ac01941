# Sourced by gen-b's scripts (games.sh, plain.sh, suites.sh and the studies):
# one place that finds a generation's network in a run folder, and one
# that compares two networks' results on the three suites.
# D4: d4's file, the yardstick (the embedded default, `net`, until
# `0975492`; `net` is generation 29 from then on).
# ROOT: the repository's root, wherever the sourcing script lies.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
D4=$ROOT/crates/eval/nets/d4.hnet
# generation_net N RUN: sets NET to the network generation N trained, or
# for N = G (FROM=G, pack.sh: RUN goes on from generation G) the network
# RUN started from; stops the script (exit 2) if it is not there.
generation_net() {
  local k=$(($1 - ${FROM:-0}))
  NET=$(printf '%s/cycle-%03d/net.hnet' "$2" "$k")
  [ "$k" -gt 0 ] || NET=$2/net-000.hnet
  [ -f "$NET" ] || { echo "$(basename "$0"): no network $NET (generation $1 not trained)" >&2; exit 2; }
}

# cycle_pids RUN: the cycle processes working in the run folder RUN
# (exit status 1 when there is none): run.sh's run is running.
cycle_pids() {
  pgrep -f "cycle --dir $1( |\$)"
}

# compare_suites BIN A B: A minus B, start by start, over the default,
# other and dense2 suites, where A and B name `A-default.json` and the rest
# (the files docs/runs/chains/screen.sh writes).
compare_suites() {
  "$1" compare "$2-default.json" "$3-default.json" "$2-other.json" "$3-other.json" "$2-dense2.json" "$3-dense2.json"
}

# The learn-step studies on a run folder (history1, fitseed, tail, lr,
# swa, gate) call these after setting HERE to their own folder.
# seed_suffix: seed, the set of noisy openings (SEED, default 0), and
# suffix, what its arms' names end in (-sS; nothing for seed 0).
seed_suffix() {
  seed=${SEED:-0}
  suffix=
  [ "$seed" = 0 ] || suffix=-s$seed
}

# study_setup: B the binary (BIN or HATETRIS, or the repository's release build), T a
# scratch folder removed when the script ends.
study_setup() {
  B=${BIN:-${HATETRIS:-$ROOT/target/release/hatetris}}
  T=$(mktemp -d)
  trap 'rm -rf "$T"' EXIT
}

# screen_net NAME NET: NET's results on the three suites (width 1,000, one
# thread) as $HERE/NAME-{default,other,dense2}.json, unless they are there.
screen_net() {
  [ -f "$HERE/$1-dense2.json" ] && return
  (cd "$ROOT" && EVAL=net=$2 BIN=$B docs/runs/chains/screen.sh "$HERE" "$1" 1000 --threads 1)
}

# suite_net SUITE EVAL OUT: the evaluator EVAL (`--eval`: net=FILE, or net
# for the default) on SUITE (`strength --suite`: a name or a file) as OUT,
# width 1,000, 250 pieces, one thread, niced, with the binary B, unless
# OUT is there; written whole or not at all, so a killed run is measured
# again.
suite_net() {
  [ -f "$3" ] || { nice "$B" strength --eval "$2" --suite "$1" --width 1000 --pieces 250 \
    --json --quiet --threads 1 > "$3.part" && mv "$3.part" "$3"; }
}

# late_net EVAL OUT: suite_net on the late suite (../late/; LATE, default
# /work/exp/late/late.htsu, the file late/run.sh writes).
late_net() {
  suite_net "${LATE:-/work/exp/late/late.htsu}" "$1" "$2"
}

# fit_as_cycle INIT DATA OUT [DATA...]: a network trained from INIT on the
# data sets into OUT with the cycle's training settings (config.json's
# "train": early stopping, up to EPOCHS epochs (default 100), patience 3),
# one thread, with the binary B, niced by NICE (default 0), fit seed
# FIT_SEED (default 0); its per-epoch lines on stdout.
fit_as_cycle() {
  local init=$1 out=$3 data=(--data "$2") d
  for d in "${@:4}"; do data+=(--data "$d"); done
  nice -n "${NICE:-0}" "$B" train "${data[@]}" --init "$init" --out "$out" --hidden 48 --seed "${FIT_SEED:-0}" --batch 8192 \
    --lr 0.001 --max-epochs "${EPOCHS:-100}" --patience 3 --validation 0.1 --loss mse --threads 1
}

# packed_net G OUT: generation G's network as the commit that packed it
# left latest.hnet (which moves on each generation), into OUT; the
# generations the studies name (from 13 on, every one: ../late/).
packed_net() {
  local c
  case $1 in
    13) c=3f7b7e0 ;;
    14) c=c4df6cf ;;
    15) c=93a4400 ;;
    16) c=377bf19 ;;
    17) c=a74208d ;;
    18) c=f975912 ;;
    19) c=3971615 ;;
    20) c=fa8c652 ;;
    21) c=988962f ;;
    22) c=c380e33 ;;
    23) c=cec6278 ;;
    24) c=39c9635 ;;
    25) c=b5221a7 ;;
    26) c=f7fed21 ;;
    27) c=e2e29a3 ;;
    28) c=e3d098a ;;
    29) c=d0cf48f ;;
    30) c=f4462a4 ;;
    31) c=2e2a3d9 ;;
    32) c=d321a17 ;;
    33) c=1079012 ;;
    34) c=e6f45b8 ;;
    35) c=5c9e300 ;;
    36) c=a1f62ce ;;
    37) c=898ae78 ;;
    38) c=763f235 ;;
    39) c=9cc577d ;;
    40) c=d860718 ;;
    41) c=abea896 ;;
    42) c=ce1012b ;;
    43) c=2bf9441 ;;
    44) c=5cff6b0 ;;
    45) c=2f86457 ;;
    46) c=285a85b ;;
    47) c=4e85d57 ;;
    48) c=cb2319c ;;
    49) c=09743de ;;
    50) c=2c21d19 ;;
    51) c=69bd5bb ;;
    52) c=fd8f378 ;;
    53) c=4bf012d ;;
    *) echo "packed_net: no packing commit recorded for generation $1" >&2; return 2 ;;
  esac
  git -C "$(dirname "${BASH_SOURCE[0]}")" show "$c:docs/runs/gen-b/latest.hnet" > "$2"
}

# study_net G OUT: network G for a study into OUT: the file NET names when
# set (a generation packed but not yet committed), else packed_net's.
study_net() {
  if [ -n "${NET:-}" ]; then cp "$NET" "$2"; else packed_net "$1" "$2"; fi
}
