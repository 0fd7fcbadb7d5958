#!/bin/sh
# A revise of 300,000 markers on the sample sheet: whole-process wall time and peak memory (/usr/bin/time -v) of
#   planmark drawing revise plan plan.png --align "0,0=10,5;100,0=110,5"
# on a fresh copy of a store holding them (the copy is made before the timed command, not timed), and of the same
# command with --dry-run (reads, transforms and validates every marker; writes nothing).
# Usage: bash Benchmarks/revise/run.sh [RUNS]   (build first: swift build -c release --product planmark)
set -eu
runs=${1:-5}
root=$(cd "$(dirname "$0")/../.." && pwd)
planmark=$root/.build/release/planmark
out=$root/Benchmarks/out/revise
mkdir -p "$out"
cd "$out"
python3 - <<'PY'
import random
r = random.Random(12)
with open('markers.csv', 'w') as f:
    f.write('x,y\n')
    n = 0
    while n < 300000:
        x = r.uniform(210, 1790); y = r.uniform(160, 1240)
        if 640 <= x <= 960 and 790 <= y <= 1010:  # the allowed area's hole
            continue
        f.write(f'{x:.2f},{y:.2f}\n'); n += 1
PY
rm -f base.sqlite base.sqlite-*
"$planmark" drawing add "$root/Drawings/sample/plan.png" --name plan --regions "$root/Drawings/sample/regions.geojson" --store base.sqlite
"$planmark" import plan markers.csv --store base.sqlite
for mode in revise dry-run; do
    extra=""; [ "$mode" = dry-run ] && extra=--dry-run
    for i in $(seq "$runs"); do
        rm -f work.sqlite work.sqlite-*; cp base.sqlite work.sqlite
        /usr/bin/time -f "$mode wall %e s, peak %M KiB" "$planmark" drawing revise plan "$root/Drawings/sample/plan.png" \
            --align "0,0=10,5;100,0=110,5" $extra --store work.sqlite > /dev/null
    done
done
