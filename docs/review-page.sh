#!/usr/bin/env bash
# Remakes docs/review-page.png, the README's picture of the review page: the demo store (bash
# Drawings/demo.sh) served by planmark serve on a free port, the page opened in headless Chromium signed in as the
# demo's inspector Ines (a token made for her) at marker 1's link (/#/Level%202/1: zoomed to it, its popup open), and
# the screenshot saved as an optimised PNG.
# Needs chromium, chromium-driver, python3-selenium (Drawings/install-deps.sh) and Pillow for python3.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f demo-out/planmark.sqlite ] || bash Drawings/demo.sh >/dev/null 2>&1
swift build --product planmark-server >/dev/null
log=$(mktemp)
.build/debug/planmark serve --store demo-out/planmark.sqlite --port 0 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
until port=$(grep -o 'listening on http://[^ ]*' "$log" | grep -o '[0-9]*$'); do
    kill -0 $server 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
done
token=$(.build/debug/planmark user token ines --store demo-out/planmark.sqlite 2>/dev/null)
/usr/bin/python3 - "$port" docs/review-page.full.png "$token" <<'PY'
import sys
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait
options = Options()
for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900", "--hide-scrollbars"):
    options.add_argument(flag)
options.binary_location = "/usr/bin/chromium"
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    # The token as the page keeps it (this tab's session storage), then the marker's link.
    driver.get(f"http://127.0.0.1:{sys.argv[1]}/app/icon.svg")
    driver.execute_script("sessionStorage.setItem('planmark-token', arguments[0])", sys.argv[3])
    driver.get(f"http://127.0.0.1:{sys.argv[1]}/#/Level%202/1")
    WebDriverWait(driver, 30, poll_frequency=0.05).until(lambda d: d.execute_script(
        "const imgs = [...document.querySelectorAll('.leaflet-pane img')];"
        "const p = document.querySelectorAll('.leaflet-popup');"
        "if (!(imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0) && p.length === 1)) return false;"
        "const top = p[0].getBoundingClientRect().top, mapTop = document.getElementById('map').getBoundingClientRect().top;"
        "return getComputedStyle(p[0]).opacity === '1' && !!p[0].querySelector('.history[data-loaded]') && top >= mapTop + 20"))
    driver.save_screenshot(sys.argv[2])
finally:
    driver.quit()
PY
/usr/bin/python3 -c "
from PIL import Image
Image.open('docs/review-page.full.png').convert('RGB').save('docs/review-page.png', optimize=True)"
rm -f docs/review-page.full.png
ls -l docs/review-page.png
