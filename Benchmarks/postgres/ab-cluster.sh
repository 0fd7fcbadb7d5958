# Sourced by the A/B scripts here (posts-ab.sh, gets-ab.sh, cpu-per-post.sh, forward-bound.sh), with `port` set: checks for wrk, makes
# `work` (a temporary folder the cluster's user can reach), starts a throwaway cluster with PostgreSQL's durable
# defaults in it (`admin`: its postgres database's URL), and on exit stops any planmark-server of it, the cluster, and
# removes `work`.
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 69; }
work=$(mktemp -d)
chmod 755 "$work"
trap 'pkill -f "planmark-server --store postgres://planmark@127.0.0.1:$port/" || true; bash Drawings/postgres-cluster.sh stop "$work/pg"; rm -rf "$work"' EXIT
admin=$(bash Drawings/postgres-cluster.sh start-durable "$work/pg" "$port")
