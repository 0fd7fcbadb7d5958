#!/usr/bin/python3
"""The A0 sheet in headless Chromium: one L.imageOverlay of the whole PNG (what the map clients did
before tiles) against the review page's tile layer (Sources/PlanMarkServer/ReviewPage/tiles.js, tiles
fetched into blob: URLs), on the same map (1280x860 CSS pixels, L.CRS.Simple, the whole sheet fitted).

For each run a fresh Chromium loads one page from a local static server (this script, a thread) and
reports:
  paint_ms      performance.now() (milliseconds since the navigation started) once the first view's
                images are loaded and decoded (the overlay's img.decode(); the tile layer's `load` event,
                i.e. every visible tile decoded) and two animation frames have run, so it has been painted;
  renderer_mib  the peak memory of Chromium's renderer process(es) during the run, less file pages
                (/proc/PID/status RssAnon + RssShmem: heaps and decoded images, not the shared binary;
                sampled every 20 ms from the start of Chromium to 1 s after the paint);
  chromium_mib  the peak of that sum over every Chromium process (browser, GPU, renderer, utility; shared
                memory mapped by two processes counts twice).

Runs are interleaved (overlay, tiles, overlay, tiles, ...) and the medians printed.
Usage: browser_bench.py --image PLAN.png --tiles DIR --zoom S [--runs 5] [--mode overlay|tiles]
  DIR holds {z}/{x}/{y}.png (`planmark tiles`) or, with --google, {z}/{y}/{x}.png (`vips dzsave --layout google`).
"""
import argparse
import functools
import http.server
import json
import os
import statistics
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = os.path.normpath(os.path.join(HERE, "../../../Sources/PlanMarkServer/ReviewPage"))
LEAFLET = "/usr/share/javascript/leaflet"

HTML = """<!doctype html><html><head><meta charset="utf-8"><title>bench</title>
<link rel="stylesheet" href="/leaflet/leaflet.css">
<style>html,body{{margin:0}} #map{{width:1280px;height:860px}}</style>
<script src="/leaflet/leaflet.js"></script></head><body><div id="map"></div>
<script type="module">
const W = {width}, H = {height}, S = {zoom};
const map = L.map('map', {{ crs: L.CRS.Simple, minZoom: S - 8, maxZoom: S + 2, zoomSnap: 1, attributionControl: false }});
const bounds = L.latLngBounds(map.unproject([0, H], S), map.unproject([W, 0], S));
map.fitBounds(bounds);
const painted = () => requestAnimationFrame(() => requestAnimationFrame(() => {{ window.paintMs = performance.now(); }}));
if ('{mode}' === 'overlay') {{
  const overlay = L.imageOverlay('/sheet.png', bounds).addTo(map);
  const img = overlay.getElement();
  img.addEventListener('load', () => {{ window.loadMs = performance.now(); }});
  // decode() fails for images Chromium will not decode whole off the main thread: then the load event and two frames.
  img.decode().then(painted, (error) => {{ window.decodeError = String(error); if (img.complete) painted(); else img.addEventListener('load', painted); }});
}} else {{
  const {{ drawingTileLayer }} = await import('/app/tiles.js');
  const layer = drawingTileLayer({{ template: '/tiles/{template}', minZoom: {min_zoom}, maxZoom: {max_zoom}, tileSize: 256 }}, bounds, 0, map);
  layer.once('load', painted);
  layer.addTo(map);
}}
</script></body></html>"""


class Handler(http.server.SimpleHTTPRequestHandler):
    routes = {}

    def log_message(self, *args):
        pass

    def translate_path(self, path):
        path = path.split("?", 1)[0]
        for prefix, target in self.routes.items():
            if path == prefix:
                return target
            if prefix.endswith("/") and path.startswith(prefix) and ".." not in path:
                return os.path.join(target, path[len(prefix):])
        return "/nonexistent"

    def do_GET(self):
        if self.path.startswith("/bench-"):
            body = self.server.pages[self.path.split("?")[0]].encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


def anon_kib(pid):
    """The process's resident memory that is not file pages (RssAnon + RssShmem: heaps, and decoded images,
    which Chromium keeps in anonymous or in discardable shared memory), KiB; the binary's and libraries'
    pages (RssFile) are left out."""
    total = 0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:") or line.startswith("RssShmem:"):
                    total += int(line.split()[1])
    except OSError:
        pass
    return total


