#!/usr/bin/env bash
# planmark render vs Skia (skia-python) and cairo (pycairo): the review job (200 rooms, 2000 numbered markers,
# legend and title) on the same drawing, anti-aliased, encoded at the same zlib level (3) with no row filter;
# timed by phase (read+decode / draw / encode+write / total) and as whole processes (wall, CPU, peak RSS).
#
#   Benchmarks/render/run.sh [--a0]      # A2 7016x4961; --a0: A0 14043x9933 instead
#
# Environment: RUNS (timed runs of each tool, interleaved planmark, skia, cairo, ...; default 5),
# SCRATCH (swift build scratch path, default .build), PLANMARK (a planmark binary instead of building one),
# PYTHON (default python3). Outputs go to Benchmarks/out/render/ (git-ignored); data to Benchmarks/data/render/.
set -euo pipefail

A0=0
for arg in "$@"; do
    case $arg in
        --a0) A0=1 ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "unknown argument: $arg (usage: $0 [--a0])" >&2; exit 64 ;;
    esac
done

cd "$(dirname "$0")/../.."
HERE=Benchmarks/render
DATA=Benchmarks/data/render
OUT=Benchmarks/out/render
RUNS=${RUNS:-5}
SCRATCH=${SCRATCH:-.build}
PYTHON=${PYTHON:-python3}
TITLE="Level 02 review"
mkdir -p "$OUT"

# 1. Dependencies: libvips (decode and encode for the peers), cairo's headers (pycairo builds against them),
#    the font; then the Python packages.
bash Drawings/install-deps.sh libvips42 libcairo2-dev pkg-config fonts-dejavu-core
if ! "$PYTHON" -c 'import PIL, shapely, numpy, skia, cairo, pyvips; assert int(shapely.__version__.split(".")[0]) >= 2' 2>/dev/null; then
    echo "== installing skia-python, pycairo, pyvips, shapely, numpy, pillow (the data generator)" >&2
    "$PYTHON" -m pip install --quiet skia-python pycairo pyvips 'shapely>=2' numpy pillow
fi

# 2. Data.
if (( A0 )); then SUFFIX=-a0; else SUFFIX=; fi
PLAN=$DATA/plan$SUFFIX.png REGIONS=$DATA/regions$SUFFIX.geojson MARKERS=$DATA/markers$SUFFIX.csv
if [[ ! -s $PLAN || ! -s $REGIONS || ! -s $MARKERS ]]; then
    echo "== generating $DATA ($([[ -n $SUFFIX ]] && echo A0 || echo A2))" >&2
    "$PYTHON" $HERE/generate.py --out $DATA $([[ -n $SUFFIX ]] && echo --a0)
fi

# 3. planmark, release build (skipped when PLANMARK names a binary).
if [[ -z ${PLANMARK:-} ]]; then
    echo "== building planmark (release, scratch path $SCRATCH)" >&2
    swift build -c release --scratch-path "$SCRATCH" --product planmark >&2
    PLANMARK=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/planmark
fi

