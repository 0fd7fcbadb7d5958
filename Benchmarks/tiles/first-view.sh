#!/usr/bin/env bash
# A big sheet's first view from a cold service: starts planmark-server on STORE with an empty tile cache, then
# times what the review page asks for first: GET /drawings/NAME, then every tile of level Z (the level the
# page opens the whole sheet at) at once, as a browser does. Prints the milliseconds from the drawing's request to
# the last of those tiles, and checks every tile is a PNG. Stops the server and removes the cache.
#   Benchmarks/tiles/first-view.sh BIN STORE NAME Z
set -euo pipefail
BIN=$1 STORE=$2 NAME=$3 Z=$4
source "$(dirname "$0")/cold-server.sh"
BASE="http://127.0.0.1:$PORT"
start=$(date +%s%N)
curl -fsS -o "$WORK/drawing.json" "$BASE/drawings/$NAME"
# The tiles of level Z: the drawing's template, and columns and rows from its size (the pyramid's scheme: level Z is
# the image scaled by 2^(Z - zoom), in 256 px tiles).
python3 - "$WORK/drawing.json" "$Z" "$BASE" > "$WORK/curl.cfg" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1])); z = int(sys.argv[2]); base = sys.argv[3]
f = 2 ** (d["zoom"] - z)
for x in range(math.ceil(d["width"] / f / 256)):
    for y in range(math.ceil(d["height"] / f / 256)):
        url = d["tiles"]["template"].replace("{z}", str(z)).replace("{x}", str(x)).replace("{y}", str(y))
        print(f'url = "{base}{url}"\noutput = "tile-{x}-{y}.png"')
PY
(cd "$WORK" && curl -fsS --no-progress-meter -Z --parallel-max 16 -K curl.cfg)
end=$(date +%s%N)
for tile in "$WORK"/tile-*.png; do head -c 8 "$tile" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a"; done
echo "first view: $(( (end - start) / 1000000 )) ms for $(ls "$WORK"/tile-*.png | wc -l) tiles of level $Z" >&2
