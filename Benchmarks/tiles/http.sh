#!/usr/bin/env bash
# Tiles over HTTP on the A0 sheet (14043x9933), release build, loopback only:
#  1. cold first tile: planmark-server with an empty tile cache, one GET (it makes the whole pyramid),
#     whole process timed with /usr/bin/time -v, beside the peer `vips dzsave --layout google --tile-size 256
#     --suffix .png` writing the same pyramid from the same PNG (RUNS runs each, interleaved);
#  2. whole-pyramid warm-up through HTTP: a cold start, then every tile of the pyramid GET once, in order,
#     by one curl (one connection), whole process timed;
#  3. cached tiles: wrk -t2 -c16 over the list of every tile URL, p50/p99, against planmark-server and against
#     nginx serving the same files (the peer for static bytes).
# Needs wrk, curl, nginx (nginx-light) and vips (libvips-tools); /usr/bin/time (package time).
# Environment: SCRATCH (swift build path, default .build), RUNS (default 3), DURATION (wrk, default 10s).
set -euo pipefail
cd "$(dirname "$0")/../.."
SCRATCH=${SCRATCH:-.build}
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
DATA=Benchmarks/data/render
for tool in wrk curl nginx vips /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install -y wrk curl nginx-light libvips-tools time" >&2; exit 69; }
done
[ -f "$DATA/plan-a0.png" ] || python3 Benchmarks/render/generate.py --a0 --out "$DATA"
swift build -c release --scratch-path "$SCRATCH" --product planmark-server >/dev/null
swift build -c release --scratch-path "$SCRATCH" --product planmark >/dev/null
BIN="$SCRATCH/release"
WORK=$(mktemp -d)
chmod 755 "$WORK"   # nginx's workers (user nobody) read the cached tiles
SERVER_PID="" NGINX_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill -TERM "$SERVER_PID" 2>/dev/null
    [ -n "$NGINX_PID" ] && kill -TERM "$NGINX_PID" 2>/dev/null
    wait 2>/dev/null; rm -rf "$WORK"
}
trap cleanup EXIT
STORE="$WORK/store.sqlite"
"$BIN/planmark" drawing add "$DATA/plan-a0.png" --name a0 --store "$STORE" >/dev/null

# The drawing's tiles object: template, levels.
"$BIN/planmark-server" --store "$STORE" --port 0 --tile-cache "$WORK/tiles" 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 100); do grep -q "listening on" "$WORK/server.log" && break; sleep 0.1; done
PORT=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$WORK/server.log" | head -1)
URL="http://127.0.0.1:$PORT"
read -r TEMPLATE MINZOOM MAXZOOM < <(curl -fsS "$URL/drawings/a0" | python3 -c '
import json, math, sys
d = json.load(sys.stdin)
w, h, s, t = d["width"], d["height"], d["zoom"], d["tiles"]
lines = []
for z in range(t["maxZoom"], t["minZoom"] - 1, -1):
    f = 2 ** (s - z)
    cols, rows = math.ceil(w / (256 * f)), math.ceil(h / (256 * f))
    lines += [t["template"].replace("{z}/{x}/{y}", f"{z}/{x}/{y}") for y in range(rows) for x in range(cols)]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
print(t["template"], t["minZoom"], t["maxZoom"])' "$WORK/paths.txt")
FIRST=${TEMPLATE/\{z\}\/\{x\}\/\{y\}/$MAXZOOM/0/0}
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
echo "A0 sheet: levels $MINZOOM...$MAXZOOM, $(wc -l < "$WORK/paths.txt") tiles, first tile $FIRST"

echo "== 1. cold first tile (whole pyramid) vs vips dzsave, $RUNS runs each, interleaved"
for run in $(seq "$RUNS"); do
    /usr/bin/time -f "planmark-server cold first tile: %e s wall, %M kB peak" Benchmarks/tiles/http-cold.sh "$BIN" "$STORE" "$FIRST" 2>&1 | grep -E "wall|server peak"
    rm -rf "$WORK/vips"; mkdir -p "$WORK/vips"
    /usr/bin/time -f "vips dzsave (whole pyramid): %e s wall, %M kB peak" vips dzsave "$DATA/plan-a0.png" "$WORK/vips/a0" --layout google --tile-size 256 --suffix .png 2>&1 | grep wall
done

echo "== 2. whole-pyramid warm-up through HTTP: cold start, then every tile GET once over one connection"
/usr/bin/time -f "planmark-server warm-up: %e s wall, %M kB peak" Benchmarks/tiles/http-cold.sh "$BIN" "$STORE" "$FIRST" "$WORK/paths.txt" 2>&1 | grep -E "wall|server peak"

"$BIN/planmark-server" --store "$STORE" --port 0 --tile-cache "$WORK/tiles" 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 100); do grep -q "listening on" "$WORK/server.log" && break; sleep 0.1; done
PORT=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$WORK/server.log" | head -1)
URL="http://127.0.0.1:$PORT"
curl -fsS -o /dev/null "$URL$FIRST"
echo "== 3. cached tiles, wrk -t2 -c16 -d$DURATION over all $(wc -l < "$WORK/paths.txt") tile URLs"
echo "-- planmark-server"
TILE_LIST="$WORK/paths.txt" wrk -t2 -c16 -d"$DURATION" --latency -s Benchmarks/tiles/http-tiles.lua "$URL" | grep -E "Requests/sec|50%|99%|requests in|Non-2xx|Socket errors"
SHA=$(basename "$(ls -d "$WORK"/tiles/*/ | head -1)")
NGINX_PORT=$((PORT + 1))
cat > "$WORK/nginx.conf" <<CONF
daemon off;
worker_processes 2;
pid $WORK/nginx.pid;
error_log $WORK/nginx.err;
events { worker_connections 1024; }
http {
    access_log off;
    types { image/png png; }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location /drawings/a0/tiles/ { alias $WORK/tiles/$SHA/; etag on; }
    }
}
CONF
nginx -c "$WORK/nginx.conf" -p "$WORK" &
NGINX_PID=$!
sleep 0.5
curl -fsS -o /dev/null "http://127.0.0.1:$NGINX_PORT$FIRST"
echo "-- nginx (same files)"
TILE_LIST="$WORK/paths.txt" wrk -t2 -c16 -d"$DURATION" --latency -s Benchmarks/tiles/http-tiles.lua "http://127.0.0.1:$NGINX_PORT" | grep -E "Requests/sec|50%|99%|requests in|Non-2xx|Socket errors"
