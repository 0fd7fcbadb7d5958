#!/usr/bin/env bash
# The README demo: installs what is missing, builds planmark, and runs the main job on the sample
# drawing with the embedded store (SQLite): store the drawing and its markers, validate them, list
# them, calibrate the scale, render the review PNG and write the punch-list PDF; adds the same plan as a
# PDF (Drawings/sample/plan.pdf) as a second drawing with the same markers; then shows the team through
# the service.
#
# It builds only what it runs: planmark, planmark-pdf (which planmark runs to read PDFs) and planmark-server
# without the PostgreSQL package trait (no postgres-nio, swift-crypto or BoringSSL), in its own scratch path
# .build-demo, so the default build in .build (which .ci/run and `swift build` make) is left as it is.
# PLANMARK_DEMO_BIN=DIR runs the planmark, planmark-pdf and planmark-server already in DIR instead (nothing
# installed or built; the tests use it);
# PLANMARK_DEMO_OUT=DIR writes somewhere else than demo-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PLANMARK_DEMO_BIN:-}
if [ -z "$bin" ]; then
    # The estimate: measured from clean on a 2-core machine shared with other builds (load about 12), planmark
    # took 988 s, then planmark-server 1,477 s more, and the run 84 s; planmark alone from clean on 2 free cores
    # takes 98 s (Package.swift), so both about 4 minutes, plus fetching the packages. A second run builds nothing.
    echo "demo: builds planmark, planmark-pdf and planmark-server (without PostgreSQL, in .build-demo/): about 5 minutes the first time on 2 free cores, seconds after; then runs for about a minute" >&2
    bash Drawings/install-deps.sh --demo
    swift build --disable-default-traits --product planmark --scratch-path .build-demo >&2
    swift build --disable-default-traits --product planmark-pdf --scratch-path .build-demo >&2
    swift build --disable-default-traits --product planmark-server --scratch-path .build-demo >&2
    bin="$PWD/.build-demo/debug"
else
    echo "demo: runs the planmark, planmark-pdf and planmark-server in $bin (nothing to build): about a minute" >&2
fi
planmark="$bin/planmark"
sample=Drawings/sample
out=${PLANMARK_DEMO_OUT:-demo-out}
mkdir -p "$out"
export PLANMARK_STORE="$out/planmark.sqlite"
rm -f "$PLANMARK_STORE" "$PLANMARK_STORE-wal" "$PLANMARK_STORE-shm"

step() { printf '\n== %s\n' "$*" >&2; }

step "Validate the sample markers against the rooms and the allowed area (5 are invalid on purpose)"
"$planmark" validate --regions "$sample/regions.geojson" --size 2400x1600 "$sample/markers.csv" || [ $? -eq 1 ]

step "Store the drawing with its regions in $PLANMARK_STORE"
"$planmark" drawing add "$sample/plan.png" --name "Level 2" --regions "$sample/regions.geojson"

step "Import the markers: the valid ones are stored and numbered, the invalid ones reported"
"$planmark" import "Level 2" "$sample/markers.csv" --skip-invalid || [ $? -eq 1 ]

step "A tap from a Leaflet client at zoom 2 (lat -250, lng 300 = pixel 1200, 1000), and one resolved marker"
"$planmark" mark "Level 2" --lat -250 --lng 300 --zoom 2 --note "cracked tile"
"$planmark" resolve "Level 2" 3

step "Punch items: assign two markers, move one through the workflow, list what Ben has open"
"$planmark" update "Level 2" 1 2 --assignee Ben --category Tiling --priority high --due 2026-12-01
"$planmark" status "Level 2" 1 in-progress
"$planmark" markers "Level 2" --assignee Ben --status open,in-progress
"$planmark" summary "Level 2"

step "The stored markers"
"$planmark" markers "Level 2"

step "Scale: the sheet is 1:100 exported at 254 dpi (1 px = 1 cm, as its scale bar says); a distance in metres"
"$planmark" drawing calibrate "Level 2" --paper-scale 1:100 --dpi 254
"$planmark" measure "Level 2" 200,200 2200,200

step "The review image (room areas in the legend): $out/review.png"
"$planmark" render "Level 2" --legend --title "Level 2 - review" -o "$out/review.png"
"$planmark" render "Level 2" --around 18 --margin 250 -o "$out/marker-18.png"
echo "wrote $out/review.png and $out/marker-18.png" >&2

