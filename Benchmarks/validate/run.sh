#!/usr/bin/env bash
# planmark validate vs shapely 2.x: 1,000,000 markers against 2000 rooms, end to end, same files, same report.
#
#   Benchmarks/validate/run.sh
#
# Environment: RUNS (timed runs each, default 3), SCRATCH (swift build scratch path, default .build),
# PLANMARK (a planmark binary to use instead of building one), PYTHON (default python3). Outputs go to Benchmarks/out/ (git-ignored); the data to Benchmarks/data/.
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT=$PWD
HERE=Benchmarks/validate
DATA=Benchmarks/data
OUT=Benchmarks/out
RUNS=${RUNS:-3}
SCRATCH=${SCRATCH:-.build}
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"

# 1. Python dependencies.
if ! "$PYTHON" -c 'import shapely, numpy; assert int(shapely.__version__.split(".")[0]) >= 2' 2>/dev/null; then
    echo "== installing shapely and numpy" >&2
    "$PYTHON" -m pip install --quiet 'shapely>=2' numpy
fi

# 2. Data.
if [[ ! -s $DATA/regions.geojson || ! -s $DATA/markers.csv ]]; then
    echo "== generating $DATA" >&2
    /usr/bin/time -f "generate: %e s wall, %M KB peak RSS" "$PYTHON" $HERE/generate.py --out $DATA
fi

# 3. planmark, release build (skipped when PLANMARK names a binary).
if [[ -z ${PLANMARK:-} ]]; then
    echo "== building planmark (release, scratch path $SCRATCH)" >&2
    swift build -c release --scratch-path "$SCRATCH" --product planmark >&2
    PLANMARK=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/planmark
fi

PM_CMD="$PLANMARK validate --regions $DATA/regions.geojson --size 20000x15000 --report jsonl $DATA/markers.csv > $OUT/planmark.jsonl"
SH_CMD="$PYTHON $HERE/shapely_validate.py --regions $DATA/regions.geojson --size 20000x15000 $DATA/markers.csv > $OUT/shapely.jsonl"

# 4. Peak memory: one run each under /usr/bin/time -v (exit status 1 = some markers invalid, expected).
rss() { # prints "seconds kilobytes"
    /usr/bin/time -v -o "$OUT/time.txt" sh -c "$1" || true
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
                /Maximum resident set size/ { kb = $2 }
                END { printf "%.2f %d\n", s, kb }' "$OUT/time.txt"
}
echo "== peak memory (one run each)" >&2
read -r PM_ONE PM_RSS < <(rss "$PM_CMD")
read -r SH_ONE SH_RSS < <(rss "$SH_CMD")

# 5. Timing.
if command -v hyperfine >/dev/null; then
    echo "== timing with hyperfine ($RUNS runs each)" >&2
    hyperfine --ignore-failure --warmup 1 --runs "$RUNS" --export-json "$OUT/hyperfine.json" \
        -n planmark "$PM_CMD" -n shapely "$SH_CMD" >&2
    read -r PM_T PM_SD SH_T SH_SD < <("$PYTHON" -c '
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
print(r["planmark"]["mean"], r["planmark"]["stddev"] or 0, r["shapely"]["mean"], r["shapely"]["stddev"] or 0)
' "$OUT/hyperfine.json")
    HOW="hyperfine, mean of $RUNS runs"
else
    echo "== hyperfine not found (apt-get install -y hyperfine); timing one run each with /usr/bin/time" >&2
    PM_T=$PM_ONE; PM_SD=0; SH_T=$SH_ONE; SH_SD=0
    HOW="/usr/bin/time, one run"
fi

# 6. Same answers?
echo "== comparing reports" >&2
set +e
CMP=$("$PYTHON" $HERE/compare.py "$OUT/planmark.jsonl" "$OUT/shapely.jsonl")
CMP_RC=$?
set -e
echo "$CMP"

# 7. Table.
"$PYTHON" - "$PM_T" "$PM_SD" "$PM_RSS" "$SH_T" "$SH_SD" "$SH_RSS" "$HOW" "$CMP_RC" <<'EOF'
import sys
pm_t, pm_sd, pm_rss, sh_t, sh_sd, sh_rss = (float(v) for v in sys.argv[1:7])
how, rc = sys.argv[7], sys.argv[8]
print()
print(f"1,000,000 markers x 2000 rooms, end to end ({how})")
print("| tool                 | time (s)       | peak RSS (MiB) |")
print("|----------------------|----------------|----------------|")
print(f"| planmark validate    | {pm_t:6.2f} ± {pm_sd:5.2f} | {pm_rss / 1024:14.0f} |")
print(f"| shapely 2.x + numpy  | {sh_t:6.2f} ± {sh_sd:5.2f} | {sh_rss / 1024:14.0f} |")
print(f"speed-up: {sh_t / pm_t:.1f}x   answers: {'identical' if rc == '0' else 'DIFFERENT (see above)'}")
EOF
exit "$CMP_RC"
