#!/usr/bin/env bash
# CPU per marker POST, in the servers and in PostgreSQL, for two builds side by side (A, B, A, B, ...): SERVERS
# planmark-server processes (1 or 3) on one database and drawing of a throwaway cluster with fsync on, 16 wrk
# connections in all (6+5+5 for three), 8 s a run, a fresh database a run. CPU is /proc's user+system time of the
# servers and of the cluster's PostgreSQL processes over the run, divided by the markers stored; a batch is a
# transaction that stored markers (their xmin); idle is the whole machine's (/proc/stat), wrk's CPU not counted above.
#
#   bash Benchmarks/postgres/cpu-per-post.sh OLD_BIN NEW_BIN [ROUNDS] [SERVERS]   # folders with release builds
#
# CONNECTIONS=N gives one server N connections instead of 16 (CONNECTIONS=6: one server at the batch size each of
# three servers gets), to tell the cost of small batches from the cost of more processes.
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
# This cluster's postmaster and its children (not `pgrep -f postgres`: the servers' command lines name postgres:// too).
postgres_pids() { local main; main=$(head -1 "$work/pg/data/postmaster.pid"); echo "$main $(pgrep -P "$main" | tr '\n' ' ')"; }
# The machine's idle ticks (all cores), from /proc/stat.
idle_ticks() { awk '/^cpu / {print $5 + $6}' /proc/stat; }
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
        wait_listening "$servers"
        s0=$(ticks "${pids[@]}"); p0=$(ticks $(postgres_pids)); i0=$(idle_ticks); t0=$(date +%s%N)
        post_markers "$servers" "$round" 18490
        s1=$(ticks "${pids[@]}"); p1=$(ticks $(postgres_pids)); i1=$(idle_ticks); t1=$(date +%s%N)
        # The markers, and the transactions that stored them (a batch each: its markers share the inserting xmin).
        IFS='|' read -r stored batches < <(psql -tA "$store" -c "SELECT count(*), count(DISTINCT xmin::text) FROM marker")
        awk -v r="$round" -v b="$build" -v n="$servers" -v rate="$rate" -v s="$((s1 - s0))" -v p="$((p1 - p0))" -v m="$stored" -v k="$batches" -v hz="$hz" \
            -v idle="$((i1 - i0))" -v wall="$(( (t1 - t0) / 1000000 ))" -v cores="$(nproc)" \
            'BEGIN { printf "round %s %s servers=%s rate=%s/s, %.1f POSTs a batch; CPU ms per POST: servers %.3f, PostgreSQL %.3f; machine idle %.0f%%\n", r, b, n, rate, m / k, s * 1000 / hz / m, p * 1000 / hz / m, idle * 1000 / hz * 100 / (wall * cores) }'
        kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null || true
        rm -f "$work"/wrk*.out "$work"/server*.log
    done
done
