#!/usr/bin/env bash
# A big sheet's first paint in the review page, from a cold service: for each run, each size (a phone's 390 x 844 and a
# desktop's 1280 x 860 CSS pixels) and each server, starts planmark-server on STORE with an empty tile cache
# (cold-server.sh), opens the page at #/NAME in a fresh headless Chromium and takes the milliseconds from the
# navigation's start to the sheet's tile layer's first `load` (every tile of the first view loaded) and to its paint
# (first_paint.py). Servers, interleaved: BIN; BEFORE (another build's binaries, if given); and the floor: BIN with
# the pyramid made before the page opens (no decoding at all: the page's own time, and the tiles read from disk); and
# `added`: BIN started cold on a copy of the pyramid BIN's `planmark drawing add` wrote (made once at the start, timed),
# the cold sheet as a server meets it once the CLI writes pyramids when drawings are added (ADDED=0 leaves it out).
# Every server serves the same page: this checkout's (--web-root; WEB_ROOT to choose another).
# Prints each run's JSON line and then the medians (min to max). With STATUS=1, one more run of BIN first follows the
# page's tiles status ("Preparing sharp tiles… 40 %") until it hides, and prints what it said.
#   Benchmarks/tiles/first-paint.sh BIN STORE NAME [BEFORE]          (RUNS=5 by default)
# Needs Debian's chromium, chromium-driver and python3-selenium (/usr/bin/python3), and curl.
set -euo pipefail
AFTER=$1 STORE=$2 NAME=$3 BEFORE=${4:-}
RUNS=${RUNS:-5}
here=$(cd "$(dirname "$0")" && pwd)
results=$(mktemp)
SERVER_ARGS="--web-root ${WEB_ROOT:-$here/../../Sources/PlanMarkServer/ReviewPage}"
trap 'rm -f "$results"' EXIT

# One measurement: LABEL BIN SIZE [made]; with `made`, the page opens once the pyramid is on disk (tiles.progress 1).
measure() {
    (
        BIN=$2
        [ "$1" = added ] && TILES_FROM=$added/tiles
        source "$here/cold-server.sh"
        base="http://127.0.0.1:$PORT"
        if [ "${4:-}" = made ]; then
            until curl -fsS "$base/drawings/$NAME" | python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["tiles"].get("progress", 0) < 1)'; do
                sleep 0.2
            done
        fi
        line=$(/usr/bin/python3 "$here/first_paint.py" --base "$base" --drawing "$NAME" --size "$3" ${5:+--status})
        echo "{\"server\": \"$1\", ${line#\{}" | tee -a "$results"
    )
}

added=""
if [ "${ADDED:-1}" = 1 ]; then
    # NAME's image, added again by BIN's CLI to a store of its own with the pyramid written to added/tiles.
    added=$(mktemp -d)
    trap 'rm -f "$results"; rm -rf "$added"' EXIT
    "$AFTER/planmark" drawing show "$NAME" --store "$STORE" --format json \
        | /usr/bin/python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["zoom"], d["crs"], d["image"])' > "$added/drawing"
    read -r zoom crs image < "$added/drawing"
    start=$(date +%s%N)
    "$AFTER/planmark" drawing add "$image" --name "$NAME" --zoom "$zoom" --crs "$crs" --store "$added/store.sqlite" \
        --tile-cache "$added/tiles" >/dev/null
    echo "drawing add with its pyramid: $(( ($(date +%s%N) - start) / 1000000 )) ms" >&2
fi

echo "first paint of $NAME: $RUNS runs, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')" >&2
if [ "${STATUS:-}" = 1 ]; then
    measure status "$AFTER" desktop "" status
fi
for run in $(seq "$RUNS"); do
    for size in phone desktop; do
        measure after "$AFTER" "$size"
        [ -n "$BEFORE" ] && measure before "$BEFORE" "$size"
        measure floor "$AFTER" "$size" made
        if [ -n "$added" ]; then measure added "$AFTER" "$size"; fi
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print("| server | size | drawing read | every tile of the first view loaded | painted | tiles |")
print("|---|---|---|---|---|---|")
for server in ("after", "before", "floor", "added"):
    for size in ("phone", "desktop"):
        runs = [r for r in rows if r["server"] == server and r["size"] == size]
        if not runs:
            continue
        def cell(key):
            values = [r[key] for r in runs]
            return f"{statistics.median(values):,.0f} ms ({min(values):,} to {max(values):,})"
        print(f"| {server} | {size} | {cell('drawing')} | {cell('tiles')} | {cell('painted')} | {runs[0]['count']} |")
PY