step "The punch-list report of what is still open: $out/punch-list.pdf"
"$planmark" report "Level 2" --status open,in-progress,ready --group-by room -o "$out/punch-list.pdf"

step "The same plan as a PDF, $sample/plan.pdf (vectors): a second drawing, its page counted at 150 dpi (2400 x 1600 px), so the sample's regions and markers apply unchanged"
# Its tile pyramid is drawn from the page by planmark-pdf (and the server draws two levels deeper from the vectors).
"$planmark" drawing add "$sample/plan.pdf" --name "Level 2 (PDF)" --dpi 150 --regions "$sample/regions.geojson"
"$planmark" import "Level 2 (PDF)" "$sample/markers.csv" --skip-invalid || [ $? -eq 1 ]
diff <("$planmark" markers "Level 2" | cut -f1-3,8 | head -18) <("$planmark" markers "Level 2 (PDF)" | cut -f1-3,8) >&2
echo "markers 1 to 17: the same positions and rooms on the PNG drawing and on the PDF drawing" >&2
"$planmark" drawing list

step "The team: Ines inspects, Sam works for the subcontractor Acme (docs/team.md)"
"$planmark" user add ines --email ines@build.example
"$planmark" user add sam --email sam@acme.example --company Acme
"$planmark" project grant default ines inspector
"$planmark" project grant default sam subcontractor
"$planmark" update "Level 2" 4 6 --assignee Acme --as ines
"$planmark" comment "Level 2" 4 "Grout missing along the door frame" --as ines >/dev/null
ines_token=$("$planmark" user token ines --label demo 2>/dev/null)
sam_token=$("$planmark" user token sam --label demo 2>/dev/null)
"$planmark" project members default
"$planmark" comments "Level 2" 4

step "BIM tools: the punch list as a BCF 2.1 file (a topic a marker, its thread and a snapshot), $out/level2.bcf (docs/bcf.md)"
"$planmark" export "Level 2" --format bcf -o "$out/level2.bcf"

step "The history is a hash chain: verify it, and keep its head"
"$planmark" history verify
"$planmark" history head

step "What each sees through the service (planmark serve on a loopback port, each with their own token)"
"$planmark" serve --store "$PLANMARK_STORE" --port 0 2>"$out/server.log" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
until grep -q "listening on" "$out/server.log"; do
    kill -0 $server 2>/dev/null || { cat "$out/server.log" >&2; exit 1; }
    sleep 0.1
done
base=$(grep -o "http://[^ ]*" "$out/server.log" | head -1)
for who in ines sam; do
    token=$([ $who = ines ] && echo "$ines_token" || echo "$sam_token")
    me=$(curl -sf -H "Authorization: Bearer $token" "$base/me")
    markers=$(curl -sf -H "Authorization: Bearer $token" "$base/drawings/Level%202/markers")
    python3 - "$me" "$markers" <<'PY'
import json, sys
me, markers = json.loads(sys.argv[1]), json.loads(sys.argv[2])
numbers = [f["properties"]["number"] for f in markers["features"]]
role = ", ".join(p["role"] for p in me["projects"])
print(f"{me['name']} · {role}: sees {len(numbers)} markers: {' '.join(map(str, numbers))}")
PY
done
printf 'sam marks marker 4 ready: HTTP %s\n' "$(curl -s -o /dev/null -w '%{http_code}' -X PATCH -H "Authorization: Bearer $sam_token" \
    -H 'Content-Type: application/json' -d '{"status":"ready"}' "$base/drawings/Level%202/markers/4")"
printf 'sam places a marker: HTTP %s (a subcontractor may not)\n' "$(curl -s -o /dev/null -w '%{http_code}' -X POST \
    -H "Authorization: Bearer $sam_token" -H 'Content-Type: application/json' -d '{"x":900,"y":400}' "$base/drawings/Level%202/markers")"
printf 'sam asks for marker 1: HTTP %s (not assigned to Acme: not there for him)\n' "$(curl -s -o /dev/null -w '%{http_code}' \
    -H "Authorization: Bearer $sam_token" "$base/drawings/Level%202/markers/1")"
kill $server
wait $server 2>/dev/null || true
trap - EXIT

step "The review page: run this and open the address in a browser (Ctrl-C stops the server)"
echo "$planmark serve --store $PLANMARK_STORE   # then open http://127.0.0.1:8080/#/Level%202 and sign in with a token" >&2
echo "($planmark user token ines   prints a new token for Ines)" >&2
echo "demo done in $SECONDS s" >&2
