#!/usr/bin/env bash
# planmark render vs Pillow: the review job (7016x4961 drawing, 200 rooms, 2000 numbered markers, legend
# and title), same files, timed by phase; optionally planmark's peak memory on an A0 (14043x9933) drawing.
#
#   Benchmarks/render/run.sh [--a0]
#
# Environment: RUNS (timed runs each, default 3), SCRATCH (swift build scratch path, default .build),
# PLANMARK (a planmark binary to use instead of building one), PYTHON (default python3).
# Outputs go to Benchmarks/out/render/ (git-ignored); the data to Benchmarks/data/render/.
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
RUNS=${RUNS:-3}
SCRATCH=${SCRATCH:-.build}
PYTHON=${PYTHON:-python3}
TITLE="Level 02 review"
mkdir -p "$OUT"

# 1. Python dependencies.
if ! "$PYTHON" -c 'import PIL, shapely, numpy; assert int(shapely.__version__.split(".")[0]) >= 2' 2>/dev/null; then
    echo "== installing pillow, shapely and numpy" >&2
    "$PYTHON" -m pip install --quiet pillow 'shapely>=2' numpy
fi
[[ -r /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ]] || {
    echo "DejaVu Sans Bold missing: apt-get install -y fonts-dejavu-core" >&2; exit 66; }

# 2. Data.
if [[ ! -s $DATA/plan.png || ! -s $DATA/regions.geojson || ! -s $DATA/markers.csv ]]; then
    echo "== generating $DATA (A2)" >&2
    "$PYTHON" $HERE/generate.py --out $DATA
fi
if (( A0 )) && [[ ! -s $DATA/plan-a0.png || ! -s $DATA/regions-a0.geojson || ! -s $DATA/markers-a0.csv ]]; then
    echo "== generating $DATA (A0)" >&2
    "$PYTHON" $HERE/generate.py --out $DATA --a0
fi

# 3. planmark, release build (skipped when PLANMARK names a binary).
if [[ -z ${PLANMARK:-} ]]; then
    echo "== building planmark (release, scratch path $SCRATCH)" >&2
    swift build -c release --scratch-path "$SCRATCH" --product planmark >&2
    PLANMARK=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/planmark
fi

# One run of a job under /usr/bin/time -v. Appends "phases-line|wall seconds|peak RSS KB|CPU seconds" to
# $OUT/$1.runs (CPU = user + system of the whole process: less sensitive to other load than wall time).
# The tools print their phase line as the last line on stderr.
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
echo "== load average before: $LOAD_BEFORE (2 cores here: anything above ~1 means other work competes)" >&2

PM_ARGS=(render --image $DATA/plan.png --regions $DATA/regions.geojson --markers $DATA/markers.csv
         --legend --title "$TITLE" --timings -o $OUT/planmark.png)
PL_ARGS=($HERE/pillow_render.py --image $DATA/plan.png --regions $DATA/regions.geojson --markers $DATA/markers.csv
         --title "$TITLE" -o $OUT/pillow.png)

rm -f "$OUT/planmark.runs" "$OUT/pillow.runs"
echo "== warm-up (one run each, not counted)" >&2
"$PLANMARK" "${PM_ARGS[@]}" 2>/dev/null
"$PYTHON" "${PL_ARGS[@]}" 2>/dev/null
echo "== $RUNS runs each, alternating" >&2
for ((i = 1; i <= RUNS; i++)); do
    run_once planmark "$PLANMARK" "${PM_ARGS[@]}"
    run_once pillow "$PYTHON" "${PL_ARGS[@]}"
    echo "   run $i: planmark $(tail -1 $OUT/planmark.runs | cut -d'|' -f1)" >&2
    echo "          pillow   $(tail -1 $OUT/pillow.runs | cut -d'|' -f1)" >&2
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

