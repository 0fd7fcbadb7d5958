#!/usr/bin/env bash
# A cold start of the tiles: starts planmark-server on STORE with an empty tile cache, GETs the tile URL-PATH
# (for a sheet of up to 8 Mpx the first request makes the drawing's whole pyramid; for a bigger one the tile is made
# alone while the pyramid is made in the background: first-view.sh) and checks it is a PNG; with PATHS (a file of tile URL
# paths, one a line) then GETs every one of them over one connection (the whole-pyramid warm-up). Stops the
# server and removes the cache. Time it as a whole process (/usr/bin/time -v); http.sh does.
#   Benchmarks/tiles/http-cold.sh BIN STORE URL-PATH [PATHS]
set -euo pipefail
BIN=$1 STORE=$2 TILE=$3 PATHS=${4:-}
source "$(dirname "$0")/cold-server.sh"
curl -fsS -o "$WORK/tile.png" "http://127.0.0.1:$PORT$TILE"
head -c 8 "$WORK/tile.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a"
if [ -n "$PATHS" ]; then
    sed "s|.*|url = \"http://127.0.0.1:$PORT&\"\noutput = \"/dev/null\"|" "$PATHS" > "$WORK/curl.cfg"
    curl -fsS -K "$WORK/curl.cfg"
fi
awk '/VmHWM/ { print "server peak RSS: " $2 " kB" }' "/proc/$PID/status" >&2
