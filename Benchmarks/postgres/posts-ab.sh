#!/usr/bin/env bash
# Marker POSTs of two builds of planmark-server side by side (A, B, A, B, ...), on one throwaway cluster with fsync on:
# one server with 16 wrk connections, then three servers on one database and drawing with 6+5+5, 8 s each, a fresh
# database a run. For a change to the POST path: the rate (summed over the servers) and each wrk's p99.
#
#   bash Benchmarks/postgres/posts-ab.sh OLD_BIN NEW_BIN [ROUNDS]   # folders with release planmark and planmark-server
set -euo pipefail
cd "$(dirname "$0")/../.."
old=${1:?usage: posts-ab.sh OLD_BIN NEW_BIN [ROUNDS]}
new=${2:?usage: posts-ab.sh OLD_BIN NEW_BIN [ROUNDS]}
rounds=${3:-3}
port=${PGPORT_BENCH:-55493}
. Benchmarks/postgres/ab-cluster.sh
store=postgres://planmark@127.0.0.1:$port/ab
for round in $(seq "$rounds"); do
    for build in old new; do
        bin=$old; [ "$build" = new ] && bin=$new
        for servers in 1 3; do
            psql -q "$admin" -c "DROP DATABASE IF EXISTS ab" -c "CREATE DATABASE ab" 2>/dev/null
            "$bin/planmark" drawing add Drawings/sample/plan.png --name bench --regions Drawings/sample/regions.geojson \
                --store "$store" >/dev/null
            pids=()
            for k in $(seq "$servers"); do
                "$bin/planmark-server" --store "$store" --port $((18480 + k)) 2>"$work/server$k.log" & pids+=($!)
            done
            wait_listening "$servers"
            post_markers "$servers" "$round" 18480
            p99=$(cat "$work"/wrk*.out | awk '/ 99%/ {printf "%s ", $2}')
            echo "round $round $build servers=$servers rate=$rate/s p99 $p99"
            kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null || true
            rm -f "$work"/wrk*.out "$work"/server*.log
        done
    done
done
