#!/usr/bin/env bash
# planmark tiles vs libvips on a vector PDF: the whole 256x256 PNG tile pyramid of an A0 page (1189 x 841 mm, lines,
# hatching, text) drawn at 300 dpi, written to a folder, as whole processes: wall and CPU seconds, peak RSS, medians
# of interleaved runs; then the pixels against pdftoppm -r 300, and the first cold tile through the server.
#
#   Benchmarks/pdf/run.sh [--hatch]     # --hatch: the same page with every room's floor hatched (10,000 more lines)
#
# Jobs (README.md says what still differs):
#   planmark   planmark tiles A0 -o OUT     (a store with plan-a0.pdf added --dpi 300 --no-tiles; zlib level 3, no row
#                                            filter: its defaults; the page drawn by the child planmark-pdf)
#   vips-rgb   vips_rgb.py plan-a0.pdf 300 OUT   (pyvips: pdfload dpi=300, alpha dropped, dzsave google, 256 px,
#                                            png compression=3 filter=none, every tile: the fair peer)
#   vips-fair  vips dzsave 'plan-a0.pdf[dpi=300]' OUT --layout google --tile-size 256 --skip-blanks -1
#                   --suffix '.png[compression=3,filter=none]'     (the same from the command line: RGBA tiles)
#   vips       vips dzsave 'plan-a0.pdf[dpi=300]' OUT --layout google --tile-size 256 --suffix .png  (the issue's)
#   stored     planmark tiles A0 --compression 0 -o OUT  (deflate's stored blocks: what compressing the tiles costs)
#   floor      planmark-pdf render plan-a0.pdf --page 1 --dpi 300 > /dev/null   (the page drawn once, no tiles)
#   pdftoppm   pdftoppm -r 300 plan-a0.pdf > /dev/null                          (poppler's own tool, splash)
#
# Environment: RUNS (timed runs of each job, interleaved; default 5), SCRATCH (swift build scratch path, default
# .build), BIN (a folder with release planmark, planmark-pdf and planmark-server instead of building them), OUT (where
# the pyramids go; default /dev/shm/planmark-pdf, a tmpfs), FIRST_TILE_RUNS (cold starts of the server per tile;
# default 5; 0 skips). Timings go to Benchmarks/out/pdf/ (git-ignored); data to Benchmarks/data/pdf (git-ignored).
set -euo pipefail
HATCH=""
case ${1:-} in
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    --hatch) HATCH=-hatched ;;
    "") ;;
    *) echo "usage: $0 [--hatch]" >&2; exit 64 ;;
esac

cd "$(dirname "$0")/../.."
DATA=Benchmarks/data/pdf
LOG=Benchmarks/out/pdf
OUT=${OUT:-/dev/shm/planmark-pdf}
RUNS=${RUNS:-5}
SCRATCH=${SCRATCH:-.build}
PY=/usr/bin/python3
mkdir -p "$OUT" "$LOG" "$DATA"

# 1. Dependencies: libvips-tools (the peer), GNU time (peak RSS), poppler-utils (pdftoppm, the reference raster),
#    pycairo and Pillow (the generator), numpy (the comparison); pyvips in a venv (the fair peer).
bash Drawings/install-deps.sh libvips-tools time poppler-utils python3-cairo python3-pil python3-numpy python3-venv
VENV=$DATA/pyvips-venv
if [[ ! -x $VENV/bin/python ]] || ! "$VENV/bin/python" -c 'import pyvips' 2>/dev/null; then
    $PY -m venv --system-site-packages "$VENV"
    "$VENV/bin/pip" install --quiet pyvips
fi

# 2. Data: the render benchmark's A0 plan as a vector PDF (Benchmarks/render/generate.py --a0 --pdf [--hatch]).
PDF=$DATA/plan-a0$HATCH.pdf
if [[ ! -s $PDF ]]; then
    echo "== generating the A0 PDF" >&2
    $PY Benchmarks/render/generate.py --out "$DATA" --a0 --pdf ${HATCH:+--hatch}
fi

# 3. Release builds (skipped when BIN names a folder with them).
if [[ -z ${BIN:-} ]]; then
    for product in planmark planmark-pdf planmark-server; do
        echo "== building $product (release, scratch path $SCRATCH)" >&2
        swift build -c release --scratch-path "$SCRATCH" --product $product >&2
    done
    BIN=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)
fi

# 4. The store: the PDF's first page at 300 dpi, no pyramid (planmark tiles makes it, timed).
STORE=$OUT/store/plan.sqlite
rm -rf "$OUT/store" && mkdir -p "$OUT/store"
"$BIN/planmark" drawing add "$PDF" --name A0 --dpi 300 --no-tiles --store "$STORE" >&2

