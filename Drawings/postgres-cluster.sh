#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and benchmarks: initdb in a temporary folder, started by
# pg_ctl as an ordinary user (as root: the `postgres` user Debian's package creates), listening on a
# Unix socket in that folder and on 127.0.0.1:PORT only. Trust authentication: the cluster is for this
# machine's tests and is removed when stopped.
#
#   bash Drawings/postgres-cluster.sh start DIR [PORT]   # prints the admin URL (postgres://planmark@127.0.0.1:PORT/postgres)
#   bash Drawings/postgres-cluster.sh start-durable DIR [PORT]   # the same with PostgreSQL's durable defaults (benchmarks of writes)
#   bash Drawings/postgres-cluster.sh stop DIR           # stops it and removes DIR
set -euo pipefail
command=${1:?usage: postgres-cluster.sh start|start-durable DIR [PORT] | stop DIR}
dir=${2:?usage: postgres-cluster.sh start|start-durable DIR [PORT] | stop DIR}
port=${3:-55432}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "postgres-cluster.sh: initdb not found (install Debian's postgresql)" >&2; exit 69; }
as_user=()
if [ "$(id -u)" -eq 0 ]; then as_user=(runuser -u postgres --); fi
case "$command" in
start|start-durable)
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
    "${as_user[@]}" "$bin/initdb" -D "$dir/data" -U planmark --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # Durability is not what the tests measure: fsync off keeps CREATE DATABASE per test fast. A benchmark of writes
    # keeps PostgreSQL's defaults (start-durable): each COMMIT waits for its WAL to reach the disk.
    durable=off
    [ "$command" = start-durable ] && durable=on
    cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 400
fsync = $durable
synchronous_commit = $durable
full_page_writes = $durable
shared_buffers = 256MB
CONF
    "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null \
        || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://planmark@127.0.0.1:$port/postgres"
    ;;
stop)
    if [ -d "$dir/data" ]; then
        "${as_user[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: postgres-cluster.sh start|start-durable DIR [PORT] | stop DIR" >&2; exit 64 ;;
esac
