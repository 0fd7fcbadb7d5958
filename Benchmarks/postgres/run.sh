#!/usr/bin/env bash
# The PostgreSQL store benchmark, end to end: a release build, a throwaway cluster (removed afterwards), the store
# benchmark's 1,000,000-marker CSV (Benchmarks/store/generate.py), then Benchmarks/postgres/run.py.
#
#   bash Benchmarks/postgres/run.sh [RUNS]
#   SCRATCH=/tmp/rel-pg PORT=55440 DATA=.build/store-bench bash Benchmarks/postgres/run.sh 5
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-5}
scratch=${SCRATCH:-/tmp/rel-pg}
port=${PORT:-55440}
data=${DATA:-$root/.build/store-bench}
cluster=$(mktemp -d /tmp/planmark-pg-bench.XXXXXX)
cd "$root"
swift build -c release --scratch-path "$scratch" --product planmark
trap 'bash "$root/Drawings/postgres-cluster.sh" stop "$cluster"' EXIT
admin=$(bash Drawings/postgres-cluster.sh start "$cluster" "$port")
[ -f "$data/markers.csv" ] || python3 Benchmarks/store/generate.py "$data"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 Benchmarks/postgres/run.py --admin "$admin" --runs "$runs" --bin "$scratch/release/planmark" --data "$data"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