# 5. Runs, interleaved: each job removes its previous output first (inside the timed command for every job alike).
declare -A COMMAND=(
    [planmark]="rm -rf $OUT/planmark && $BIN/planmark tiles A0 --store $STORE -o $OUT/planmark"
    [vips-rgb]="rm -rf $OUT/vips-rgb && $VENV/bin/python Benchmarks/pdf/vips_rgb.py $PDF 300 $OUT/vips-rgb"
    [vips-fair]="rm -rf $OUT/vips-fair && vips dzsave '$PDF[dpi=300]' $OUT/vips-fair --layout google --tile-size 256 --skip-blanks -1 --suffix '.png[compression=3,filter=none]'"
    [vips]="rm -rf $OUT/vips && vips dzsave '$PDF[dpi=300]' $OUT/vips --layout google --tile-size 256 --suffix .png"
    [stored]="rm -rf $OUT/stored && $BIN/planmark tiles A0 --store $STORE --compression 0 -o $OUT/stored"
    [floor]="$BIN/planmark-pdf render $PDF --page 1 --dpi 300 > /dev/null"
    [pdftoppm]="pdftoppm -r 300 $PDF > /dev/null"
)
JOBS=(planmark vips-rgb vips-fair vips stored floor pdftoppm)
for job in "${JOBS[@]}"; do : > "$LOG/$job.times"; done
echo "== $RUNS interleaved runs of: ${JOBS[*]} on $PDF (load average: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
for run in $(seq 0 "$RUNS"); do   # run 0 warms the page cache and is not counted
    for job in "${JOBS[@]}"; do
        /usr/bin/time -f '%e %U %S %M' -o "$LOG/$job.time" sh -c "${COMMAND[$job]}"
        if (( run > 0 )); then cat "$LOG/$job.time" >> "$LOG/$job.times"; fi
    done
done
echo "== load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# 6. Medians, and what each wrote. Peak: the largest single process (/usr/bin/time's %M), not a sum.
echo
printf '%-10s %8s %8s %10s %7s %10s\n' job wall_s cpu_s peak_MiB tiles MB
for job in "${JOBS[@]}"; do
    if [[ -d $OUT/$job ]]; then
        tiles=$(find "$OUT/$job" -name '*.png' ! -name blank.png | wc -l)
        size=$(find "$OUT/$job" -name '*.png' ! -name blank.png -printf '%s\n' | awk '{s += $1} END {printf "%.1f", s / 1e6}')
    else
        tiles=0 size=-
    fi
    awk -v job="$job" -v tiles="$tiles" -v size="$size" -f Benchmarks/medians.awk "$LOG/$job.times"
done

# 7. planmark's memory as a whole: planmark tiles and its child planmark-pdf run at once.
echo
rm -rf "$OUT/planmark-mem"
$PY Benchmarks/pdf/peak_tree.py "$BIN/planmark" tiles A0 --store "$STORE" -o "$OUT/planmark-mem"
rm -rf "$OUT/planmark-mem"

# 8. Pixels: the full-resolution level against pdftoppm -r 300 of the page (poppler's splash rasteriser), over the
#    whole sheet, and against pdftocairo -r 300 (poppler on cairo, as planmark-pdf and vips draw); then planmark's
#    pyramid against vips's level by level (Benchmarks/tiles/compare.py: every tile, planmark's opaque pixels).
echo
pdftoppm -r 300 -singlefile "$PDF" "$OUT/reference"
$PY Benchmarks/pdf/compare_sheet.py planmark "$OUT/planmark" "$OUT/reference.ppm" planmark
$PY Benchmarks/pdf/compare_sheet.py google "$OUT/vips-rgb" "$OUT/reference.ppm" vips-rgb
rm -f "$OUT/reference.ppm"
pdftocairo -r 300 -png -singlefile "$PDF" "$OUT/cairo"
$PY -c 'import sys; from PIL import Image; Image.MAX_IMAGE_PIXELS = None; Image.open(sys.argv[1]).convert("RGB").save(sys.argv[2])' \
    "$OUT/cairo.png" "$OUT/cairo.ppm"
rm -f "$OUT/cairo.png"
$PY Benchmarks/pdf/compare_sheet.py planmark "$OUT/planmark" "$OUT/cairo.ppm" "planmark against pdftocairo"
rm -f "$OUT/cairo.ppm"
$PY Benchmarks/tiles/compare.py "$OUT/planmark" "$OUT/vips-rgb"

# 9. The first cold tile through the server.
if (( ${FIRST_TILE_RUNS:-5} > 0 )); then
    echo
    bash Benchmarks/pdf/first-tile.sh "$BIN" "$STORE" A0 "${FIRST_TILE_RUNS:-5}"
fi
