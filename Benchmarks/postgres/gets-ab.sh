#!/usr/bin/env bash
# GETs of 10,000 markers as latLng GeoJSON read from PostgreSQL every time (`--marker-list-cache-size 0`, as the first
# GET after a change), two builds of planmark-server side by side (A, B, A, B, ...) on one throwaway cluster with
# PostgreSQL's durable defaults: one wrk connection, 10 s a run, the same drawing (posts.py's: 10,000 markers of
# seed 7 on the sample plan). For a change to the listing's read path: each run's rate, p50 and p99.
#
#   bash Benchmarks/postgres/gets-ab.sh OLD_BIN NEW_BIN [ROUNDS]   # folders with release planmark and planmark-server
set -euo pipefail
cd "$(dirname "$0")/../.."
old=${1:?usage: gets-ab.sh OLD_BIN NEW_BIN [ROUNDS]}
new=${2:?usage: gets-ab.sh OLD_BIN NEW_BIN [ROUNDS]}
rounds=${3:-5}
port=${PGPORT_BENCH:-55495}
. Benchmarks/postgres/ab-cluster.sh
store=postgres://planmark@127.0.0.1:$port/gets
psql -q "$admin" -c "CREATE DATABASE gets"
python3 -c '
import random
random.seed(7)
print("x,y")
for _ in range(10000):
    print(f"{random.uniform(210, 1790):.3f},{random.uniform(160, 640):.3f}")' > "$work/big.csv"
"$old/planmark" drawing add Drawings/sample/plan.png --name big --regions Drawings/sample/regions.geojson --store "$store" >/dev/null
"$old/planmark" import big "$work/big.csv" --store "$store" >/dev/null
echo "cores $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
    for build in old new; do
        bin=$old; [ "$build" = new ] && bin=$new
        "$bin/planmark-server" --store "$store" --port 18490 --marker-list-cache-size 0 2>"$work/server.log" & pid=$!
        until grep -q "listening on" "$work/server.log" 2>/dev/null; do sleep 0.1; done
        wrk -t1 -c1 -d10s --latency "http://127.0.0.1:18490/drawings/big/markers?zoom=3" >"$work/wrk.out" 2>&1
        rate=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.out")
        p50=$(awk '/ 50%/ {print $2}' "$work/wrk.out")
        p99=$(awk '/ 99%/ {print $2}' "$work/wrk.out")
        echo "round $round $build rate=$rate/s p50 $p50 p99 $p99"
        kill "$pid"; wait "$pid" 2>/dev/null || true
    done
done
