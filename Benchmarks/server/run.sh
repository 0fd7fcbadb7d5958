#!/usr/bin/env bash
# Load run of the HTTP service on loopback, bounded in time (about 45 s of load).
#  1. marker POSTs/s with every punch-item field, 16 connections (wrk, Lua script), p50/p99 latency;
#  2. GET markers of a 10,000-marker drawing (GeoJSON, latLng at zoom 3), p50/p99 latency,
#     with 1 connection and with 4;
#  3. 5 MiB photo uploads (POST .../attachments, each photo's bytes distinct), 1 connection: MB/s.
# Needs wrk (apt-get install -y wrk). Builds release products into .build (or $SCRATCH).
set -euo pipefail
cd "$(dirname "$0")/../.."
SCRATCH=${SCRATCH:-.build}
DURATION=${DURATION:-10s}
PHOTO_DURATION=${PHOTO_DURATION:-5s}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 69; }
# BIN: a folder holding release builds of planmark and planmark-server (skips the build).
if [ -z "${BIN:-}" ]; then
    swift build -c release --scratch-path "$SCRATCH" --product planmark-server >/dev/null
    swift build -c release --scratch-path "$SCRATCH" --product planmark >/dev/null
    BIN="$SCRATCH/release"
fi
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() { [ -n "$SERVER_PID" ] && kill -TERM "$SERVER_PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
STORE="$WORK/store.sqlite"
"$BIN/planmark" drawing add Drawings/sample/plan.png --name bench --regions Drawings/sample/regions.geojson --store "$STORE" >/dev/null
"$BIN/planmark" drawing add Drawings/sample/plan.png --name big --regions Drawings/sample/regions.geojson --store "$STORE" >/dev/null
python3 - "$WORK/big.csv" <<'PY'
import random, sys
random.seed(7)
with open(sys.argv[1], "w") as f:
    f.write("x,y\n")
    for _ in range(10000):
        f.write(f"{random.uniform(210, 1790):.3f},{random.uniform(160, 640):.3f}\n")
PY
"$BIN/planmark" import big "$WORK/big.csv" --store "$STORE" >/dev/null
"$BIN/planmark-server" --store "$STORE" --port 0 2>"$WORK/server.log" &
SERVER_PID=$!
for _ in $(seq 100); do grep -q "listening on" "$WORK/server.log" && break; sleep 0.1; done
PORT=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$WORK/server.log" | head -1)
URL="http://127.0.0.1:$PORT"
curl -fsS "$URL/health" >/dev/null
echo "== POST /drawings/bench/markers (every field), 16 connections, $DURATION"
wrk -t2 -c16 -d"$DURATION" --latency -s Benchmarks/server/post-marker.lua "$URL" | grep -E "Requests/sec|50%|99%|non-201|requests in|Socket errors"
echo "markers stored: $(curl -fsS "$URL/drawings/bench" | python3 -c 'import json,sys; print(json.load(sys.stdin)["markers"])')"
BYTES=$(curl -fsS "$URL/drawings/big/markers?zoom=3" | wc -c)
echo "== GET /drawings/big/markers?zoom=3 (10,000 markers, $BYTES bytes), 1 connection, $DURATION"
wrk -t1 -c1 -d"$DURATION" --latency "$URL/drawings/big/markers?zoom=3" | grep -E "Requests/sec|50%|99%|requests in"
echo "== same, 4 connections, $DURATION"
wrk -t2 -c4 -d"$DURATION" --latency "$URL/drawings/big/markers?zoom=3" | grep -E "Requests/sec|50%|99%|requests in"
echo "== POST /drawings/bench/markers/1/attachments (5 MiB photos), 1 connection, $PHOTO_DURATION"
wrk -t1 -c1 -d"$PHOTO_DURATION" --timeout 30s --latency -s Benchmarks/server/post-photo.lua "$URL" | grep -E "Requests/sec|50%|99%|non-201|photo upload|Socket errors"
echo "store file after the uploads: $(du -m "$STORE" | cut -f1) MiB"
kill -TERM "$SERVER_PID"; wait "$SERVER_PID"; SERVER_PID=""
echo "server stopped cleanly; request lines logged: $(grep -c ' ms$\|ms$' "$WORK/server.log")"
