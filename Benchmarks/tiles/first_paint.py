#!/usr/bin/python3
"""First paint of a drawing in the review page (Benchmarks/tiles/first-paint.sh runs it).

Opens BASE/#/NAME in a fresh headless Chromium (Debian's chromium and chromium-driver, python3-selenium; a new
profile each run, the disk cache off: nothing kept between runs) at a phone's or a desktop's size and prints one JSON
line of milliseconds from the navigation's start (`performance.now()` in the page):

- `drawing`: the answer of GET /drawings/NAME received (the Resource Timing entry's responseEnd);
- `tiles`: the sheet's tile layer fired Leaflet's `load` ("every visible tile loaded") the first time: the first
  view is there, every tile of it (`count`: how many);
- `painted`: two animation frames after that (the view has been painted);
- with --status, `status`: every text the page's tiles status (#tiles-status) showed, until it hid again after
  showing one (the server's pyramid made), '' for hidden.

The page's own code is not changed: a script added before any of the page's (CDP
`Page.addScriptToEvaluateOnNewDocument`) wraps Leaflet's `Evented.fire` once Leaflet has defined `L`.
"""
import argparse
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

# Leaflet's UMD wrapper does `factory(global.L = {})`: the setter sees the empty object, filled by the end of the same
# script, so the wrap waits for a microtask.
HOOK = r"""
(() => {
  const marks = window.__firstPaint = {};
  let leaflet;
  Object.defineProperty(window, 'L', {
    configurable: true,
    get() { return leaflet; },
    set(value) {
      leaflet = value;
      queueMicrotask(() => {
        const fire = value.Evented.prototype.fire;
        value.Evented.prototype.fire = function (type, data, propagate) {
          if (type === 'load' && this instanceof value.GridLayer && this.options.className === 'sheet-tiles' && marks.tiles === undefined) {
            marks.tiles = performance.now();
            marks.count = this.getContainer().querySelectorAll('img.leaflet-tile-loaded').length;
            requestAnimationFrame(() => requestAnimationFrame(() => { marks.painted = performance.now(); }));
          }
          return fire.call(this, type, data, propagate);
        };
      });
    },
  });
  marks.status = [];
  document.addEventListener('DOMContentLoaded', () => {
    const status = document.getElementById('tiles-status');
    if (!status) return;
    const note = () => {
      const text = status.hidden ? '' : status.textContent;
      if (marks.status[marks.status.length - 1] !== text) marks.status.push(text);
    };
    new MutationObserver(note).observe(status, { attributes: true, childList: true, characterData: true, subtree: true });
  });
})();
"""

SIZES = {
    # CSS pixels; the phone as the review page's browser test has it (390 x 844, 3 device pixels a CSS pixel, touch).
    "phone": {"width": 390, "height": 844, "pixelRatio": 3, "touch": True},
    "desktop": {"width": 1280, "height": 860},
}


def browser(size):
    """A fresh headless Chromium at `size` (a key of SIZES)."""
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--disable-extensions", "--no-first-run",
                 "--disable-background-networking", "--disk-cache-size=1"):
        options.add_argument(flag)
    metrics = SIZES[size]
    if size == "phone":
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    else:
        options.add_argument(f"--window-size={metrics['width']},{metrics['height']}")
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def measure(base, name, size, timeout, status=False):
    """One run: the marks of the page at BASE/#/NAME (see the module's comment)."""
    driver = browser(size)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        driver.get(f"{base}/#/{name}")
        deadline = time.monotonic() + timeout
        while True:
            marks = driver.execute_script("return window.__firstPaint || {}")
            if "painted" in marks:
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"first_paint.py: {size}: no first view within {timeout} s ({marks})")
            time.sleep(0.05)
        shown = None
        while status:
            shown = driver.execute_script("return window.__firstPaint.status")
            if any(shown) and shown[-1] == "":
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"first_paint.py: {size}: the tiles status did not show and hide within {timeout} s ({shown})")
            time.sleep(0.05)
        path = f"/drawings/{name}"
        drawing = driver.execute_script(
            "return performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname === arguments[0])"
            ".map((e) => e.responseEnd)[0]", path)
        width = driver.execute_script("return window.innerWidth")
        return {"size": size, "width": width, "drawing": round(drawing or -1), "tiles": round(marks["tiles"]), "painted": round(marks["painted"]),
                "count": marks["count"], **({"status": shown} if status else {})}
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--drawing", required=True)
    parser.add_argument("--size", choices=sorted(SIZES), required=True)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--status", action="store_true", help="also follow the tiles status until it hides")
    args = parser.parse_args()
    print(json.dumps(measure(args.base, args.drawing, args.size, args.timeout, args.status), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
