#!/usr/bin/env bash
# The first tile of a PDF drawing through a cold server: RUNS times for each of three tiles, starts
# "$BIN/planmark-server" on a copy of STORE with an empty tile cache, waits until it listens, and times the first
# request (curl's time_total): the whole sheet in one tile (the pyramid's top, z = minZoom), a full-resolution tile
# in the middle of the sheet (z = maxZoom) and one of the levels drawn from the page's vectors above it (z = maxZoom
# + 2). Checks each answer is a PNG, stops the server and removes its folder. Prints every time and the medians.
# (A big sheet's tile asked for before its pyramid is on disk is drawn alone by a planmark-pdf child while the
# pyramid is started in the background: TileCache, "Big sheets open at once".)
#   Benchmarks/pdf/first-tile.sh BIN STORE NAME [RUNS]
set -euo pipefail
BIN=$1 STORE=$2 NAME=$3 RUNS=${4:-5}

# The drawing's size, zoom and tile key (the URLs' v: <sha256>-p<page>-<dpi>), read once from the store, not through
# the server (whose GET /drawings/NAME would start the pyramid before the timed request).
INFO=$("$BIN/planmark" drawing show "$NAME" --store "$STORE" --format json)
read -r WIDTH HEIGHT ZOOM KEY < <(/usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1])
print(d["width"], d["height"], d["zoom"], "%s-p%s-%s" % (d["sha256"], d["pdf"]["page"], d["pdf"]["dpi"]))' "$INFO")
TOP=$(/usr/bin/python3 -c "
import math; w, h = $WIDTH, $HEIGHT; z = $ZOOM
while w > 256 or h > 256: w, h, z = math.ceil(w / 2), math.ceil(h / 2), z - 1
print(z)")
declare -A TILE=(
    [top]="$TOP/0/0"
    [full]="$ZOOM/$(( WIDTH / 2 / 256 ))/$(( HEIGHT / 2 / 256 ))"
    [vector]="$(( ZOOM + 2 ))/$(( WIDTH * 2 / 256 ))/$(( HEIGHT * 2 / 256 ))"
)
echo "first cold tile of $NAME (${WIDTH}x${HEIGHT}, zoom $ZOOM), $RUNS cold starts each, load average $(cut -d' ' -f1-3 /proc/loadavg):" >&2

cold_tile() {  # $1: z/x/y; prints curl's seconds for the tile, and the seconds from the server's start to it
    local work pid port seconds start children child
    work=$(mktemp -d)
    cp "$STORE" "$work/store.sqlite"
    start=$(date +%s%N)
    "$BIN/planmark-server" --store "$work/store.sqlite" --port 0 --tile-cache "$work/tiles" 2>"$work/server.log" &
    pid=$!
    for _ in $(seq 400); do grep -qs "listening on" "$work/server.log" && break; sleep 0.01; done
    port=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$work/server.log" | head -1)
    seconds=$(curl -fsS -o "$work/tile.png" -w '%{time_total}' "http://127.0.0.1:$port/drawings/$NAME/tiles/$1.png?v=$KEY")
    echo "$seconds $(( ($(date +%s%N) - start) / 1000000 ))"
    head -c 8 "$work/tile.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a"
    # The server stops on SIGTERM without stopping its background pyramid's child (planmark-pdf pyramid goes on alone,
    # writing into the tile folder), so its children are stopped here, by their ids, before the folder is removed.
    children=$(pgrep -P "$pid" || true)
    kill -TERM "$pid" && wait "$pid" 2>/dev/null || true
    for child in $children; do
        kill -KILL "$child" 2>/dev/null || true
        while kill -0 "$child" 2>/dev/null; do sleep 0.05; done
    done
    rm -rf "$work"
}

for which in top full vector; do
    for _ in $(seq "$RUNS"); do cold_tile "${TILE[$which]}"; done | sort -n | awk -v which="$which" -v tile="${TILE[$which]}" '
        { t[NR] = $1; s[NR] = $2; all = all sprintf(" %.3f", $1) }
        function median(a, n,   i, j, x) {
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        END { printf "  %-6s tile %-12s request median %.3f s (sorted:%s); from the server'"'"'s start: median %.0f ms\n",
                     which, tile, median(t, NR), all, median(s, NR) }'
done
