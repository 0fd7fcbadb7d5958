#!/usr/bin/env bash
# How far three servers could go if every marker POST of a drawing were committed by one of them: the bound for a
# group commit that spans servers. Three jobs in turns, each on a fresh database of a throwaway cluster with fsync on,
# 16 wrk connections in all, 8 s each: one server (16 connections); three servers on one database and drawing
# (6+5+5, as posts.sh); one server with two TCP forwarders (socat) in front of it (6+5+5: the forwarders stand for
# servers that hand their POSTs to the one that commits, at the cost of a relay a request, so the POSTs of all 16
# connections meet in one server's batches). Prints each run's rate, non-2xx answers and POSTs a batch.
#
#   bash Benchmarks/postgres/forward-bound.sh BIN [ROUNDS]   # BIN: a folder with release planmark and planmark-server
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:?usage: forward-bound.sh BIN [ROUNDS]}
rounds=${2:-3}
command -v socat >/dev/null || { echo "forward-bound.sh: socat is missing (apt-get install socat)" >&2; exit 69; }
port=${PGPORT_BENCH:-55497}
. Benchmarks/postgres/ab-cluster.sh
trap 'pkill -f "socat TCP-LISTEN:1848" || true; pkill -f "planmark-server --store postgres://planmark@127.0.0.1:$port/" || true; bash Drawings/postgres-cluster.sh stop "$work/pg"; rm -rf "$work"' EXIT
store=postgres://planmark@127.0.0.1:$port/ab
for round in $(seq "$rounds"); do
    for mode in one three forwarded; do
        psql -q "$admin" -c "DROP DATABASE IF EXISTS ab" -c "CREATE DATABASE ab" 2>/dev/null
        "$bin/planmark" drawing add Drawings/sample/plan.png --name bench --regions Drawings/sample/regions.geojson \
            --store "$store" >/dev/null
        servers=1; [ "$mode" = three ] && servers=3
        pids=()
        for k in $(seq "$servers"); do
            "$bin/planmark-server" --store "$store" --port $((18480 + k)) \
                --allowed-host 127.0.0.1:18482 --allowed-host 127.0.0.1:18483 2>"$work/server$k.log" & pids+=($!)
        done
        wait_listening "$servers"
        if [ "$mode" = forwarded ]; then
            for k in 2 3; do
                socat TCP-LISTEN:$((18480 + k)),fork,reuseaddr,nodelay TCP:127.0.0.1:18481,nodelay & pids+=($!)
            done
            for k in 2 3; do until curl -s -o /dev/null "http://127.0.0.1:$((18480 + k))/health"; do sleep 0.1; done; done
        fi
        clients=3; [ "$mode" = one ] && clients=1
        post_markers "$clients" "$round" 18480
        refused=$(cat "$work"/wrk*.out | awk '/Non-2xx/ {s += $NF} END {print s + 0}')
        batch=$(psql -tA "$store" -c "SELECT round(count(*)::numeric / count(DISTINCT xmin::text), 1) FROM marker")
        echo "round $round $mode rate=$rate/s non-2xx=$refused POSTs a batch=$batch"
        kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null || true
        pkill -f "socat TCP-LISTEN:1848" 2>/dev/null || true
        rm -f "$work"/wrk*.out "$work"/server*.log
    done
done
