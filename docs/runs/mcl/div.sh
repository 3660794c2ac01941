cd /work/runs/mcl
for cfg in "20 1.0" "40 0.3" "40 1.0" "10 0.3"; do
  set -- $cfg
  /usr/bin/time -f "%e s" ./hatetris2.bin games --open $1 --noise $2 --json --quiet > div-o$1-n$2.json 2> div-o$1-n$2.time
  python3 -c "
import json; e=json.load(open('div-o$1-n$2.json'))['evals'][0]; l=[g['lines'] for g in e['games']]
print('open $1 noise $2', e['mean_lines'], min(l), max(l), e['distinct'], e['mean_frozen_per_100'])"
done
