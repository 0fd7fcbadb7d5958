#!/usr/bin/env bash
# The A0 sheet (14043x9933) in headless Chromium: one L.imageOverlay of the whole PNG (what map clients did
# before tiles) against the review page's tile layer, interleaved runs, medians of the time until the
# first view is painted and of the renderer's peak private memory. See README-browser.md.
#   bash Benchmarks/tiles/browser/run.sh [RUNS]        (default 5 of each)
# Needs Debian's chromium, chromium-driver, python3-selenium, libjs-leaflet (Drawings/install-deps.sh) and,
# for the pyramid when `planmark tiles` is not built, libvips-tools.
set -euo pipefail
cd "$(dirname "$0")/../../.."
runs=${1:-5}
data=Benchmarks/data
image=$data/render/plan-a0.png
[ -f "$image" ] || python3 Benchmarks/render/generate.py --a0
# The drawing at zoom 6: image pixels are CRS pixels at zoom 6, so the pyramid is levels 0 (one tile) to 6.
if .build/release/planmark tiles --help >/dev/null 2>&1; then
    [ -f "$data/tiles/planmark-a0/tiles.json" ] || .build/release/planmark tiles --image "$image" --zoom 6 -o "$data/tiles/planmark-a0"
    tiles=(--tiles "$data/tiles/planmark-a0")
else
    [ -d "$data/tiles/vips-a0/6" ] || vips dzsave "$image" "$data/tiles/vips-a0" --layout google --tile-size 256 --suffix .png
    tiles=(--tiles "$data/tiles/vips-a0" --google)
fi
/usr/bin/python3 Benchmarks/tiles/browser/browser_bench.py --image "$image" "${tiles[@]}" --zoom 6 --min-zoom 0 --runs "$runs"
