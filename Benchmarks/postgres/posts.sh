#!/usr/bin/env bash
# Marker POSTs/s and latency with 1 and 3 `planmark-server` processes on one PostgreSQL database and drawing, side by
# side with pgbench doing one POST's work per transaction, and GETs of 10,000 markers as latLng GeoJSON (posts.py).
# A throwaway cluster (Drawings/postgres-cluster.sh) on this machine with PostgreSQL's durable defaults (fsync on,
# synchronous_commit on): servers, clients and PostgreSQL share its cores. Needs wrk and pgbench.
# BIN: a folder with release builds of planmark and planmark-server (skips the build). ROUNDS (3), DURATION (10 s).
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT=${PGPORT_BENCH:-55450}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 69; }
PGBENCH=$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -1 || true)
[ -n "$PGBENCH" ] || { echo "pgbench is missing: apt-get install -y postgresql" >&2; exit 69; }
export PATH="$(dirname "$PGBENCH"):$PATH"
if [ -z "${BIN:-}" ]; then
    swift build -c release --scratch-path "${SCRATCH:-.build}" --product planmark-server >/dev/null
    swift build -c release --scratch-path "${SCRATCH:-.build}" --product planmark >/dev/null
    BIN="${SCRATCH:-.build}/release"
fi
WORK=$(mktemp -d)
chmod 755 "$WORK"   # the cluster runs as the user postgres, which must reach $WORK/pg
trap 'bash Drawings/postgres-cluster.sh stop "$WORK/pg"; rm -rf "$WORK"' EXIT
# PostgreSQL's durable defaults: each COMMIT waits for its WAL to reach the disk, and a 201 is sent only after that.
ADMIN=$(bash Drawings/postgres-cluster.sh start-durable "$WORK/pg" "$PORT")
echo "fsync $(psql -tA "$ADMIN" -c 'SHOW fsync'), synchronous_commit $(psql -tA "$ADMIN" -c 'SHOW synchronous_commit'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 Benchmarks/postgres/posts.py --admin "$ADMIN" --bin "$BIN" --rounds "${ROUNDS:-3}" --duration "${DURATION:-10}"
