#!/bin/bash
# cmp.sh DIR_A NAME_A DIR_B NAME_B: A against B on each of the three suites
# and pooled over them (m-NAME.json, m-NAME-dense2.json, m-NAME-other.json
# as docs/runs/ens-e/measure.sh writes them).
B=${HATETRIS:-/work/main/target/release/hatetris}
a=$1/m-$2; b=$3/m-$4
$B compare $a.json $b.json $a-dense2.json $b-dense2.json $a-other.json $b-other.json | grep pieces
