#!/usr/bin/env bash
# One whole-process run of the photo-upload comparison: start a server on a fresh store, upload the 20
# distinct 5 MiB photos of $PHOTOS (made on the first run) one after another with curl, stop.
#   upload-ab.sh planmark   # planmark-server (release build in $SCRATCH, default .build)
#   upload-ab.sh python     # upload_peer.py, the same job with Python's standard library
# Prints the bytes stored; exits non-zero when an upload was not answered 201.
set -euo pipefail
cd "$(dirname "$0")/../.."
SCRATCH=${SCRATCH:-.build}
PHOTOS=${PHOTOS:-Benchmarks/data/photos}
if [ ! -f "$PHOTOS/19.jpg" ]; then
  # 20 photos of 5 MiB: a JPEG header, then bytes that differ from photo to photo.
  python3 - "$PHOTOS" <<'PY'
import os, random, sys
os.makedirs(sys.argv[1], exist_ok=True)
rng = random.Random(10)
for k in range(20):
    with open(os.path.join(sys.argv[1], f"{k:02d}.jpg"), "wb") as f:
        f.write(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + rng.randbytes(5 * 1024 * 1024 - 20))
PY
fi
WORK=$(mktemp -d)
PID=""
cleanup() { [ -n "$PID" ] && kill -TERM "$PID" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
case "$1" in
  planmark)
    "$SCRATCH/release/planmark" drawing add Drawings/sample/plan.png --name bench --regions Drawings/sample/regions.geojson --store "$WORK/s.sqlite" >/dev/null
    "$SCRATCH/release/planmark" mark bench 450 400 --store "$WORK/s.sqlite" >/dev/null
    "$SCRATCH/release/planmark-server" --store "$WORK/s.sqlite" --port 0 2>"$WORK/log" &
    PID=$! ;;
  python)
    python3 Benchmarks/server/upload_peer.py "$WORK/s.sqlite" 0 2>"$WORK/log" &
    PID=$! ;;
  *) echo "usage: upload-ab.sh planmark|python" >&2; exit 64 ;;
esac
# Both servers say "listening on http://127.0.0.1:PORT" on stderr.
PORT=""
for _ in $(seq 500); do
  PORT=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$WORK/log" | head -1)
  [ -n "$PORT" ] && break
  sleep 0.02
done
[ -n "$PORT" ] || { echo "the server did not start: $(cat "$WORK/log")" >&2; exit 1; }
for photo in "$PHOTOS"/*.jpg; do
  # No `Expect: 100-continue` (curl sends it for bodies over 1 MiB): planmark-server does not answer it, and
  # curl would wait 1 s before each body.
  code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: image/jpeg' -H 'Expect:' --data-binary @"$photo" \
    "http://127.0.0.1:$PORT/drawings/bench/markers/1/attachments")
  [ "$code" = 201 ] || { echo "upload of $photo answered $code" >&2; exit 1; }
done
kill -TERM "$PID"; wait "$PID" 2>/dev/null || true; PID=""
du -b "$WORK/s.sqlite" | cut -f1