# One run under /usr/bin/time -v; appends "phases-line|wall s|peak RSS KB|CPU s" to $OUT/$1.runs.
run_once() { # name command...
    local name=$1; shift
    /usr/bin/time -v -o "$OUT/$name.time" "$@" 2> "$OUT/$name.stderr" || {
        echo "$name failed:" >&2; cat "$OUT/$name.stderr" >&2; exit 1; }
    local phases wall rss cpu
    phases=$(grep -E '^read\+decode ' "$OUT/$name.stderr" | tail -1)
    read -r wall rss cpu < <(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
                /Maximum resident set size/ { kb = $2 }
                /User time|System time/ { c += $2 }
                END { printf "%.2f %d %.2f\n", s, kb, c }' "$OUT/$name.time")
    echo "$phases|$wall|$rss|$cpu" >> "$OUT/$name.runs"
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
# The peers draw pins of radius max(12, shorter side / 250) (peer_render.py); planmark is given the same pin
# diameter, so both draw pins of one size (planmark still fans out the pins that overlap, with leader lines:
# more to draw than the peers, who let them overlap).
MARKER_SIZE=$("$PYTHON" -c "import struct,sys; f=open(sys.argv[1],'rb'); f.read(16); w,h=struct.unpack('>II', f.read(8)); print(2*max(12.0, min(w,h)/250))" "$PLAN")
PM=("$PLANMARK" render --image $PLAN --regions $REGIONS --markers $MARKERS --legend --title "$TITLE" --timings
    --marker-size "$MARKER_SIZE" -o $OUT/planmark$SUFFIX.png)
PEER=(--image $PLAN --regions $REGIONS --markers $MARKERS --title "$TITLE" --compression 3)
SKIA=("$PYTHON" $HERE/peer_render.py --engine skia "${PEER[@]}" -o $OUT/skia$SUFFIX.png)
CAIRO=("$PYTHON" $HERE/peer_render.py --engine cairo "${PEER[@]}" -o $OUT/cairo$SUFFIX.png)

rm -f "$OUT"/{planmark,skia,cairo}$SUFFIX.runs
echo "== warm-up (one run each, not counted)" >&2
"${PM[@]}" 2>/dev/null; "${SKIA[@]}" 2>/dev/null; "${CAIRO[@]}" 2>/dev/null
echo "== $RUNS runs each, interleaved" >&2
for ((i = 1; i <= RUNS; i++)); do
    run_once planmark$SUFFIX "${PM[@]}"
    run_once skia$SUFFIX "${SKIA[@]}"
    run_once cairo$SUFFIX "${CAIRO[@]}"
    for name in planmark skia cairo; do echo "   run $i: $name $(tail -1 $OUT/$name$SUFFIX.runs | cut -d'|' -f1)" >&2; done
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# 4. Table of medians.
"$PYTHON" - "$OUT" "$SUFFIX" "$RUNS" "$LOAD_BEFORE" "$LOAD_AFTER" <<'PY'
import os, re, statistics, sys
out, suffix, runs, load_before, load_after = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
cols = ["read+decode", "draw", "encode+write", "total"]
rows = {}
for name in ("planmark", "skia", "cairo"):
    rs = []
    with open(os.path.join(out, name + suffix + ".runs")) as f:
        for line in f:
            if line.strip():
                phases, wall, rss, cpu = line.strip().split("|")
                t = {k: float(v) for k, v in re.findall(r"([a-z+]+) ([0-9.]+) s", phases)}
                rs.append((t, float(wall), int(rss), float(cpu)))
    med = {c: statistics.median(r[0][c] for r in rs) for c in cols}
    med["wall"] = statistics.median(r[1] for r in rs)
    med["cpu"] = statistics.median(r[3] for r in rs)
    med["rss"] = max(r[2] for r in rs)
    med["size"] = os.path.getsize(os.path.join(out, name + suffix + ".png"))
    rows[name] = med
sheet = "A0 14043x9933" if suffix else "A2 7016x4961"
print(f"\nReview job, {sheet}, 200 rooms, 2000 markers, legend + title; zlib level 3, no filter; medians of {runs}")
print(f"load average (1/5/15 min) before: {load_before}, after: {load_after}")
print("| tool | read+decode | draw | encode+write | total | process wall | process CPU | peak RSS | output |")
print("|---|---|---|---|---|---|---|---|---|")
for name, label in (("planmark", "planmark render"), ("skia", "Skia (skia-python) + libvips"), ("cairo", "cairo (pycairo) + libvips")):
    m = rows[name]
    print(f"| {label} | {m['read+decode']:.3f} s | {m['draw']:.3f} s | {m['encode+write']:.3f} s | {m['total']:.3f} s "
          f"| {m['wall']:.2f} s | {m['cpu']:.2f} s | {m['rss'] / 1024:.0f} MiB | {m['size'] / 1e6:.1f} MB |")
pm = rows["planmark"]
best = min(("skia", "cairo"), key=lambda n: rows[n]["wall"])
print(f"process wall: planmark {rows[best]['wall'] / pm['wall']:.2f}x the faster peer ({best}); "
      f"total phases: {min(rows['skia']['total'], rows['cairo']['total']) / pm['total']:.2f}x; "
      f"draw: {rows['skia']['draw'] / pm['draw']:.2f}x Skia's, {rows['cairo']['draw'] / pm['draw']:.2f}x cairo's")
PY
