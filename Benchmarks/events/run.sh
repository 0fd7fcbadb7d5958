#!/usr/bin/env bash
# Event-stream viewers under load (issue 26): 200 viewers over 3 planmark-server processes on one PostgreSQL store
# with 20 marker POSTs a second for 60 s, and 200 viewers of one server on SQLite with the CLI writing beside it
# (events.py; README.md here). A throwaway cluster (Drawings/postgres-cluster.sh) on this machine with PostgreSQL's
# durable defaults (fsync on, synchronous_commit on); servers, viewers and PostgreSQL share its cores.
# BIN: a folder with release builds of planmark and planmark-server (skips the build). Other arguments go to events.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT=${PGPORT_BENCH:-55460}
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
ulimit -n 4096
python3 Benchmarks/events/events.py --admin "$ADMIN" --bin "$BIN" "$@"
