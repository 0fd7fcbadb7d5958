# Sourced by the A/B scripts here (posts-ab.sh, gets-ab.sh, cpu-per-post.sh, forward-bound.sh), with `port` set: checks for wrk, makes
# `work` (a temporary folder the cluster's user can reach), starts a throwaway cluster with PostgreSQL's durable
# defaults in it (`admin`: its postgres database's URL), and on exit stops any planmark-server of it, the cluster, and
# removes `work`.
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 69; }
work=$(mktemp -d)
chmod 755 "$work"
trap 'pkill -f "planmark-server --store postgres://planmark@127.0.0.1:$port/" || true; bash Drawings/postgres-cluster.sh stop "$work/pg"; rm -rf "$work"' EXIT
admin=$(bash Drawings/postgres-cluster.sh start-durable "$work/pg" "$port")
# wait_listening N: until servers 1...N (their logs $work/serverK.log) say they listen.
wait_listening() {
    local k
    for k in $(seq "$1"); do until grep -q "listening on" "$work/server$k.log" 2>/dev/null; do sleep 0.1; done; done
}
# post_markers CLIENTS ROUND BASE: marker POSTs with every field for 8 s, one wrk a port BASE+1...: one wrk with 16
# connections (CONNECTIONS=N: N), or three with 6+5+5; waits for them and sets `rate`, their sum a second (outputs in
# $work/wrkK.out).
post_markers() {
    local clients=$1 round=$2 base=$3 k connections wrks=()
    for k in $(seq "$clients"); do
        connections=${CONNECTIONS:-16}; [ "$clients" = 3 ] && { connections=5; [ "$k" = 1 ] && connections=6; }
        WRK_RUN_ID=$((round * 100 + k)) wrk -t1 -c"$connections" -d8s --latency -s Benchmarks/server/post-marker.lua \
            "http://127.0.0.1:$((base + k))" >"$work/wrk$k.out" 2>&1 & wrks+=($!)
    done
    wait "${wrks[@]}"
    rate=$(cat "$work"/wrk*.out | awk '/Requests\/sec/ {s += $2} END {printf "%.0f", s}')
}
