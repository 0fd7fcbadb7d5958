# Sourced by http-cold.sh and first-view.sh: starts "$BIN/planmark-server" on "$STORE" with an empty tile cache in a
# temporary folder (WORK), waits until it listens and sets PORT; the server is stopped and WORK removed on exit.
# SERVER_ARGS, if set: more arguments for the server (split on spaces). TILES_FROM, if set: a tile folder copied in as
# the server's before it starts (the pyramids `planmark drawing add` wrote).
WORK=$(mktemp -d)
PID=""
cleanup() { [ -n "$PID" ] && kill -TERM "$PID" 2>/dev/null && wait "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
if [ -n "${TILES_FROM:-}" ]; then cp -r "$TILES_FROM" "$WORK/tiles"; fi
# shellcheck disable=SC2086
"$BIN/planmark-server" --store "$STORE" --port 0 --tile-cache "$WORK/tiles" ${SERVER_ARGS:-} 2>"$WORK/server.log" &
PID=$!
for _ in $(seq 400); do grep -q "listening on" "$WORK/server.log" && break; sleep 0.05; done
PORT=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$WORK/server.log" | head -1)
