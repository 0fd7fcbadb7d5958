#!/usr/bin/env bash
# CPU per marker POST, in the servers and in PostgreSQL, for two builds side by side (A, B, A, B, ...): SERVERS
# planmark-server processes (1 or 3) on one database and drawing of a throwaway cluster with fsync on, 16 wrk
# connections in all (6+5+5 for three), 8 s a run, a fresh database a run. CPU is /proc's user+system time of the
# servers and of every PostgreSQL process over the run, divided by the markers stored.
#
#   bash Benchmarks/postgres/cpu-per-post.sh OLD_BIN NEW_BIN [ROUNDS] [SERVERS]   # folders with release builds
set -euo pipefail
cd "$(dirname "$0")/../.."
old=${1:?usage: cpu-per-post.sh OLD_BIN NEW_BIN [ROUNDS] [SERVERS]}
new=${2:?usage: cpu-per-post.sh OLD_BIN NEW_BIN [ROUNDS] [SERVERS]}
rounds=${3:-3}
servers=${4:-3}
port=${PGPORT_BENCH:-55494}
. Benchmarks/postgres/ab-cluster.sh
store=postgres://planmark@127.0.0.1:$port/cpu
ticks() { local t=0 f; for p in "$@"; do { read -r -a f < "/proc/$p/stat"; } 2>/dev/null || continue; t=$((t + f[13] + f[14])); done; echo "$t"; }
postgres_pids() { pgrep -f "postgres" | tr '\n' ' '; }
hz=$(getconf CLK_TCK)
for round in $(seq "$rounds"); do
    for build in old new; do
        bin=$old; [ "$build" = new ] && bin=$new
        psql -q "$admin" -c "DROP DATABASE IF EXISTS cpu" -c "CREATE DATABASE cpu" 2>/dev/null
        "$bin/planmark" drawing add Drawings/sample/plan.png --name bench --regions Drawings/sample/regions.geojson --store "$store" >/dev/null
        pids=()
        for k in $(seq "$servers"); do
            "$bin/planmark-server" --store "$store" --port $((18490 + k)) 2>"$work/server$k.log" & pids+=($!)
        done
        for k in $(seq "$servers"); do
            until grep -q "listening on" "$work/server$k.log" 2>/dev/null; do sleep 0.1; done
        done
        s0=$(ticks "${pids[@]}"); p0=$(ticks $(postgres_pids))
        wrks=()
        for k in $(seq "$servers"); do
            connections=16; [ "$servers" = 3 ] && { connections=5; [ "$k" = 1 ] && connections=6; }
            WRK_RUN_ID=$((round * 100 + k)) wrk -t1 -c$connections -d8s --latency -s Benchmarks/server/post-marker.lua \
                "http://127.0.0.1:$((18490 + k))" >"$work/wrk$k.out" 2>&1 & wrks+=($!)
        done
        wait "${wrks[@]}"
        s1=$(ticks "${pids[@]}"); p1=$(ticks $(postgres_pids))
        stored=$(psql -tA "$store" -c "SELECT count(*) FROM marker")
        rate=$(cat "$work"/wrk*.out | awk '/Requests\/sec/ {s += $2} END {printf "%.0f", s}')
        awk -v r="$round" -v b="$build" -v n="$servers" -v rate="$rate" -v s="$((s1 - s0))" -v p="$((p1 - p0))" -v m="$stored" -v hz="$hz" \
            'BEGIN { printf "round %s %s servers=%s rate=%s/s CPU ms per POST: servers %.3f, PostgreSQL %.3f\n", r, b, n, rate, s * 1000 / hz / m, p * 1000 / hz / m }'
        kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null || true
        rm -f "$work"/wrk*.out "$work"/server*.log
    done
done
