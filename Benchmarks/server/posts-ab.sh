#!/usr/bin/env bash
# Marker POSTs (every field, 16 wrk connections, 8 s) of two builds of planmark-server on an SQLite store, side by side
# (A, B, A, B, ...), a fresh store a run. For a change to the SQLite write path: the rate and wrk's p99.
#
#   bash Benchmarks/server/posts-ab.sh OLD_BIN NEW_BIN [ROUNDS]   # folders with release planmark and planmark-server
set -euo pipefail
cd "$(dirname "$0")/../.."
old=${1:?usage: posts-ab.sh OLD_BIN NEW_BIN [ROUNDS]}
new=${2:?usage: posts-ab.sh OLD_BIN NEW_BIN [ROUNDS]}
rounds=${3:-3}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 69; }
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
for round in $(seq "$rounds"); do
    for build in old new; do
        bin=$old; [ "$build" = new ] && bin=$new
        rm -rf "$work"/store.sqlite*
        "$bin/planmark" drawing add Drawings/sample/plan.png --name bench --regions Drawings/sample/regions.geojson \
            --store "$work/store.sqlite" >/dev/null
        "$bin/planmark-server" --store "$work/store.sqlite" --port 0 2>"$work/server.log" & pid=$!
        until grep -q "listening on" "$work/server.log" 2>/dev/null; do sleep 0.1; done
        port=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$work/server.log" | head -1)
        WRK_RUN_ID=$round wrk -t2 -c16 -d8s --latency -s Benchmarks/server/post-marker.lua "http://127.0.0.1:$port" >"$work/wrk.out" 2>&1
        rate=$(awk '/Requests\/sec/ {printf "%.0f", $2}' "$work/wrk.out")
        p99=$(awk '/ 99%/ {print $2}' "$work/wrk.out")
        echo "round $round $build rate=$rate/s p99 $p99"
        kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
    done
done
