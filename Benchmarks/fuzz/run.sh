#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each in turn for a given time.
#
#   bash run.sh [SECONDS] [TARGET ...]     # default: 600 seconds each, every target
#   bash run.sh 60 json markers-csv        # one minute each for two targets
#
# Targets: json, regions, markers-csv, png. Each starts from its committed seeds in corpus/<target>/
# (read only) and keeps what it finds in work/<target>/; crashes, hangs (over 10 s) and
# out-of-memory inputs land in artifacts/<target>/ and make this script exit non-zero. Builds and
# runs are niced; one runs at a time. Logs: logs/<target>.log (the last lines give the executions).
set -euo pipefail
cd "$(dirname "$0")"

seconds=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(json regions markers-csv png); fi

# Swift code gets coverage and ASan from -sanitize; the C targets (CPNG, FuzzDriver) through -Xcc. libpng
# and zlib are the system libraries: not instrumented, so their branches give libFuzzer no feedback.
# Release (-O, preconditions kept) with ASan: about 100 times the executions of a debug build here.
flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
       -Xcc -fsanitize=fuzzer-no-link,address)
for target in "${targets[@]}"; do
    [ -d "corpus/$target" ] || { echo "run.sh: unknown target $target" >&2; exit 64; }
    nice -n 10 swift build "${flags[@]}" --product "fuzz-$target"
done
bin=$(swift build "${flags[@]}" --show-bin-path)

status=0
mkdir -p logs
for target in "${targets[@]}"; do
    mkdir -p "work/$target" "artifacts/$target"
    dict=()
    if [ -f "dict/$target.dict" ]; then dict=(-dict="dict/$target.dict"); fi
    echo "== fuzz-$target for ${seconds}s (log: logs/$target.log)"
    if ! nice -n 10 "$bin/fuzz-$target" "work/$target" "corpus/$target" "${dict[@]}" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=3072 -max_len=65536 \
        -artifact_prefix="artifacts/$target/" -print_final_stats=1 >"logs/$target.log" 2>&1; then
        echo "fuzz-$target: finding in artifacts/$target/ (see logs/$target.log)" >&2
        status=1
    fi
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done )' "logs/$target.log" || tail -n 3 "logs/$target.log"
done
exit $status
