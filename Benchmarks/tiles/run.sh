#!/usr/bin/env bash
# planmark tiles vs libvips (vips dzsave --layout google): the whole 256x256 PNG tile pyramid of the A0 sheet
# (14043x9933) written to disk, as whole processes: wall and CPU seconds, peak RSS, medians of interleaved runs.
#
#   Benchmarks/tiles/run.sh [--grey]     # the sheet as RGB (default), or as the 8-bit grey PNG the generator writes
#
# Jobs (see README.md for what still differs):
#   planmark   planmark tiles --image SHEET --zoom 0 -o OUT            (zlib level 3, no row filter: its defaults)
#   vips-fair  vips dzsave SHEET OUT --layout google --tile-size 256 --skip-blanks -1
#                   --suffix '.png[compression=3,filter=none]'         (same level and filter, every tile written)
#   vips       vips dzsave SHEET OUT --layout google --tile-size 256 --suffix .png   (the issue's literal command)
#   floor      planmark tiles ... --compression 0                      (decode, average, write, deflate "stored")
#
# Environment: RUNS (timed runs of each job, interleaved; default 5), SCRATCH (swift build scratch path, default
# .build), PLANMARK (a planmark binary instead of building one), PYTHON (default python3), TILES_OUT (where the
# pyramids go; default /dev/shm/planmark-tiles, a tmpfs: on ext4 the inode allocator's search after the
# previous run's 2897 files were deleted moved system time between 0.4 and 2.9 s from run to run, for both
# tools). Timings go to Benchmarks/out/tiles/ (git-ignored); data to Benchmarks/data/ (git-ignored). Last, the
# two pyramids are compared pixel by pixel (compare.py).
set -euo pipefail

GREY=0
for arg in "$@"; do
    case $arg in
        --grey) GREY=1 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "unknown argument: $arg (usage: $0 [--grey])" >&2; exit 64 ;;
    esac
done

cd "$(dirname "$0")/../.."
DATA=Benchmarks/data
LOG=Benchmarks/out/tiles
if [[ -d /dev/shm ]]; then OUT=${TILES_OUT:-/dev/shm/planmark-tiles}; else OUT=${TILES_OUT:-$LOG}; fi
RUNS=${RUNS:-5}
SCRATCH=${SCRATCH:-.build}
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT" "$LOG" "$DATA/tiles"

# 1. Dependencies: libvips-tools (the peer), GNU time (peak RSS).
bash Drawings/install-deps.sh libvips-tools time

# 2. Data: the render benchmark's A0 drawing (8-bit grey, as CAD exporters write), and the same pixels as RGB.
GREY_SHEET=$DATA/render/plan-a0.png
RGB_SHEET=$DATA/tiles/plan-a0-rgb.png
if [[ ! -s $GREY_SHEET ]]; then
    echo "== generating the A0 drawing" >&2
    "$PYTHON" -m pip install --quiet 'shapely>=2' numpy pillow
    "$PYTHON" Benchmarks/render/generate.py --out $DATA/render --a0
fi
if [[ ! -s $RGB_SHEET ]]; then
    echo "== converting it to RGB" >&2
    vips colourspace "$GREY_SHEET" "$RGB_SHEET" srgb
fi
if (( GREY )); then SHEET=$GREY_SHEET; else SHEET=$RGB_SHEET; fi

# 3. planmark, release build (skipped when PLANMARK names a binary).
if [[ -z ${PLANMARK:-} ]]; then
    echo "== building planmark (release, scratch path $SCRATCH)" >&2
    swift build -c release --scratch-path "$SCRATCH" --product planmark >&2
    PLANMARK=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/planmark
fi

# 4. Runs, interleaved: each job removes its previous output first (inside the timed command for every job alike).
declare -A COMMAND=(
    [planmark]="rm -rf $OUT/planmark && $PLANMARK tiles --image $SHEET --zoom 0 -o $OUT/planmark"
    [vips-fair]="rm -rf $OUT/vips-fair && vips dzsave $SHEET $OUT/vips-fair --layout google --tile-size 256 --skip-blanks -1 --suffix '.png[compression=3,filter=none]'"
    [vips]="rm -rf $OUT/vips && vips dzsave $SHEET $OUT/vips --layout google --tile-size 256 --suffix .png"
    [floor]="rm -rf $OUT/floor && $PLANMARK tiles --image $SHEET --zoom 0 --compression 0 -o $OUT/floor"
)
JOBS=(planmark vips-fair vips floor)
for job in "${JOBS[@]}"; do : > "$LOG/$job.times"; done
echo "== $RUNS interleaved runs of: ${JOBS[*]} on $SHEET" >&2
for run in $(seq 0 "$RUNS"); do   # run 0 warms the page cache and is not counted
    for job in "${JOBS[@]}"; do
        /usr/bin/time -f '%e %U %S %M' -o "$LOG/$job.time" sh -c "${COMMAND[$job]}"
        if (( run > 0 )); then cat "$LOG/$job.time" >> "$LOG/$job.times"; fi
    done
done

# 5. Medians, and what each wrote.
echo
printf '%-10s %8s %8s %10s %7s %10s\n' job wall_s cpu_s peak_MB tiles MB
for job in "${JOBS[@]}"; do
    tiles=$(find "$OUT/$job" -name '*.png' ! -name blank.png | wc -l)
    size=$(find "$OUT/$job" -name '*.png' ! -name blank.png -printf '%s\n' | awk '{s += $1} END {printf "%.1f", s / 1e6}')
    awk -v job="$job" -v tiles="$tiles" -v size="$size" -f Benchmarks/medians.awk "$LOG/$job.times"
done
echo
"$PYTHON" -c 'import numpy, PIL' 2>/dev/null || "$PYTHON" -m pip install --quiet numpy pillow
"$PYTHON" Benchmarks/tiles/compare.py "$OUT/planmark" "$OUT/vips-fair"
