#!/usr/bin/env bash
# The README demo: installs what is missing, builds planmark, and runs the main job on the sample
# drawing with the embedded defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Drawings/install-deps.sh
swift build --product planmark >&2
planmark=".build/debug/planmark"
sample=Drawings/sample
out=${PLANMARK_DEMO_OUT:-demo-out}
mkdir -p "$out"

echo "== Validate the sample markers against the rooms and the allowed area" >&2
# Exit status 1 means some markers are invalid, which the sample has on purpose.
"$planmark" validate --regions "$sample/regions.geojson" --size 2400x1600 "$sample/markers.csv" || [ $? -eq 1 ]

echo "== The same markers as JSON Lines, written to $out/validate.jsonl" >&2
"$planmark" validate --regions "$sample/regions.geojson" --size 2400x1600 --report jsonl "$sample/markers.csv" > "$out/validate.jsonl" || [ $? -eq 1 ]