def descendants(root):
    """Every process below `root` with its command line."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
        except (OSError, IndexError, ValueError):
            pass
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        for child in children.get(pid, []):
            try:
                with open(f"/proc/{child}/cmdline", "rb") as f:
                    cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                cmd = ""
            found.append((child, cmd))
            todo.append(child)
    return found


def one_run(mode, base):
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,860",
                 "--disable-extensions", "--no-first-run", "--disable-background-networking", "--disk-cache-size=1"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    service = Service("/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    peak = {"renderer": 0, "all": 0}
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            processes = descendants(service.process.pid)
            sizes = [(anon_kib(pid), cmd) for pid, cmd in processes if "chrom" in cmd]
            peak["renderer"] = max(peak["renderer"], sum(size for size, cmd in sizes if "--type=renderer" in cmd))
            peak["all"] = max(peak["all"], sum(size for size, _ in sizes))
            stop.wait(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        driver.get(f"{base}/bench-{mode}.html")
        WebDriverWait(driver, 300, poll_frequency=0.02).until(lambda d: d.execute_script("return window.paintMs !== undefined"))
        paint = driver.execute_script("return window.paintMs")
        load = driver.execute_script("return window.loadMs ?? null")
        decode_error = driver.execute_script("return window.decodeError ?? null")
        check = driver.execute_script(
            "const i = [...document.querySelectorAll('.leaflet-pane img')]; return [i.length, i.every(x => x.complete && x.naturalWidth > 0)]")
        stop.wait(1.0)
    finally:
        stop.set()
        sampler.join()
        driver.quit()
    if not check[1] or check[0] == 0:
        raise SystemExit(f"{mode}: images not loaded: {check}")
    return {"mode": mode, "paint_ms": round(paint, 1), "load_ms": load and round(load, 1), "decode_error": decode_error, "images": check[0],
            "renderer_mib": round(peak["renderer"] / 1024, 1), "chromium_mib": round(peak["all"] / 1024, 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--image", required=True)
    parser.add_argument("--tiles", required=True)
    parser.add_argument("--zoom", type=int, required=True, help="the drawing's zoom S: the pyramid's top level")
    parser.add_argument("--min-zoom", type=int, required=True)
    parser.add_argument("--google", action="store_true", help="tiles are {z}/{y}/{x}.png (vips dzsave --layout google)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mode", choices=["overlay", "tiles"], help="one run of one mode (a JSON line)")
    args = parser.parse_args()

    with open(args.image, "rb") as f:
        head = f.read(24)
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    template = "{z}/{y}/{x}.png" if args.google else "{z}/{x}/{y}.png"
    Handler.routes = {"/leaflet/": LEAFLET, "/app/": PAGE, "/tiles/": os.path.abspath(args.tiles), "/sheet.png": os.path.abspath(args.image)}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.pages = {f"/bench-{mode}.html": HTML.format(width=width, height=height, zoom=args.zoom, mode=mode, template=template,
                                                       min_zoom=args.min_zoom, max_zoom=args.zoom) for mode in ("overlay", "tiles")}
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        if args.mode:
            print(json.dumps(one_run(args.mode, base)))
            return
        results = {"overlay": [], "tiles": []}
        for run in range(args.runs):
            for mode in ("overlay", "tiles"):
                result = one_run(mode, base)
                results[mode].append(result)
                print(json.dumps(result), file=sys.stderr)
        print(f"A0 sheet {width}x{height}, {args.runs} interleaved runs each, medians:")
        for mode, rows in results.items():
            print(f"  {mode:8s} paint {statistics.median(r['paint_ms'] for r in rows):9.1f} ms   renderer peak "
                  f"{statistics.median(r['renderer_mib'] for r in rows):7.1f} MiB   all Chromium peak "
                  f"{statistics.median(r['chromium_mib'] for r in rows):7.1f} MiB   images {rows[0]['images']}")
        ratios = [o["paint_ms"] / t["paint_ms"] for o, t in zip(results["overlay"], results["tiles"])]
        print(f"  overlay/tiles paint time, median of pairwise ratios: {statistics.median(ratios):.1f}x")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
