#!/usr/bin/env bash
# planmark validate --report csv against its fair peer (shapely 2 + numpy + pyarrow, vectorised, writing
# the byte-identical report) and against the floor (a C read + parse + write of the same files on one
# core), on two data sets of 1,000,000 markers x 2,000 rooms: the generator's mixed rooms and simple
# rectangular rooms.
#
#   Benchmarks/validate/run.sh
#
# Environment: RUNS (timed runs each, default 5), SCRATCH (swift build scratch path, default .build),
# PLANMARK (a planmark binary to use instead of building one), PYTHON (default python3).
# Outputs go to Benchmarks/out/ (git-ignored); the data to Benchmarks/data/ and Benchmarks/data/simple/.
# Exit status 0 when planmark's report and the peer's are byte-identical on both data sets.
set -euo pipefail

cd "$(dirname "$0")/../.."
HERE=Benchmarks/validate
DATA=Benchmarks/data
OUT=Benchmarks/out
RUNS=${RUNS:-5}
SCRATCH=${SCRATCH:-.build}
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"

# 1. Python dependencies.
if ! "$PYTHON" -c 'import shapely, numpy, pyarrow; assert int(shapely.__version__.split(".")[0]) >= 2' 2>/dev/null; then
    echo "== installing shapely, numpy and pyarrow" >&2
    "$PYTHON" -m pip install --quiet 'shapely>=2' numpy pyarrow
fi

# 2. Data (about 10 s each on an idle machine).
if [[ ! -s $DATA/regions.geojson || ! -s $DATA/markers.csv ]]; then
    echo "== generating $DATA (mixed rooms)" >&2
    "$PYTHON" $HERE/generate.py --out $DATA
fi
if [[ ! -s $DATA/simple/regions.geojson || ! -s $DATA/simple/markers.csv ]]; then
    echo "== generating $DATA/simple (rectangular rooms)" >&2
    "$PYTHON" $HERE/generate.py --rooms simple --out $DATA/simple
fi

# 3. planmark, release build (skipped when PLANMARK names a binary), and the floor program.
if [[ -z ${PLANMARK:-} ]]; then
    echo "== building planmark (release, scratch path $SCRATCH)" >&2
    swift build -c release --scratch-path "$SCRATCH" --product planmark >&2
    PLANMARK=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/planmark
fi
cc -O2 -o "$OUT/floor" $HERE/floor.c

# Whole-process wall seconds and peak RSS (KiB) of one run of a shell command, from /usr/bin/time -v.
measure() {
    /usr/bin/time -v -o "$OUT/time.txt" sh -c "$1" >/dev/null 2>&1 || true
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
                /Maximum resident set size/ { kb = $2 }
                END { printf "%.3f %d\n", s, kb }' "$OUT/time.txt"
}

# Median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

STATUS=0
for SET in mixed simple; do
    D=$DATA; [[ $SET == simple ]] && D=$DATA/simple
    PM="$PLANMARK validate --regions $D/regions.geojson --size 20000x15000 --report csv $D/markers.csv > $OUT/planmark-$SET.csv"
    PEER="$PYTHON $HERE/peer_validate.py --regions $D/regions.geojson --size 20000x15000 $D/markers.csv > $OUT/peer-$SET.csv"
    PM1="taskset -c 0 $PLANMARK validate --regions $D/regions.geojson --size 20000x15000 --report csv $D/markers.csv > $OUT/planmark1-$SET.csv"
    FLOOR="taskset -c 0 $OUT/floor $D/regions.geojson $D/markers.csv > $OUT/floor-$SET.csv"

    # Interleaved runs: planmark, peer, planmark on one core, floor on one core, and again.
    echo "== $SET rooms: $RUNS interleaved runs of each" >&2
    : > "$OUT/runs-$SET.txt"
    for ((i = 0; i < RUNS; i++)); do
        for NAME in planmark peer planmark1 floor; do
            case $NAME in planmark) C=$PM ;; peer) C=$PEER ;; planmark1) C=$PM1 ;; floor) C=$FLOOR ;; esac
            echo "$NAME $(measure "$C")" >> "$OUT/runs-$SET.txt"
        done
    done

    if cmp -s "$OUT/planmark-$SET.csv" "$OUT/peer-$SET.csv"; then SAME=identical; else SAME=DIFFERENT; STATUS=1; fi
    row() { # name -> "median_seconds median_peak_MiB"
        local t m
        t=$(awk -v n="$1" '$1 == n { print $2 }' "$OUT/runs-$SET.txt" | median)
        m=$(awk -v n="$1" '$1 == n { print $3 / 1024 }' "$OUT/runs-$SET.txt" | median)
        echo "$t $m"
    }
    read -r PM_T PM_M < <(row planmark)
    read -r PE_T PE_M < <(row peer)
    read -r P1_T P1_M < <(row planmark1)
    read -r FL_T FL_M < <(row floor)
    echo
    echo "$SET rooms, 1,000,000 markers x 2,000 rooms, --report csv (medians of $RUNS interleaved runs, whole process)"
    printf "| %-40s | %8s | %14s |\n" "command" "wall (s)" "peak RSS (MiB)"
    printf "| %-40s | %8.2f | %14.0f |\n" "planmark validate (all cores)" "$PM_T" "$PM_M"
    printf "| %-40s | %8.2f | %14.0f |\n" "peer: shapely + numpy + pyarrow" "$PE_T" "$PE_M"
    printf "| %-40s | %8.2f | %14.0f |\n" "planmark validate, one core (taskset)" "$P1_T" "$P1_M"
    printf "| %-40s | %8.2f | %14.0f |\n" "floor: C read+parse+write, one core" "$FL_T" "$FL_M"
    awk -v a="$PE_T" -v b="$PM_T" -v c="$P1_T" -v d="$FL_T" -v s="$SAME" \
        'BEGIN { printf "peer / planmark: %.1fx   planmark one core / floor: %.1fx   reports: %s\n", a / b, c / d, s }'
done
exit "$STATUS"
