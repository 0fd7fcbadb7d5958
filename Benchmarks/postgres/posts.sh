#!/usr/bin/env bash
# Marker POSTs/s and latency with 1, 2 and 3 `planmark-server` processes on one PostgreSQL database.
# 16 HTTP connections in all, spread evenly over the servers (one wrk per server, started together); each server's
# pool holds up to 16 database connections. A throwaway cluster (Drawings/postgres-cluster.sh) on this machine:
# servers, clients and PostgreSQL share its cores, so the figures show the cost of the shared database, not scaling
# across machines. Needs wrk. BIN: a folder with release builds of planmark and planmark-server (skips the build).
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${DURATION:-10s}
PORT=${PGPORT_BENCH:-55450}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 69; }
if [ -z "${BIN:-}" ]; then
    swift build -c release --scratch-path "${SCRATCH:-.build}" --product planmark-server >/dev/null
    swift build -c release --scratch-path "${SCRATCH:-.build}" --product planmark >/dev/null
    BIN="${SCRATCH:-.build}/release"
fi
WORK=$(mktemp -d)
chmod 755 "$WORK"   # the cluster runs as the user postgres, which must reach $WORK/pg
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    bash Drawings/postgres-cluster.sh stop "$WORK/pg"
    rm -rf "$WORK"
}
trap cleanup EXIT
ADMIN=$(bash Drawings/postgres-cluster.sh start "$WORK/pg" "$PORT")
# The cluster script turns fsync off for the tests; a benchmark of writes keeps PostgreSQL's defaults (fsync, and
# each COMMIT waits for its WAL to reach the disk). SYNCHRONOUS_COMMIT=off measures commits acknowledged before that
# flush (a crash of the database server may lose the last acknowledged ones; nothing is ever half applied).
psql -q "$ADMIN" -c "ALTER SYSTEM SET fsync = on" -c "ALTER SYSTEM SET synchronous_commit = ${SYNCHRONOUS_COMMIT:-on}" -c "ALTER SYSTEM SET full_page_writes = on" -c "SELECT pg_reload_conf()" >/dev/null
echo "fsync on, synchronous_commit ${SYNCHRONOUS_COMMIT:-on}"
for servers in 1 2 3; do
    DB="posts$servers"
    psql -q "$ADMIN" -c "CREATE DATABASE $DB" >/dev/null
    URL="${ADMIN%/postgres}/$DB"
    "$BIN/planmark" drawing add Drawings/sample/plan.png --name bench --regions Drawings/sample/regions.geojson --store "$URL" >/dev/null
    PIDS=()
    ports=()
    for i in $(seq "$servers"); do
        "$BIN/planmark-server" --store "$URL" --port 0 2>"$WORK/server$i.log" &
        PIDS+=($!)
        for _ in $(seq 200); do grep -q "listening on" "$WORK/server$i.log" && break; sleep 0.05; done
        ports+=("$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$WORK/server$i.log" | head -1)")
    done
    echo "== $servers server(s), 16 connections in all, $DURATION"
    wrk_pids=()
    for i in $(seq "$servers"); do
        connections=$((16 / servers + (i <= 16 % servers ? 1 : 0)))   # 16, 8+8, 6+5+5
        WRK_RUN_ID=$(( (RANDOM * 3 + i) % 65536 )) wrk -t1 -c"$connections" -d"$DURATION" --latency -s Benchmarks/server/post-marker.lua "http://127.0.0.1:${ports[$((i - 1))]}" >"$WORK/wrk$i.txt" &
        wrk_pids+=($!)
    done
    wait "${wrk_pids[@]}"
    python3 - "$WORK" "$servers" <<'PY'
import re, sys
work, servers = sys.argv[1], int(sys.argv[2])
total, p50, p99, non201 = 0.0, [], [], 0
def ms(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
for i in range(1, servers + 1):
    text = open(f"{work}/wrk{i}.txt").read()
    total += float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    p50.append(ms(re.search(r"50%\s+(\S+)", text).group(1)))
    p99.append(ms(re.search(r"99%\s+(\S+)", text).group(1)))
    m = re.search(r"non-201 answers: (\d+)", text)
    non201 += int(m.group(1)) if m else 0
print(f"POSTs/s {total:.0f}  p50 (worst server) {max(p50):.1f} ms  p99 (worst server) {max(p99):.1f} ms  non-201 {non201}")
PY
    echo "markers stored: $(psql -tA "$URL" -c "SELECT count(*) FROM marker") (numbers 1..$(psql -tA "$URL" -c "SELECT max(number) FROM marker"), distinct $(psql -tA "$URL" -c "SELECT count(DISTINCT number) FROM marker"))"
    for pid in "${PIDS[@]}"; do kill -TERM "$pid"; wait "$pid" || true; done
    PIDS=()
done
