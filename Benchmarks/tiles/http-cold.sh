#!/usr/bin/env bash
# A cold start of the tiles: starts planmark-server on STORE with an empty tile cache, GETs the tile URL-PATH
# (the first request makes the drawing's whole pyramid) and checks it is a PNG; with PATHS (a file of tile URL
# paths, one a line) then GETs every one of them over one connection (the whole-pyramid warm-up). Stops the
# server and removes the cache. Time it as a whole process (/usr/bin/time -v); http.sh does.
#   Benchmarks/tiles/http-cold.sh BIN STORE URL-PATH [PATHS]
set -euo pipefail
BIN=$1 STORE=$2 TILE=$3 PATHS=${4:-}
WORK=$(mktemp -d)
PID=""
cleanup() { [ -n "$PID" ] && kill -TERM "$PID" 2>/dev/null && wait "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
"$BIN/planmark-server" --store "$STORE" --port 0 --tile-cache "$WORK/tiles" 2>"$WORK/server.log" &
PID=$!
for _ in $(seq 200); do grep -q "listening on" "$WORK/server.log" && break; sleep 0.05; done
PORT=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$WORK/server.log" | head -1)
curl -fsS -o "$WORK/tile.png" "http://127.0.0.1:$PORT$TILE"
head -c 8 "$WORK/tile.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a"
if [ -n "$PATHS" ]; then
    sed "s|.*|url = \"http://127.0.0.1:$PORT&\"\noutput = \"/dev/null\"|" "$PATHS" > "$WORK/curl.cfg"
    curl -fsS -K "$WORK/curl.cfg"
fi
awk '/VmHWM/ { print "server peak RSS: " $2 " kB" }' "/proc/$PID/status" >&2
