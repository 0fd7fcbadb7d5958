#!/usr/bin/env bash
# Schema-driven run of the HTTP service: schemathesis generates requests from /openapi.json and checks
# every answer against the document (status, content type, headers, body schema) and for 5xx.
#  - installs schemathesis from PyPI when it is missing (pip install schemathesis);
#  - builds planmark and planmark-server (debug, into .build or $SCRATCH) unless $BIN is given;
#  - starts planmark-server on a free loopback port with a temporary store holding the sample
#    drawing (Drawings/sample) under the name "plan" and a token;
#  - runs a bounded run: MAX_EXAMPLES cases per operation and phase (default 10), all checks,
#    a fixed seed (SEED, default 1), the token as a header; then stops the server.
# Exit status: schemathesis's (0 when nothing failed).
set -euo pipefail
cd "$(dirname "$0")/../.."
SCRATCH=${SCRATCH:-.build}
MAX_EXAMPLES=${MAX_EXAMPLES:-10}
SEED=${SEED:-1}
TOKEN=schemathesis-token
command -v schemathesis >/dev/null || python3 -m pip install --quiet schemathesis
command -v schemathesis >/dev/null || { echo "schemathesis is not on PATH after pip install" >&2; exit 69; }
if [ -z "${BIN:-}" ]; then
    nice -n 10 swift build --scratch-path "$SCRATCH" --product planmark-server >/dev/null
    nice -n 10 swift build --scratch-path "$SCRATCH" --product planmark >/dev/null
    BIN="$SCRATCH/debug"
fi
WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
STORE="$WORK/store.sqlite"
"$BIN/planmark" drawing add Drawings/sample/plan.png --name plan --regions Drawings/sample/regions.geojson --store "$STORE" >/dev/null
"$BIN/planmark" mark plan 450 400 --store "$STORE" >/dev/null
mkfifo "$WORK/log"
"$BIN/planmark-server" --store "$STORE" --port 0 --token "$TOKEN" --busy-timeout 2 2>"$WORK/log" &
SERVER_PID=$!
# Wait for the "listening on" line itself (read from the FIFO), then keep copying the log to a file.
PORT=""
exec 3<"$WORK/log"
while IFS= read -r line <&3; do
    echo "$line" >>"$WORK/server.log"
    case "$line" in *"listening on http://"*) PORT=${line##*:}; PORT=${PORT%% *}; break ;; esac
done
[ -n "$PORT" ] || { echo "the server did not start:" >&2; cat "$WORK/server.log" >&2; exit 1; }
cat <&3 >>"$WORK/server.log" &
URL="http://127.0.0.1:$PORT"
echo "planmark-server on $URL (store $STORE)"
set +e
ROOT=$(pwd)
# From the temporary folder, so schemathesis's own files (.schemathesis/) stay out of the checkout.
(cd "$WORK" && schemathesis --config-file "$ROOT/Benchmarks/schemathesis/schemathesis.toml" run "$URL/openapi.json" \
    --url "$URL" \
    --header "Authorization: Bearer $TOKEN" \
    --checks all \
    --max-examples "$MAX_EXAMPLES" \
    --seed "$SEED" \
    --generation-database none \
    --request-timeout 30 \
    --no-color \
    ${SCHEMATHESIS_ARGS:-})
STATUS=$?
set -e
echo "server answers with status 5xx in its log: $(grep -cE ' 5[0-9][0-9] [0-9.]+ms' "$WORK/server.log" || true)"
exit $STATUS
