#!/usr/bin/env bash
# planmark report vs a pycairo + pyvips peer (peer_report.py): the punch-list PDF of 500 markers with 200 JPEG
# photos on the A0 sheet (14043 x 9933), from the same store; whole processes timed (wall, CPU, peak RSS)
# and the PDF's size and page count.
#
#   Benchmarks/report/run.sh
#
# Environment: RUNS (timed runs of each, interleaved planmark, peer, planmark, ...; default 5), SCRATCH (swift
# build scratch path, default .build), PLANMARK (a planmark binary instead of building one), PYTHON (python3).
# Data goes to Benchmarks/data/report/ (git-ignored), the PDFs to Benchmarks/out/report/.
set -euo pipefail
case ${1:-} in -h|--help) sed -n '2,9p' "$0"; exit 0 ;; esac

cd "$(dirname "$0")/../.."
HERE=Benchmarks/report
RENDER_DATA=Benchmarks/data/render
DATA=Benchmarks/data/report
OUT=Benchmarks/out/report
RUNS=${RUNS:-5}
SCRATCH=${SCRATCH:-.build}
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"

# 1. Dependencies: libvips and cairo for the peer, poppler-utils to count pages; the Python packages.
bash Drawings/install-deps.sh libvips42 libcairo2-dev pkg-config fonts-dejavu-core poppler-utils
if ! "$PYTHON" -c 'import PIL, shapely, numpy, cairo, pyvips' 2>/dev/null; then
    echo "== installing pycairo, pyvips, shapely, numpy, pillow" >&2
    "$PYTHON" -m pip install --quiet pycairo pyvips 'shapely>=2' numpy pillow
fi

# 2. Data: the render benchmark's A0 sheet, then the markers and photos.
if [[ ! -s $RENDER_DATA/plan-a0.png ]]; then
    echo "== generating the A0 sheet ($RENDER_DATA)" >&2
    "$PYTHON" Benchmarks/render/generate.py --out $RENDER_DATA --a0
fi
if [[ ! -s $DATA/attach.csv ]]; then
    echo "== generating $DATA (500 markers, 200 photos)" >&2
    "$PYTHON" $HERE/generate.py --render-data $RENDER_DATA --out $DATA
fi

# 3. planmark, release build (skipped when PLANMARK names a binary).
if [[ -z ${PLANMARK:-} ]]; then
    echo "== building planmark (release, scratch path $SCRATCH)" >&2
    swift build -c release --scratch-path "$SCRATCH" --product planmark >&2
    PLANMARK=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/planmark
fi

# 4. The store: the A0 drawing with its 200 rooms, the 500 markers, the 200 photos.
STORE=$DATA/store.sqlite
if [[ ! -s $STORE ]]; then
    echo "== filling $STORE" >&2
    rm -f "$STORE" "$STORE-wal" "$STORE-shm"
    "$PLANMARK" drawing add $RENDER_DATA/plan-a0.png --name plan --regions $RENDER_DATA/regions-a0.geojson --store "$STORE" >&2
    "$PLANMARK" import plan $DATA/markers.csv --store "$STORE" >&2
    tail -n +2 $DATA/attach.csv | tr -d "\r" | while IFS=, read -r number file; do
        "$PLANMARK" attach plan "$number" "$DATA/$file" --caption "photo ${file##*/}" --store "$STORE" >/dev/null
    done
fi

# 5. One warm-up each, then RUNS interleaved runs under /usr/bin/time -v.
run() {  # run NAME COMMAND...: appends "wall_s cpu_s peak_kib" to $OUT/NAME.times
    local name=$1; shift
    /usr/bin/time -v "$@" 2> "$OUT/$name.time" >/dev/null
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); wall = (n == 3) ? t[1] * 3600 + t[2] * 60 + t[3] : t[1] * 60 + t[2] }
                /User time/ { user = $2 } /System time/ { sys = $2 } /Maximum resident/ { rss = $2 }
                END { printf "%.2f %.2f %d\n", wall, user + sys, rss }' "$OUT/$name.time" >> "$OUT/$name.times"
}
planmark_cmd=("$PLANMARK" report plan -o "$OUT/planmark.pdf" --store "$STORE")
peer_cmd=("$PYTHON" $HERE/peer_report.py "$STORE" plan "$OUT/peer.pdf")
rm -f "$OUT"/*.times
echo "== warm-up" >&2
"${planmark_cmd[@]}" && "${peer_cmd[@]}" 2>/dev/null
for ((i = 1; i <= RUNS; i++)); do
    echo "== run $i of $RUNS" >&2
    run planmark "${planmark_cmd[@]}"
    run peer "${peer_cmd[@]}"
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-9s %9s %9s %12s %12s %6s %8s\n' tool wall_s cpu_s peak_MiB pdf_bytes pages jpegs
for name in planmark peer; do
    wall=$(cut -d' ' -f1 "$OUT/$name.times" | median)
    cpu=$(cut -d' ' -f2 "$OUT/$name.times" | median)
    rss=$(cut -d' ' -f3 "$OUT/$name.times" | median)
    pages=$(pdfinfo "$OUT/$name.pdf" | awk '/^Pages:/ { print $2 }')
    jpegs=$(pdfimages -list "$OUT/$name.pdf" | awk 'NR > 2 && $9 == "jpeg"' | wc -l)
    printf '%-9s %9s %9s %12.0f %12d %6d %8d\n' "$name" "$wall" "$cpu" "$(echo "$rss / 1024" | bc -l)" \
        "$(stat -c %s "$OUT/$name.pdf")" "$pages" "$jpegs"
done
