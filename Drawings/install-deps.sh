#!/usr/bin/env bash
# Installs the Debian packages PlanMark builds and runs with, when they are missing.
# libpng (PNG input/output), FreeType and DejaVu (marker labels), SQLite (the store), pkg-config;
# Leaflet for the review page `planmark serve` serves (libjs-leaflet) with its plugin that groups pins that overlap
# (libjs-leaflet.markercluster), and headless Chromium with its
# WebDriver and Selenium for the page's browser tests (chromium, chromium-driver, python3-selenium); cairo for
# the punch-list report (libcairo2-dev) and poppler's tools that its tests read the PDFs with (poppler-utils);
# poppler's GLib API for PDF drawings (libpoppler-glib-dev), with pycairo and pypdf, which write its tests' PDFs
# (python3-cairo, python3-pypdf);
# PostgreSQL with PostGIS for the PostgreSQL store's tests (a throwaway cluster: Drawings/postgres-cluster.sh);
# Node and ESLint for the review page's unit tests and lint (nodejs, eslint); curl for the demo's and the README's
# HTTP examples.
# With --demo it installs only what building and running planmark, planmark-pdf and planmark-server needs (the demo: no
# browser, PostgreSQL, Node or poppler's tools); with package names as arguments, those instead (the benchmarks'
# peers).
set -euo pipefail
run=(pkg-config libpng-dev libfreetype-dev fonts-dejavu-core libsqlite3-dev sqlite3 libcairo2-dev libpoppler-glib-dev
     libjs-leaflet libjs-leaflet.markercluster curl python3)
packages=("${run[@]}" chromium chromium-driver python3-selenium poppler-utils python3-cairo python3-pypdf postgresql
          postgis nodejs eslint)
if [ "${1:-}" = --demo ]; then
    packages=("${run[@]}")
elif [ $# -gt 0 ]; then
    packages=("$@")
fi
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
