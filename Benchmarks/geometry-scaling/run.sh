#!/usr/bin/env bash
# Worst-case scaling of the geometry core: for each adversarial shape and size, the time to build the
# region (ring simplicity and region checks), to index it, and to locate QUERIES random points, and
# the process's peak memory (/usr/bin/time -v, one process per shape and size).
#
#   bash Benchmarks/geometry-scaling/run.sh
#
# Environment: SIZES (default "1000 10000 100000 1000000"), SHAPES (default "comb star zigzag spiral
# sliver holes"), QUERIES (default 100000), BIG_QUERIES (locations at 1,000,000 vertices, default
# QUERIES: a ray cast on a comb, star or zigzag must see k = n/4 to n/2 edges, so 100,000 locations
# there take minutes), SCRATCH (swift build scratch path, default .build).
set -euo pipefail
cd "$(dirname "$0")"
SIZES=${SIZES:-"1000 10000 100000 1000000"}
SHAPES=${SHAPES:-"comb star zigzag spiral sliver holes"}
QUERIES=${QUERIES:-100000}
BIG_QUERIES=${BIG_QUERIES:-$QUERIES}
SCRATCH=${SCRATCH:-.build}

echo "== building (release)" >&2
swift build -c release --scratch-path "$SCRATCH" >&2
BIN=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/geometry-scaling
TIMES=$(mktemp)
trap 'rm -f "$TIMES"' EXIT

printf '| shape | vertices | rings | index | validate (ms) | index (ms) | locations | locating (ms) | µs a location | mean k | peak RSS (MiB) |\n'
printf '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n'
for shape in $SHAPES; do
    for size in $SIZES; do
        Q=$QUERIES
        if (( size >= 1000000 )); then Q=$BIG_QUERIES; fi
        LINE=$(/usr/bin/time -v -o "$TIMES" "$BIN" "$shape" "$size" "$Q")
        KB=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$TIMES")
        read -r s vertices rings kind validate index locate queries k checksum <<<"$LINE"
        PER=$(awk -v ms="$locate" -v q="$queries" 'BEGIN { printf "%.2f", ms * 1000 / q }')
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
            "$s" "$vertices" "$rings" "$kind" "$validate" "$index" "$queries" "$locate" "$PER" "$k" "$((KB / 1024))"
    done
done