A0_LINE=""
if (( A0 )); then
    echo "== A0: planmark and Pillow, one run each, peak memory" >&2
    rm -f "$OUT/planmark-a0.runs" "$OUT/pillow-a0.runs"
    run_once planmark-a0 "$PLANMARK" render --image $DATA/plan-a0.png --regions $DATA/regions-a0.geojson \
        --markers $DATA/markers-a0.csv --legend --title "$TITLE" --timings -o $OUT/planmark-a0.png
    run_once pillow-a0 "$PYTHON" $HERE/pillow_render.py --image $DATA/plan-a0.png --regions $DATA/regions-a0.geojson \
        --markers $DATA/markers-a0.csv --title "$TITLE" -o $OUT/pillow-a0.png
    A0_LINE="$(cat $OUT/planmark-a0.runs)#$(cat $OUT/pillow-a0.runs)"
fi

# 4. Table.
"$PYTHON" - "$OUT" "$RUNS" "$LOAD_BEFORE" "$LOAD_AFTER" "$A0_LINE" <<'EOF'
import os, re, statistics, sys
out, runs, load_before, load_after, a0 = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]

def parse(line):
    phases, wall, rss, cpu = line.strip().split("|")
    t = {k: float(v) for k, v in re.findall(r"([a-z+]+) ([0-9.]+) s", phases)}
    return t, float(wall), int(rss), float(cpu)

def load(name):
    with open(os.path.join(out, name + ".runs")) as f:
        return [parse(line) for line in f if line.strip()]

cols = ["read+decode", "draw", "encode+write", "total"]
rows = {}
for name in ("planmark", "pillow"):
    rs = load(name)
    med = {c: statistics.median(r[0][c] for r in rs) for c in cols}
    if name == "pillow":
        med["validate"] = statistics.median(r[0].get("validate", 0) for r in rs)
    med["wall"] = statistics.median(r[1] for r in rs)
    med["cpu"] = statistics.median(r[3] for r in rs)
    med["rss"] = max(r[2] for r in rs)
    med["size"] = os.path.getsize(os.path.join(out, name + ".png"))
    rows[name] = med

print()
print(f"Review job, 7016x4961 drawing, 200 rooms, 2000 markers, legend + title; median of {runs} runs")
print(f"load average (1/5/15 min) before: {load_before}, after: {load_after}")
print("| tool                       | read+decode | draw    | encode+write | total   | process wall | process CPU | peak RSS | output |")
print("|----------------------------|-------------|---------|--------------|---------|--------------|-------------|----------|--------|")
for name, label in (("planmark", "planmark render"), ("pillow", "Pillow (+shapely validate)")):
    m = rows[name]
    print(f"| {label:<26} | {m['read+decode']:9.3f} s | {m['draw']:5.3f} s | {m['encode+write']:10.3f} s "
          f"| {m['total']:5.3f} s | {m['wall']:10.2f} s | {m['cpu']:9.2f} s | {m['rss'] / 1024:4.0f} MiB | {m['size'] / 1e6:3.1f} MB |")
pm, pl = rows["planmark"], rows["pillow"]
print(f"Pillow's validation (in its read+decode): {pl['validate'] * 1000:.1f} ms")
print(f"total: planmark {pl['total'] / pm['total']:.2f}x faster than Pillow "
      f"(process wall: {pl['wall'] / pm['wall']:.2f}x, process CPU: {pl['cpu'] / pm['cpu']:.2f}x); "
      f"draw: {pl['draw'] / pm['draw']:.2f}x; "
      f"planmark draw {'under' if pm['draw'] < 0.3 else 'OVER'} 0.3 s")

if a0:
    pm_line, pl_line = a0.split("#")
    (pt, pw, prss, _), (lt, lw, lrss, _) = parse(pm_line), parse(pl_line)
    rgba = 14043 * 9933 * 4
    budget = 2.5 * rgba
    print()
    print("A0, 14043x9933 (one run each)")
    print(f"| planmark render | total {pt['total']:.2f} s | peak RSS {prss / 1024:.0f} MiB = {prss * 1024 / rgba:.2f}x RGBA "
          f"({rgba / 2**20:.0f} MiB); budget 2.5x = {budget / 2**20:.0f} MiB: {'OK' if prss * 1024 <= budget else 'OVER'} |")
    print(f"| Pillow          | total {lt['total']:.2f} s | peak RSS {lrss / 1024:.0f} MiB = {lrss * 1024 / rgba:.2f}x RGBA |")
EOF
