#!/usr/bin/python3
"""End-to-end test of the review page in headless Chromium (Debian's chromium, chromium-driver and
python3-selenium), against a running `planmark serve` whose store holds the sample drawing (2400x1600,
Leaflet CRS, zoom 8) with its regions and no markers; or, with --inspector and --subcontractor, a store with
users and four markers (the signed-in run). Run by ReviewPageBrowserTests.swift.

Every wait is on a DOM condition (WebDriverWait); nothing sleeps. Exit status 0 when every check
holds; otherwise the first failure on stderr and exit 1. With --screenshot, saves the page after the
checks (the README's picture).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.support.ui import Select, WebDriverWait

# Pixels of the sample drawing (Drawings/sample/regions.geojson), worked out by hand:
ROOM_PIXEL = (900.0, 400.0)        # inside room 2.02 (700..1100 x 150..650), inside the allowed area A1
OUTSIDE_PIXEL = (2100.0, 1400.0)   # on the drawing (2400 x 1600), outside A1 (200..1800 x 150..1250)
CLI_PIXEL = (1375.0, 1000.0)       # inside room 2.06 (1250..1500 x 800..1250)
MOVE_PIXEL = (1000.0, 500.0)       # still inside room 2.02


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def markers(args, drawing=None):
    """The stored markers, read with the CLI."""
    out = subprocess.run([args.planmark, "markers", drawing or args.drawing, "--store", args.store, "--format", "jsonl"],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def browser():
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,860",
                 "--disable-extensions", "--no-first-run", "--disable-background-networking"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait(driver, seconds, condition, what):
    """Waits for `condition`. An element that went stale (a popup is rebuilt when its marker changes: the page follows
    the event stream) makes it try again rather than fail."""
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)).until(condition)
    except Exception as error:  # TimeoutException and friends
        messages = driver.execute_script("return document.getElementById('messages')?.textContent")
        # The open popups' text, to tell a failure's cause without a screenshot.
        popups = driver.execute_script("return document.querySelector('.leaflet-popup-pane')?.textContent") or ""
        how = f"waited {seconds} s for {what}" if isinstance(error, TimeoutException) else f"while waiting for {what}: {error!r}"
        # The console's errors (a module that did not load, a failed request), to tell why the page did not get there.
        console = [e["message"][:300] for e in driver.get_log("browser") if e["level"] == "SEVERE"][-5:]
        raise Failure(f"{how}; page says: {messages!r}; popups say: {popups[:1500]!r}; console: {console}") from error


def click_shown(driver, selector, what):
    """Clicks `selector` once it is shown, finding it anew on each try (a rebuilt popup has new buttons)."""
    def attempt(d):
        found = d.find_elements(By.CSS_SELECTOR, selector)
        if not found or not found[0].is_displayed():
            return False
        found[0].click()
        return True
    wait(driver, 10, attempt, what)


def pin(driver, number):
    found = driver.find_elements(By.CSS_SELECTOR, f'.pin[data-number="{number}"]')
    return found[0] if found else None


# Where the page shows things, as it writes them on its elements (it defines no global): the map element's
# data-image-pixels-per-css-pixel and data-top-left-x/-y (the image pixel at its top-left corner), and each
# pin's data-x/-y (the image pixel it is shown at).
CONTAINER_POINT = (
    "const v = document.getElementById('map').dataset, s = Number(v.imagePixelsPerCssPixel);"
    # Whole CSS pixels, as Leaflet's latLngToContainerPoint rounds them.
    "const cx = Math.round((arguments[0] - Number(v.topLeftX)) / s), cy = Math.round((arguments[1] - Number(v.topLeftY)) / s);")


def container_point(driver, x, y):
    """The map container point (CSS pixels) of image pixel (x, y)."""
    return driver.execute_script(CONTAINER_POINT + "return [cx, cy];", x, y)


def viewport_point(driver, x, y):
    """The viewport point (CSS pixels) of image pixel (x, y)."""
    return driver.execute_script(
        CONTAINER_POINT + "const r = document.getElementById('map').getBoundingClientRect(); return [r.left + cx, r.top + cy];", x, y)


def image_pixels_per_screen_pixel(driver):
    return driver.execute_script("return Number(document.getElementById('map').dataset.imagePixelsPerCssPixel)")


def marker_pixel(driver, number):
    """Where the page shows marker `number`, in image pixels (None when it shows no pin for it)."""
    return driver.execute_script(
        "const p = document.querySelector(`.pin[data-number=\"${arguments[0]}\"]`);"
        "return p ? { x: Number(p.dataset.x), y: Number(p.dataset.y) } : null;", number)


def move_to_pixel(driver, x, y):
    """Moves the mouse over the map at image pixel (x, y) (the nearest whole viewport pixel)."""
    vx, vy = viewport_point(driver, x, y)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(round(vx), round(vy))
    actions.perform()


def click_pixel(driver, x, y):
    """A real mouse click on the map at image pixel (x, y); returns the image pixels one CSS pixel spans."""
    vx, vy = viewport_point(driver, x, y)
    scale = image_pixels_per_screen_pixel(driver)
    # The nearest whole viewport pixel: at most half a CSS pixel from (x, y) on each axis.
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(round(vx), round(vy)).click()
    actions.perform()
    return scale


def drag_pin(driver, number, start, end):
    """Drags pin `number` from image pixel `start` to `end` with the mouse; the image pixels per CSS pixel."""
    x0, y0 = container_point(driver, *start)
    x1, y1 = container_point(driver, *end)
    dx, dy = round(x1 - x0), round(y1 - y0)
    scale = image_pixels_per_screen_pixel(driver)
    # Leaflet's drag starts at the first move past its click tolerance (3 px) and follows the moves after it.
    ActionChains(driver).click_and_hold(pin(driver, number)).move_by_offset(4, 0).move_by_offset(dx, dy).perform()
    # Leaflet applies a drag's last move on the next animation frame: release once the pin is there.
    wait(driver, 10, lambda d: (lambda p: abs(p["x"] - end[0]) <= 1.5 * scale and abs(p["y"] - end[1]) <= 1.5 * scale)(
        marker_pixel(d, number)), f"pin {number} to follow the mouse")
    ActionChains(driver).release().perform()
    return scale


def place_mode(driver, on=True):
    """Switches the map's Place button on (or off), as a reader presses it; checks it says so (aria-pressed)."""
    button = wait(driver, 10, lambda d: (lambda f: f[0] if f and f[0].is_displayed() else None)(d.find_elements(By.ID, "place-button")),
                  "the map's Place button")
    if button.get_attribute("aria-pressed") != str(on).lower():
        button.click()
    wait(driver, 10, lambda d: d.find_element(By.ID, "place-button").get_attribute("aria-pressed") == str(on).lower(),
         f"Place to be {'on' if on else 'off'}")


def check_console(driver, expected):
    """Nothing the page loaded broke its Content-Security-Policy or failed but the answers `expected` names.
    (Chromium logs every non-2xx fetch.)"""
    problems = [entry["message"] for entry in driver.get_log("browser")
                if (entry["level"] == "SEVERE" and not any(e in entry["message"] for e in expected))
                or "Content Security Policy" in entry["message"]]
    check(not problems, f"browser console: {problems}")


def comments_loaded(driver, number):
    """Waits for the comments of marker `number`'s open popup to load (the section says `data-loaded`), and checks
    that they did."""
    selector = f'.popup[data-number="{number}"] section.comments[data-loaded]'
    loaded = wait(driver, 10, lambda d: d.execute_script(f"return document.querySelector('{selector}')?.dataset.loaded"),
                  f"marker {number}'s comments to load (or fail)")
    check(loaded == "true", f"marker {number}'s comments did not load")
    return True


def api_numbers(args, query):
    """The numbers of the markers GET /drawings/NAME/markers answers for `query` (the markers API's own filter)."""
    request = urllib.request.Request(f"{args.base}/drawings/{urllib.parse.quote(args.drawing)}/markers?{query}")
    if args.token:
        request.add_header("Authorization", f"Bearer {args.token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return sorted(feature["properties"]["number"] for feature in json.load(answer)["features"])


def api_json(args, path):
    """The JSON answer of GET `path` (with the token when the server has one)."""
    request = urllib.request.Request(args.base + path)
    if args.token:
        request.add_header("Authorization", f"Bearer {args.token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def list_numbers(driver):
    """The numbers of the punch list's rows, in their order."""
    return driver.execute_script("return [...document.querySelectorAll('#punch-list .row')].map((b) => Number(b.dataset.number))")


def pin_numbers(driver):
    """The numbers of the pins on the sheet, sorted."""
    return sorted(driver.execute_script("return [...document.querySelectorAll('.pin')].map((p) => Number(p.dataset.number))"))


def set_list_filter(driver, conditions):
    """Sets the punch list's controls as a reader would: types the search, picks the menus, ticks "overdue only"."""
    search = driver.find_element(By.ID, "list-search")
    search.clear()
    if conditions.get("q"):
        search.send_keys(conditions["q"])
    else:
        driver.execute_script("arguments[0].dispatchEvent(new Event('input'))", search)
    for key in ("assignee", "category", "priority", "room"):
        Select(driver.find_element(By.ID, f"filter-{key}")).select_by_value(conditions.get(key, ""))
    overdue = driver.find_element(By.ID, "filter-overdue")
    if overdue.is_selected() != bool(conditions.get("overdue")):
        overdue.click()


def stored_marker(args, number):
    return {m["number"]: m for m in markers(args)}[number]


def set_detail(driver, number, field, value):
    """Sets a field of the popup's details form as typing would (a date input through its value), finding it anew
    when the popup was rebuilt meanwhile (a rebuilt popup keeps what was typed)."""
    def attempt(d):
        field_el = d.find_element(By.ID, f"{field}-{number}")
        if field_el.tag_name == "select":
            Select(field_el).select_by_value(value)
        else:
            d.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", field_el, value)
        return d.find_element(By.ID, f"{field}-{number}").get_attribute("value") == value
    wait(driver, 10, attempt, f"the popup's {field} field to take {value!r}")


def check_details_and_conflicts(driver, args, number):
    """Every detail edited in the popup is stored; an edit the service refuses with 412 (another client changed the
    marker while the page could not hear of it) shows both values, and "Keep mine" or "Take theirs" settles it."""
    popup = f'.leaflet-popup .popup[data-number="{number}"]'
    driver.get(args.base + f"/#/{args.drawing}/{number}")
    wait(driver, 20, lambda d: d.find_elements(By.CSS_SELECTOR, f"{popup} .details"), f"marker {number}'s details form")
    # The note is shown once: in its field, not also among the fields above it.
    check("Note" not in [dt.get_attribute("textContent") for dt in driver.find_elements(By.CSS_SELECTOR, f"{popup} dt")],
          "the note is shown twice")
    for field, value in (("category", "Drywall"), ("priority", "high"), ("assignee", "Crew 7"), ("due", "2027-01-15")):
        set_detail(driver, number, field, value)
    click_shown(driver, f"{popup} button.save-details", "Save details")
    wait(driver, 10, lambda d: f"Marker {number}: details saved" in d.find_element(By.ID, "messages").text, "the saved details")
    kept = stored_marker(args, number)
    check((kept["category"], kept["priority"], kept["assignee"], kept["due"]) == ("Drywall", "high", "Crew 7", "2027-01-15"),
          f"the details stored: {kept}")

    # A photo through the popup's file field (on a phone, the camera): stored as sent, and shown as a thumbnail.
    photo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Drawings", "sample", "plan.png")
    field = driver.find_element(By.ID, f"photo-{number}")
    check(field.get_attribute("accept") == "image/*" and field.get_attribute("capture") == "environment", "the photo field does not open the camera")
    field.send_keys(os.path.abspath(photo))
    wait(driver, 10, lambda d: f"Marker {number}: photo attached" in d.find_element(By.ID, "messages").text, "the attached photo")
    attachments = api_json(args, f"/drawings/{urllib.parse.quote(args.drawing)}/markers/{number}/attachments")["attachments"]
    with open(photo, "rb") as sent:
        digest = hashlib.sha256(sent.read()).hexdigest()
    check(len(attachments) == 1 and attachments[0]["sha256"] == digest and attachments[0]["contentType"] == "image/png",
          f"the stored attachments: {attachments}")
    wait(driver, 10, lambda d: d.execute_script(
        "const i = document.querySelector(arguments[0]); return !!i && i.complete && i.naturalWidth > 0", f"{popup} .photo-list img"),
        "the photo's thumbnail")

    # The page stops hearing of changes: a script put in before the page's own (DevTools) fails its event stream's
    # requests, and, once the page has read the markers, its reads of the markers list (its polls).
    blocker = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.testBlocks = { events: true, markers: false };
        const realFetch = window.fetch;
        window.fetch = (input, init) => {
            const path = new URL(typeof input === 'string' ? input : input.url, location.href).pathname;
            const reading = !init || !init.method || init.method === 'GET';
            const blocked = (window.testBlocks.events && /^\\/drawings\\/[^/]+\\/events$/.test(path))
                || (window.testBlocks.markers && /^\\/drawings\\/[^/]+\\/markers$/.test(path));
            if (reading && blocked) {
                return Promise.reject(new TypeError('blocked by the test'));
            }
            return realFetch(input, init);
        };"""})
    try:
        driver.get("about:blank")
        driver.get(args.base + f"/#/{args.drawing}/{number}")
        wait(driver, 20, lambda d: d.find_elements(By.CSS_SELECTOR, f"{popup} .details"), "the popup, the page not live")
        driver.execute_script("window.testBlocks.markers = true")
        for keep_mine, field, theirs, mine in ((True, "priority", "critical", "low"), (False, "assignee", "Tiles Ltd", "Crew 9")):
            subprocess.run([args.planmark, "update", args.drawing, str(number), f"--{field}", theirs, "--store", args.store],
                           check=True, capture_output=True)
            set_detail(driver, number, field, mine)
            click_shown(driver, f"{popup} button.save-details", "Save details")
            wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f'{popup} .conflict tr[data-field="{field}"]'), f"the {field} conflict")
            cells = driver.execute_script(
                "return [...document.querySelectorAll(arguments[0])].map((td) => td.textContent)", f'{popup} .conflict tr[data-field="{field}"] td')
            check(cells == [field, mine, theirs], f"the conflict shows {cells}, not [{field}, {mine}, {theirs}]")
            check(stored_marker(args, number)[field] == theirs, "the refused edit changed the store")
            click_shown(driver, f"{popup} button.{'keep-mine' if keep_mine else 'take-theirs'}", "the conflict's choice")
            wait(driver, 10, lambda d: not d.find_elements(By.CSS_SELECTOR, f"{popup} .conflict"), "the conflict to be settled")
            expected = mine if keep_mine else theirs
            wait(driver, 10, lambda d: stored_marker(args, number)[field] == expected, f"the store to keep {expected}")
            shown_value = driver.find_element(By.ID, f"{field}-{number}").get_attribute("value")
            check(shown_value == expected, f"the popup shows {field} {shown_value!r}, not {expected!r}")
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": blocker["identifier"]})
        # This document keeps the wrapped fetch: leave it.
        driver.get("about:blank")
    # The console so far: the 412s were meant; the rest of the run is checked at its end.
    check_console(driver, ["status of 412", "status of 422", "status of 401"])


def network(driver, online):
    """Takes the page and its service worker off the network (DevTools' network emulation: the page's own requests,
    and, through a session attached to the worker, the requests the worker makes), or back on it."""
    conditions = {"offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
    workers = [t for t in driver.execute_cdp_cmd("Target.getTargets", {})["targetInfos"]
               if t["type"] == "service_worker" and t["url"].startswith(args_base(driver))]
    check(len(workers) == 1, f"{len(workers)} service workers of the page run")
    session = driver.execute_cdp_cmd("Target.attachToTarget", {"targetId": workers[0]["targetId"], "flatten": False})["sessionId"]
    for number, (method, params) in enumerate((("Network.enable", {}), ("Network.emulateNetworkConditions", conditions)), start=1):
        driver.execute_cdp_cmd("Target.sendMessageToTarget", {"sessionId": session, "message": json.dumps(
            {"id": number, "method": method, "params": params})})
    driver.execute_cdp_cmd("Target.detachFromTarget", {"sessionId": session})
    if online:
        # Back on the network, DevTools' network domain is no longer needed (left on, it can hold up a stream's reads).
        driver.execute_cdp_cmd("Network.disable", {})


def args_base(driver):
    """The page's origin (scheme, host and port)."""
    return driver.execute_script("return location.origin")


def reaches_network(driver, path):
    """Whether a read the worker has never kept (a query no one asked before) reaches the service from the page."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0] + '?probe=' + crypto.randomUUID(), { cache: 'no-store' }).then((r) => done(r.ok), () => done(false));", path)


def tile_count(drawing):
    """The tiles of a drawing's pyramid, from GET /drawings/NAME as docs/tiles.md's scheme defines them: levels
    tiles.minZoom..tiles.maxZoom, level z of ceil(width / (256 * 2^(zoom - z))) by ceil(height / ...) tiles."""
    tiles = drawing["tiles"]
    total = 0
    for z in range(tiles["minZoom"], tiles["maxZoom"] + 1):
        span = tiles["tileSize"] * 2.0 ** (drawing["zoom"] - z)
        total += -(-drawing["width"] // span) * -(-drawing["height"] // span)
    return int(total)


def waiting_count(driver):
    return int(driver.find_element(By.ID, "sync-status").get_attribute("data-count"))


def check_offline(driver, args):
    """The page without a network: "Keep this sheet offline" keeps every tile of the drawing; taken off the network
    (page and service worker), a reload still shows the sheet and its markers; three markers placed and one of them and
    an older marker edited wait on the device with a count, nothing reaching the store; meanwhile another client changes
    the older marker; back on the network, exactly those three markers are stored, once each, with the uuids the page gave
    them, the comment and the photo given the older marker offline once each, and the older marker's edit comes back as a
    conflict, shown and settled in its popup."""
    path = f"/drawings/{urllib.parse.quote(args.drawing)}"
    driver.get(args.base + f"/#/{args.drawing}")
    wait(driver, 20, lambda d: d.execute_script("return document.body.dataset.ready === 'true' && document.body.dataset.offline === 'ready'"),
         "the page to be ready for use offline")
    # Keep this sheet offline: it says how many tiles first (counted here from the drawing's JSON and the tile scheme).
    tiles = tile_count(api_json(args, path))
    wait(driver, 20, lambda d: d.find_element(By.ID, "offline-size").text.startswith(f"{tiles} tiles, about "), f"the sheet's size ({tiles} tiles)")
    click_shown(driver, "#keep-offline", "Keep this sheet offline")
    wait(driver, 60, lambda d: d.find_element(By.ID, "offline-section").get_attribute("data-kept") == str(tiles), f"all {tiles} tiles kept")

    before = {m["number"]: m for m in markers(args)}
    older = min(before)
    network(driver, online=False)
    check(not reaches_network(driver, path + "/regions"), "the page still reaches the service with the network off")
    driver.refresh()
    wait(driver, 20, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), "the page to open without a network")
    wait(driver, 20, lambda d: list_numbers(d) == sorted(before), "the kept markers in the list")
    check(not reaches_network(driver, path + "/regions"), "the reloaded page reaches the service with the network off")
    # The JSON is kept for this tab's token alone: under addresses that carry the SHA-256 of its Authorization header
    # (worked out here), so the next person on a shared device, with another token or none, never gets these punch items.
    kept = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.keys().then((names) => caches.open(names.find((n) => n.startsWith('planmark-data-')))"
        ".then((c) => c.keys()).then((keys) => done(keys.map((k) => k.url))));")
    suffix = f"planmark-as={hashlib.sha256(('Bearer ' + args.token).encode()).hexdigest()}" if args.token else None
    check(any(urllib.parse.urlsplit(url).path == path for url in kept), f"the drawing's JSON is not kept: {kept}")
    check(all((url.endswith(suffix) if suffix else "planmark-as=" not in url) for url in kept),
          f"JSON kept under addresses that are not this token's: {[url for url in kept if not suffix or not url.endswith(suffix)]}")
    # The sheet is drawn from the kept tiles, and so it is zoomed in as far as its tiles go (tiles never viewed online,
    # kept by "Keep this sheet offline").
    sheet_drawn = ("const levels = [...document.querySelectorAll('.sheet-tiles .leaflet-tile-container')];"
                   "const top = levels.sort((a, b) => Number(b.style.zIndex) - Number(a.style.zIndex))[0];"
                   "const imgs = top ? [...top.querySelectorAll('img')] : [];"
                   "return imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0);")
    wait(driver, 20, lambda d: d.execute_script(sheet_drawn), "the kept tiles to draw the sheet")
    zoomed_out = image_pixels_per_screen_pixel(driver)
    for control, expected in ((".leaflet-control-zoom-in", zoomed_out / 2), (".leaflet-control-zoom-in", zoomed_out / 4),
                              (".leaflet-control-zoom-out", zoomed_out / 2), (".leaflet-control-zoom-out", zoomed_out)):
        driver.execute_script("document.querySelector(arguments[0]).click()", control)
        wait(driver, 20, lambda d: image_pixels_per_screen_pixel(d) == expected and d.execute_script(sheet_drawn),
             f"the sheet drawn from kept tiles at {expected} image pixels per CSS pixel")

    # Three new markers, placed by clicks away from every pin, wait with a count.
    chosen = []
    for x, y in ((400.0, 250.0), (400.0, 1150.0), (1650.0, 1150.0), (1200.0, 250.0), (300.0, 700.0), (1750.0, 200.0),
                 (700.0, 1200.0), (1100.0, 1200.0)):
        if all(abs(m["x"] - x) > 150 or abs(m["y"] - y) > 150 for m in before.values()) and len(chosen) < 3:
            chosen.append((x, y))
    check(len(chosen) == 3, f"no three free places on the sheet: {chosen}")
    scales = []
    place_mode(driver, True)
    for k, (x, y) in enumerate(chosen, start=1):
        scales.append(click_pixel(driver, x, y))
        wait(driver, 10, lambda d: waiting_count(d) == k, f"{k} writes waiting")
    check(driver.find_element(By.ID, "sync-status").text == "3 waiting to sync", "the header does not say 3 waiting to sync")
    uuids = driver.execute_script("return [...document.querySelectorAll('.pin-waiting')].map((p) => p.dataset.uuid)")
    check(len(set(uuids)) == 3, f"the waiting pins' uuids: {uuids}")

    # One of them gets a note before it is sent.
    first = driver.find_element(By.CSS_SELECTOR, f'.pin-waiting[data-uuid="{uuids[0]}"]')
    first.click()
    note = wait(driver, 10, lambda d: (lambda f: f[0] if f and f[0].is_displayed() else None)(
        d.find_elements(By.ID, f"waiting-note-{uuids[0]}")), "the waiting marker's popup")
    note.send_keys("noted offline")
    click_shown(driver, ".waiting-popup button.save-waiting-note", "Save note of the waiting marker")
    wait(driver, 10, lambda d: "goes with the new marker when it syncs" in d.find_element(By.ID, "messages").text, "the kept note")

    # The older marker's note is edited too; meanwhile another client changes it.
    driver.execute_script("document.querySelector('.leaflet-popup-close-button')?.click()")
    pin(driver, older).click()
    popup = f'.leaflet-popup .popup[data-number="{older}"]'
    field = wait(driver, 10, lambda d: (lambda f: f[0] if f and f[0].is_displayed() else None)(
        d.find_elements(By.ID, f"note-{older}")), f"marker {older}'s note field")
    field.clear()
    field.send_keys("mine, written offline")
    click_shown(driver, f"{popup} button.save-note", "Save note")
    wait(driver, 10, lambda d: waiting_count(d) == 4, "4 writes waiting")
    # A comment and a photo (through the popup's file field) on it wait too.
    comments_before = api_json(args, f"{path}/markers/{older}/comments")
    photos_before = api_json(args, f"{path}/markers/{older}/attachments")["attachments"]
    comment = wait(driver, 10, lambda d: (lambda f: f[0] if f and f[0].is_displayed() else None)(
        d.find_elements(By.ID, f"comment-{older}")), f"marker {older}'s comment field")
    comment.send_keys("seen offline")
    click_shown(driver, f"{popup} button.add-comment", "Add comment")
    wait(driver, 10, lambda d: waiting_count(d) == 5, "5 writes waiting")
    photo = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "Drawings", "sample", "plan.png"))
    driver.find_element(By.ID, f"photo-{older}").send_keys(photo)
    wait(driver, 10, lambda d: waiting_count(d) == 6, "6 writes waiting")
    subprocess.run([args.planmark, "update", args.drawing, str(older), "--note", "theirs, meanwhile", "--store", args.store],
                   check=True, capture_output=True)
    now = {m["number"]: m for m in markers(args)}
    check(sorted(now) == sorted(before), f"markers were stored while offline: {sorted(set(now) - set(before))}")

    # Back on the network: the writes go, in order, once each.
    network(driver, online=True)
    wait(driver, 30, lambda d: waiting_count(d) == 0 and d.find_element(By.ID, "sync-status").get_attribute("hidden") is not None,
         "the waiting writes to sync")
    after = {m["number"]: m for m in markers(args)}
    new = [m for n, m in after.items() if n not in before]
    check(len(new) == 3, f"{len(new)} new markers stored, not 3: {new}")
    by_uuid = {m["uuid"]: m for m in new}
    check(sorted(by_uuid) == sorted(uuids), f"the stored uuids {sorted(by_uuid)} are not the page's {sorted(uuids)}")
    for uuid, (x, y), scale in zip(uuids, chosen, scales):
        m = by_uuid[uuid]
        check(abs(m["x"] - x) <= scale and abs(m["y"] - y) <= scale, f"marker {m['number']} stored at ({m['x']}, {m['y']}), not near ({x}, {y})")
    check(by_uuid[uuids[0]].get("note") == "noted offline", f"the note given offline: {by_uuid[uuids[0]].get('note')!r}")
    check(all(by_uuid[u].get("note") in (None, "") for u in uuids[1:]), "a marker without a note got one")
    wait(driver, 10, lambda d: not d.find_elements(By.CSS_SELECTOR, ".pin-waiting"), "the waiting pins to become markers")
    for m in new:
        wait(driver, 10, lambda d: pin(d, m["number"]) is not None, f"pin {m['number']}")

    # The older marker's edit met the other client's: shown as a conflict, kept as mine.
    check(after[older]["note"] == "theirs, meanwhile", f"the conflicting edit was stored: {after[older]['note']!r}")
    if not driver.find_elements(By.CSS_SELECTOR, popup):
        pin(driver, older).click()
    wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f'{popup} .conflict tr[data-field="note"]'), "the note's conflict")
    cells = driver.execute_script("return [...document.querySelectorAll(arguments[0])].map((td) => td.textContent)",
                                  f'{popup} .conflict tr[data-field="note"] td')
    check(cells == ["note", "mine, written offline", "theirs, meanwhile"], f"the conflict shows {cells}")
    click_shown(driver, f"{popup} button.keep-mine", "Keep mine")
    wait(driver, 10, lambda d: stored_marker(args, older)["note"] == "mine, written offline", "the store to keep mine")
    check(len(markers(args)) == len(before) + 3, "a write was stored twice")
    comments = api_json(args, f"{path}/markers/{older}/comments")
    check([c["text"] for c in comments] == [c["text"] for c in comments_before] + ["seen offline"], f"the comments stored: {comments}")
    photos = api_json(args, f"{path}/markers/{older}/attachments")["attachments"]
    with open(photo, "rb") as sent:
        digest = hashlib.sha256(sent.read()).hexdigest()
    check(len(photos) == len(photos_before) + 1 and photos[-1]["sha256"] == digest, f"the photos stored: {photos}")
    # The console: the failures of the offline time were meant; nothing broke the Content-Security-Policy.
    problems = [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]]
    check(not problems, f"browser console: {problems}")


def check_punch_list(driver, args):
    """The list beside the sheet: each filter set through its controls lists exactly what the markers API answers for
    the same query, the pins show the same set, the address keeps it (a reload reproduces the view), and a row opens
    its pin's popup."""
    for x, y, note, assignee, category, priority, due in [
            (820, 300, "Grout missing at the door", "Acme", "Tiling", "high", "2020-01-10"),
            (1300, 900, "Paint scuff", "acme", "Finishes", "normal", None),
            (1000, 600, "Loose socket", "Sparks", "Electrical", "critical", "2020-02-01"),
            (1400, 1100, "Tile cracked", "Tiles Ltd", "tiling", "low", "2999-01-01")]:
        extra = ["--due", due] if due else []
        subprocess.run([args.planmark, "mark", args.drawing, str(x), str(y), "--store", args.store, "--note", note, "--assignee", assignee,
                        "--category", category, "--priority", priority] + extra, check=True, capture_output=True)
    everything = api_numbers(args, "")
    wait(driver, 20, lambda d: list_numbers(d) == everything, f"the list to show every marker {everything}")
    check(driver.find_element(By.ID, "list-count").text == f"({len(everything)})", "the list's count")
    for conditions in [{"assignee": "Acme"}, {"category": "Tiling"}, {"priority": "critical"}, {"room": "2.02"}, {"overdue": True},
                       {"q": "TILE"}, {"assignee": "Acme", "overdue": True}, {"q": "nothing like this"}, {}]:
        set_list_filter(driver, conditions)
        # As RFC 3986 text (a space is %20): the API does not read its query as a form, so `+` is a plus there.
        query = urllib.parse.urlencode({k: ("true" if v is True else v) for k, v in conditions.items()}, quote_via=urllib.parse.quote)
        expected = api_numbers(args, query)
        wait(driver, 10, lambda d: list_numbers(d) == expected, f"the list for {conditions} to be the API's {expected}")
        wait(driver, 10, lambda d: pin_numbers(d) == expected, f"the pins for {conditions} to be the API's {expected}")
        hash_query = driver.execute_script("return location.hash.split('?')[1] || ''")
        check(urllib.parse.parse_qs(hash_query) == urllib.parse.parse_qs(query), f"the address keeps {hash_query!r}, not {query!r}")
        # The address's query is the API's own: sent to it as it is, it answers the same markers.
        check(api_numbers(args, hash_query) == expected, f"the address's query {hash_query!r} asks the API for other markers")
        check(not conditions or len(expected) < len(everything), f"the filter {conditions} takes every marker: a weak check")
    # "Report of this list (PDF)" asks the service for the report with the list's filter (the address's query, checked
    # against the API above), with the token, and the answer is a PDF.
    set_list_filter(driver, {"assignee": "Acme"})
    report_query = driver.execute_script("return location.hash.split('?')[1] || ''")
    driver.execute_script("performance.setResourceTimingBufferSize(100000); performance.clearResourceTimings();")
    click_shown(driver, "#report-button", "Report of this list")
    wait(driver, 60, lambda d: "is downloaded" in d.find_element(By.ID, "messages").text, "the report")
    reports = driver.execute_script(
        "return performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.endsWith('/report.pdf'))"
        ".map((e) => [new URL(e.name).search, e.responseStatus])")
    check(reports == [["?" + report_query, 200]], f"the report requests: {reports}, not one of ?{report_query} answered 200")
    # "Download BCF" beside it: the same filter, the page's own address for the topics' links, answered 200 with a zip.
    driver.execute_script("performance.clearResourceTimings();")
    click_shown(driver, "#bcf-button", "Download BCF")
    wait(driver, 60, lambda d: "BCF file of drawing" in d.find_element(By.ID, "messages").text
         and "is downloaded" in d.find_element(By.ID, "messages").text, "the BCF file")
    exports = driver.execute_script(
        "return performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.endsWith('/issues.bcf'))"
        ".map((e) => [new URL(e.name).search, e.responseStatus])")
    origin = driver.execute_script("return location.origin")
    expected_search = "?" + report_query + "&baseUrl=" + urllib.parse.quote(origin, safe="")
    check(exports == [[expected_search, 200]], f"the BCF requests: {exports}, not one of {expected_search} answered 200")
    # A link with the filter reproduces the view: the list, the pins and the controls.
    set_list_filter(driver, {"category": "Tiling", "q": "grout"})
    expected = api_numbers(args, "category=Tiling&q=grout")
    wait(driver, 10, lambda d: list_numbers(d) == expected, "the list for category and search")
    address = driver.current_url
    driver.get("about:blank")
    driver.get(address)
    wait(driver, 20, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), "the linked view to open")
    wait(driver, 10, lambda d: list_numbers(d) == expected and pin_numbers(d) == expected, f"the linked view to list {expected}")
    check(driver.find_element(By.ID, "list-search").get_attribute("value") == "grout", "the link did not fill the search")
    check(Select(driver.find_element(By.ID, "filter-category")).first_selected_option.get_attribute("value") == "Tiling",
          "the link did not pick the category")
    # A row opens its pin's popup, the sheet moved to the pin (centred on it, then panned as much as the popup needs).
    number = expected[0]
    driver.find_element(By.CSS_SELECTOR, f'#punch-list .row[data-number="{number}"]').click()
    wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f'.leaflet-popup .popup[data-number="{number}"]'), f"marker {number}'s popup")
    inside = driver.execute_script(
        "const r = document.getElementById('map').getBoundingClientRect(), p = document.querySelector(`.pin[data-number=\"${arguments[0]}\"]`)"
        ".getBoundingClientRect(); return p.left >= r.left && p.right <= r.right && p.top >= r.top && p.bottom <= r.bottom;", number)
    check(inside, f"marker {number}'s pin is not on the visible sheet")
    set_list_filter(driver, {})


# The roles of the controls a reader operates, as Chromium's accessibility tree names them; each needs a name.
CONTROL_ROLES = {"textbox", "searchbox", "combobox", "checkbox", "button", "link", "Date", "radio", "slider", "spinbutton"}


def ax_nodes(driver, selector):
    """The nodes of Chromium's accessibility tree (those not ignored) under the first element `selector` finds."""
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    check(node, f"nothing on the page is {selector}")
    return [n for n in driver.execute_cdp_cmd("Accessibility.queryAXTree", {"nodeId": node})["nodes"] if not n.get("ignored")]


def ax_role(node):
    return node.get("role", {}).get("value", "")


def ax_name(node):
    return str(node.get("name", {}).get("value", "")).strip()


def check_named_controls(driver, selector, expected_roles):
    """Every control under `selector` has a non-empty accessible name, and each role of `expected_roles` is among them
    (so the check is not empty). Returns the controls."""
    nodes = ax_nodes(driver, selector)
    controls = [n for n in nodes if ax_role(n) in CONTROL_ROLES]
    unnamed = [f"{ax_role(n)} (DOM node {n.get('backendDOMNodeId')})" for n in controls if not ax_name(n)]
    check(not unnamed, f"controls under {selector} without an accessible name: {unnamed}")
    missing = set(expected_roles) - {ax_role(n) for n in controls}
    check(not missing, f"no {sorted(missing)} under {selector}: the accessibility tree has {sorted({ax_role(n) for n in controls})}")
    return controls


def focused(driver):
    """What has the focus: [tag, id, the row's marker number or null, the number of the popup it is in or null]."""
    return driver.execute_script(
        "const a = document.activeElement, row = a.closest('#punch-list .row'), popup = a.closest('.leaflet-popup');"
        "return [a.tagName.toLowerCase(), a.id, row ? Number(row.dataset.number) : null,"
        " popup && popup.querySelector('.popup') ? Number(popup.querySelector('.popup').dataset.number) : null];")


def press(driver, *keys):
    """Presses `keys` on whatever has the focus, as a keyboard does."""
    ActionChains(driver).send_keys(*keys).perform()


def tab_until(driver, condition, what, limit=20):
    """Presses Tab until `condition(focused(driver))` holds; at most `limit` times."""
    for _ in range(limit):
        if condition(focused(driver)):
            return
        press(driver, Keys.TAB)
    check(condition(focused(driver)), f"{limit} presses of Tab did not reach {what}; the focus is on {focused(driver)}")


def check_keyboard_and_screen_readers(driver, args):
    """The panel and a popup for the keyboard and screen readers: every control in Chromium's accessibility tree has a
    name; from the list's search box, Tab reaches the row the API lists for the search, Enter opens its popup with the
    focus in it, a detail typed there is stored, and Escape closes it with the focus back on the row; the count is
    said once, not a keystroke; and two statuses (and overdue) differ on the pins in more than colour."""
    note = "Keyboard check by the page"
    number = int(subprocess.run([args.planmark, "mark", args.drawing, str(CLI_PIXEL[0]), str(CLI_PIXEL[1]), "--store", args.store,
                                 "--note", note, "--status", "in-progress", "--due", "2020-03-01"],
                                check=True, capture_output=True, text=True).stdout.strip())
    driver.get("about:blank")
    driver.get(args.base + "/#/" + args.drawing)
    wait(driver, 20, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), "the drawing to open")
    everything = api_numbers(args, "")
    wait(driver, 10, lambda d: list_numbers(d) == everything, f"the list to show every marker {everything}")

    # Every control of the panel has a name, and each punch-list item holds a button named after its marker.
    check_named_controls(driver, "#side", ["searchbox", "combobox", "checkbox", "button", "textbox"])
    items = [n for n in ax_nodes(driver, "#punch-list") if ax_role(n) == "listitem"]
    row_names = [ax_name(n) for n in ax_nodes(driver, "#punch-list") if ax_role(n) == "button"]
    check(len(items) == len(everything) and len(row_names) == len(everything),
          f"the list's accessibility tree has {len(items)} items and {len(row_names)} buttons for the API's {len(everything)} markers")
    stored = {f["properties"]["number"]: f["properties"] for f in api_json(args, f"/drawings/{urllib.parse.quote(args.drawing)}/markers")["features"]}
    for listed, name in zip(everything, row_names):
        check(name.startswith(f"Marker {listed}:"), f"row {listed} is named {name!r}")
    # Each row says its status in words (the API's word, its hyphen a space), seen and heard.
    for listed in everything:
        words = stored[listed]["status"].replace("-", " ")
        row = driver.find_element(By.CSS_SELECTOR, f'#punch-list .row[data-number="{listed}"]')
        check(words in row.text.lower() and words in row.get_attribute("aria-label").lower(),
              f"row {listed} does not say {words!r}: {row.text!r}")

    # The keyboard only: type in the search; the count is said once, when the typing stops (not a keystroke).
    driver.execute_script(
        "window.testSaid = 0; new MutationObserver(() => { window.testSaid += 1; })"
        ".observe(document.getElementById('messages'), { childList: true, characterData: true, subtree: true });")
    driver.find_element(By.ID, "list-search").click()
    query = "keyboard check"
    press(driver, query)
    expected = api_numbers(args, urllib.parse.urlencode({"q": query}, quote_via=urllib.parse.quote))
    check(expected == [number], f"the API lists {expected} for {query!r}, not marker {number} alone")
    wait(driver, 10, lambda d: list_numbers(d) == expected, f"the list to show {expected}")
    said = f"showing {len(expected)} of {len(everything)}"
    wait(driver, 10, lambda d: said in d.find_element(By.ID, "messages").text, f"the live region to say {said!r}")
    times = driver.execute_script("return window.testSaid")
    check(times == 1, f"the live region changed {times} times while {len(query)} keys were typed")

    # Tab reaches the row, Enter opens its popup and the focus moves into it.
    tab_until(driver, lambda f: f[2] == number, f"the row of marker {number}")
    press(driver, Keys.ENTER)
    popup = f'.leaflet-popup .popup[data-number="{number}"]'
    wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f"{popup} .history[data-loaded]"), f"marker {number}'s popup")
    wait(driver, 10, lambda d: focused(d)[3] == number, f"the focus in marker {number}'s popup (it is on {focused(driver)})")
    dialog = driver.execute_script("const p = document.querySelector('.leaflet-popup');"
                                   "return [p.getAttribute('role'), document.getElementById(p.getAttribute('aria-labelledby'))?.textContent];")
    check(dialog[0] == "dialog" and dialog[1] and f"Marker {number}" in dialog[1], f"the popup is not a dialog named after its marker: {dialog}")
    check_named_controls(driver, ".leaflet-popup", ["textbox", "combobox", "button", "Date"])

    # A detail typed with the keyboard is stored: Tab to the assignee, type, Tab to "Save details", Enter.
    tab_until(driver, lambda f: f[1] == f"assignee-{number}", f"marker {number}'s assignee field")
    assignee = "Crew on the keyboard"
    press(driver, assignee)
    tab_until(driver, lambda f: f[0] == "button" and driver.execute_script(
        "return document.activeElement.classList.contains('save-details')"), "Save details")
    press(driver, Keys.ENTER)
    wait(driver, 10, lambda d: stored_marker(args, number)["assignee"] == assignee, f"the store to have assignee {assignee!r}")
    check(api_json(args, f"/drawings/{urllib.parse.quote(args.drawing)}/markers/{number}")["assignee"] == assignee,
          "the API does not answer the typed assignee")
    # The focus stays in the popup (rebuilt with the stored marker), and Escape takes it back to the row.
    wait(driver, 10, lambda d: focused(d)[3] == number, f"the focus to stay in the popup (it is on {focused(driver)})")
    press(driver, Keys.ESCAPE)
    wait(driver, 10, lambda d: not d.find_elements(By.CSS_SELECTOR, popup), "Escape to close the popup")
    wait(driver, 10, lambda d: focused(d)[2] == number, f"the focus back on the row of marker {number} (it is on {focused(driver)})")
    # A change that arrives live while the row has the focus builds the list anew: the new row has the focus.
    row_selector = f'#punch-list .row[data-number="{number}"]'
    driver.execute_script("document.querySelector(arguments[0]).dataset.before = 'yes'", row_selector)
    subprocess.run([args.planmark, "update", args.drawing, str(number), "--priority", "low", "--store", args.store], check=True,
                   capture_output=True)
    wait(driver, 20, lambda d: d.execute_script("return document.querySelector(arguments[0])?.dataset.before === undefined", row_selector),
         f"the list built anew after marker {number} changed")
    check(focused(driver)[2] == number, f"the focus left the row of marker {number} when the list was built anew: {focused(driver)}")

    # Colour is never the only sign: two markers of different statuses (the API's) differ in their pins' glyphs, an
    # overdue one carries a mark a marker not overdue lacks, and the legend shows each status's glyph as its pins do.
    set_list_filter(driver, {})
    wait(driver, 10, lambda d: pin_numbers(d) == everything, "every pin again")
    other = next((n for n in everything if stored[n]["status"] != stored[number]["status"] and not stored[n]["overdue"]), None)
    check(other is not None, f"no marker of another status, not overdue, among {[(n, stored[n]['status']) for n in everything]}")
    check(stored[number]["overdue"] is True, f"marker {number} is not overdue in the API")
    signs = driver.execute_script(
        "return arguments[0].map((n) => { const p = document.querySelector(`.pin[data-number=\"${n}\"]`);"
        " const s = document.querySelector(`#filters input[data-status=\"${p.dataset.status}\"]`).parentElement.querySelector('.swatch');"
        " return [getComputedStyle(p, '::after').content, getComputedStyle(p, '::before').content, JSON.stringify(s.textContent)]; })",
        [number, other])
    (glyph_a, overdue_a, legend_a), (glyph_b, overdue_b, legend_b) = signs
    check(glyph_a not in ("none", "normal", '""') and glyph_b not in ("none", "normal", '""') and glyph_a != glyph_b,
          f"markers {number} ({stored[number]['status']}) and {other} ({stored[other]['status']}) show glyphs {glyph_a} and {glyph_b}")
    check((legend_a, legend_b) == (glyph_a, glyph_b), f"the legend shows {legend_a}, {legend_b}; the pins {glyph_a}, {glyph_b}")
    check(overdue_a not in ("none", "normal", '""') and overdue_b in ("none", "normal"),
          f"the overdue mark: {overdue_a} on overdue marker {number}, {overdue_b} on marker {other}")


# Where check_pin_groups puts its three markers: an empty part of the allowed area A1 (200..1800 x 150..1250), far from
# every other marker the runs make.
GROUP_PIXEL = (1600.0, 400.0)


def overlapping(points, size):
    """The groups of points (number -> CSS point) that overlap: linked by distances under `size`, as sorted lists."""
    groups, left = [], set(points)
    while left:
        group, todo = set(), [left.pop()]
        while todo:
            number = todo.pop()
            group.add(number)
            near = {n for n in left if ((points[n][0] - points[number][0]) ** 2 + (points[n][1] - points[number][1]) ** 2) ** 0.5 < size}
            left -= near
            todo.extend(near)
        groups.append(sorted(group))
    return groups


def open_plan(driver, args):
    """Opens the drawing anew (its first view: the whole sheet) and waits for it."""
    driver.get("about:blank")
    driver.get(args.base + "/#/" + args.drawing)
    wait(driver, 20, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), "the drawing to open")


def pin_group(driver, expected):
    """Waits for the one pin group (`.pin-group`) and its pins `expected` out of the page; the group's element."""
    wait(driver, 10, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".pin-group")) == 1
         and not set(expected) & set(pin_numbers(d)), f"pins {expected} as one group")
    return driver.find_element(By.CSS_SELECTOR, ".pin-group")


def spread_out(driver, expected, size):
    """Waits for the pins `expected` to be shown apart (no two closer than `size`), the spreading's animation over."""
    def apart(d):
        centres = d.execute_script(
            "if (document.querySelector('.leaflet-cluster-anim')) return null;"
            "return arguments[0].map((n) => { const p = document.querySelector(`.pin[data-number=\"${n}\"]`);"
            " if (!p) return null; const r = p.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; });", expected)
        if not centres or None in centres:
            return False
        return all(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 >= size for i, a in enumerate(centres) for b in centres[i + 1:])
    wait(driver, 10, apart, f"pins {expected} to spread out")


def check_pin_groups(driver, args, touch=False):
    """Pins that overlap at the first view are one group showing their count, a button named by their numbers; a click
    (a tap) spreads them out so the middle one, covered before, takes a click that opens its popup. Not on a phone: Enter
    spreads the group out too, and a click on the sheet then only folds it back; a row of the list opens a grouped pin's
    popup. The overlap is worked out from the API's x, y and the map's scale."""
    open_plan(driver, args)
    scale = image_pixels_per_screen_pixel(driver)
    size = driver.execute_script("return document.querySelector('.pin').getBoundingClientRect().width")
    # Three markers a sixth of a pin apart on the screen at this zoom: each covers most of the one before.
    step = size / 6 * scale
    for i, note in ((-1, "Chipped tile by the sink"), (0, "Cracked tile"), (1, "Silicone joint missing")):
        subprocess.run([args.planmark, "mark", args.drawing, str(GROUP_PIXEL[0] + i * step), str(GROUP_PIXEL[1]), "--store", args.store,
                        "--note", note], check=True, capture_output=True)
    stored = markers(args)
    wait(driver, 20, lambda d: len(list_numbers(d)) == len(stored), "the new markers in the list")
    # Which pins overlap, from the stored pixels: exactly the three, the other pins each apart; and the three are more
    # than two pins from any other (so their group takes no other pin).
    points = {m["number"]: container_point(driver, m["x"], m["y"]) for m in stored}
    expected = [g for g in overlapping(points, size) if len(g) > 1]
    check(len(expected) == 1 and len(expected[0]) == 3, f"the pins that overlap: {expected}")
    expected = expected[0]
    near = [n for n in points if n not in expected and any(
        ((points[n][0] - points[e][0]) ** 2 + (points[n][1] - points[e][1]) ** 2) ** 0.5 < 2 * size for e in expected)]
    check(not near, f"pins {near} are near the group {expected}: {points}")
    group = pin_group(driver, expected)
    check(pin_numbers(driver) == sorted(n for n in points if n not in expected), f"the pins shown apart: {pin_numbers(driver)}")
    check(group.get_attribute("textContent") == "3", f"the group shows {group.get_attribute('textContent')!r}, not 3")
    label = f"3 markers: {', '.join(map(str, expected))}"
    check(group.get_attribute("role") == "button" and group.get_attribute("tabindex") == "0" and group.get_attribute("aria-label") == label,
          f"the group is not a focusable button named {label!r}: {group.get_attribute('role')}, {group.get_attribute('tabindex')}, "
          f"{group.get_attribute('aria-label')!r}")
    # It is where its pins are: within a pin of their middle.
    rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(), m = document.getElementById('map').getBoundingClientRect();"
                                 "return [r.left + r.width / 2 - m.left, r.top + r.height / 2 - m.top];", group)
    middle = [sum(points[n][k] for n in expected) / 3 for k in (0, 1)]
    check(abs(rect[0] - middle[0]) <= size and abs(rect[1] - middle[1]) <= size, f"the group is at {rect}, its pins at {middle}")

    # A click on the group spreads its pins out; the middle one then takes a click (nothing covers it) and opens.
    if touch:
        tap_element(driver, group)
    else:
        group.click()
    spread_out(driver, expected, size)
    hidden = expected[1]
    on_top = driver.execute_script(
        "const r = document.querySelector(`.pin[data-number=\"${arguments[0]}\"]`).getBoundingClientRect();"
        "return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('.pin')?.dataset.number;", hidden)
    check(on_top == str(hidden), f"pin {hidden} is covered by {on_top} once spread out")
    if touch:
        tap_element(driver, pin(driver, hidden))
    else:
        pin(driver, hidden).click()
    wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f'.leaflet-popup .popup[data-number="{hidden}"]'), f"marker {hidden}'s popup")
    check(len(driver.find_elements(By.CSS_SELECTOR, ".leaflet-popup")) == 1, "more than one popup is open")
    if touch:
        return
    # Enter on the focused group spreads it out too, the focus going to one of its pins.
    open_plan(driver, args)
    pin_group(driver, expected).send_keys(Keys.ENTER)
    spread_out(driver, expected, size)
    wait(driver, 10, lambda d: d.execute_script("return document.activeElement.closest('.pin')?.dataset.number") in map(str, expected),
         "the focus on a pin of the group")
    # With Place on, a click on the sheet then only folds the group back: a click at another spot after it places the
    # next marker, and the first spot has none.
    place_mode(driver, True)
    next_number = max(api_numbers(args, "")) + 1
    folding, placing = (GROUP_PIXEL[0], GROUP_PIXEL[1] + 300), (GROUP_PIXEL[0], GROUP_PIXEL[1] + 450)
    click_pixel(driver, *folding)
    pin_group(driver, expected)
    click_pixel(driver, *placing)
    wait(driver, 10, lambda d: f"Marker {next_number} placed" in d.find_element(By.ID, "messages").text, f"marker {next_number} placed")
    near = lambda spot: [m["number"] for m in markers(args) if abs(m["x"] - spot[0]) <= 2 * scale and abs(m["y"] - spot[1]) <= 2 * scale]
    check(near(placing) == [next_number] and near(folding) == [], f"the clicks placed {near(folding)} and {near(placing)}")
    # A row of the list opens a grouped pin's popup, the pin shown.
    open_plan(driver, args)
    pin_group(driver, expected)
    driver.find_element(By.CSS_SELECTOR, f'#punch-list .row[data-number="{hidden}"]').click()
    wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f'.leaflet-popup .popup[data-number="{hidden}"]'), f"marker {hidden}'s popup from its row")
    check(pin(driver, hidden) is not None and pin(driver, hidden).is_displayed(), f"pin {hidden} is not shown with its popup")


def run_without_leaflet(args):
    """A server whose Leaflet folder is missing: the page says what to install."""
    driver = browser()
    try:
        driver.get(args.base + "/")
        wait(driver, 20, lambda d: "libjs-leaflet" in (d.execute_script("return document.querySelector('.notice')?.textContent") or ""),
             "the page to say Leaflet is missing")
        check("Leaflet is missing" in driver.find_element(By.ID, "messages").text, "the message region does not say it")
        print("review page without Leaflet: every check held", file=sys.stderr)
    finally:
        driver.quit()


def sign_in(driver, token):
    """Gives `token` in the page's token dialog, once it is shown."""
    wait(driver, 15, lambda d: d.execute_script("return document.getElementById('token-dialog').open"), "the token dialog")
    driver.find_element(By.ID, "token-input").send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "#token-form button[type=submit]").click()


def header_says(driver, text):
    wait(driver, 20, lambda d: d.find_element(By.ID, "signed-in").get_attribute("textContent") == text, f"the header to say {text!r}")
    check(driver.find_element(By.ID, "signed-in").is_displayed(), "the header's signed-in user is not shown")


def shown_pins(driver):
    return sorted(int(p.get_attribute("data-number")) for p in driver.find_elements(By.CSS_SELECTOR, ".pin[data-number]"))


def open_popup(driver, drawing, number):
    """Opens marker `number`'s popup through the address (#/NAME/N) and waits for it with its history; its buttons' classes."""
    driver.execute_script("location.hash = arguments[0]", f"#/{drawing}/{number}")
    wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f'.leaflet-popup .popup[data-number="{number}"] .history[data-loaded]'),
         f"marker {number}'s popup")
    return {b.get_attribute("class") for b in driver.find_elements(By.CSS_SELECTOR, f'.popup[data-number="{number}"] button')}


STATUS_BUTTONS = {"status-open", "status-in-progress", "status-ready", "status-closed", "status-void"}


def run_signed_in(args):
    """Users of project Site sign in with their tokens (the store: ReviewPageBrowserTests.team): the header says who
    they are and their role; the subcontractor sees only their company's markers and may only move them along; the
    inspector sees every marker and edits, but neither deletes nor closes what is ready."""
    sub_name, sub_token = args.subcontractor.split(":", 1)
    inspector_name, inspector_token = args.inspector.split(":", 1)
    driver = browser()
    try:
        started = time.monotonic()
        driver.get(args.base + "/#/" + args.drawing)
        sign_in(driver, sub_token)
        wait(driver, 20, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), "the drawing to open")
        header_says(driver, f"{sub_name} · subcontractor")
        # Only their project's drawing, only their company's markers (assigned "Acme" and "acme"), no placing, no dragging.
        listed = [b.get_attribute("data-name") for b in driver.find_elements(By.CSS_SELECTOR, "#drawings button")]
        check(listed == [args.drawing], f"the subcontractor's drawing list: {listed}")
        check(shown_pins(driver) == [1, 2], f"the subcontractor sees pins {shown_pins(driver)}, not [1, 2]")
        check(not driver.find_element(By.ID, "place-section").is_displayed(), "the subcontractor is offered placing")
        for number in (1, 2):
            check("leaflet-marker-draggable" not in pin(driver, number).get_attribute("class"), f"the subcontractor may drag pin {number}")

        # Their open marker: start work or ready; nothing else (no verify, void, edit or delete).
        offered = open_popup(driver, args.drawing, 1)
        check(offered & STATUS_BUTTONS == {"status-in-progress", "status-ready"}, f"marker 1 offers the subcontractor {offered}")
        check("delete" not in offered and "save-note" not in offered, f"marker 1 offers the subcontractor {offered}")
        check(not driver.find_elements(By.CSS_SELECTOR, '.popup[data-number="1"] textarea#note-1'), "the note is editable")
        # Their marker in progress: only ready; which they do, and the store has it.
        offered = open_popup(driver, args.drawing, 2)
        check(offered & STATUS_BUTTONS == {"status-ready"}, f"marker 2 offers the subcontractor {offered}")
        check("delete" not in offered and "save-note" not in offered, f"marker 2 offers the subcontractor {offered}")
        # They may comment on their marker; the text is shown as text, and the store has it under their name.
        comments_loaded(driver, 2)
        typed = "<b>tiles</b> fixed"
        driver.find_element(By.CSS_SELECTOR, '.popup[data-number="2"] .comment-form textarea').send_keys(typed)
        driver.find_element(By.CSS_SELECTOR, '.popup[data-number="2"] button.add-comment').click()
        # Read in the page in one go: the comment's upsert event rebuilds the popup, so elements found one call earlier
        # may be gone.
        wait(driver, 10, lambda d: d.execute_script(
            "return [...document.querySelectorAll('.popup[data-number=\"2\"] .comment-text')].some((c) => c.textContent === arguments[0])",
            typed), "the comment")
        check(not driver.find_elements(By.CSS_SELECTOR, '.popup[data-number="2"] .comment-text b'), "the comment's text became HTML")
        thread = json.loads(subprocess.run([args.planmark, "comments", args.drawing, "2", "--store", args.store, "--format", "json"],
                                           check=True, capture_output=True, text=True).stdout)
        check([(c["author"], c["text"]) for c in thread] == [("sam", typed)], f"the store's comments on marker 2: {thread}")
        click_shown(driver, '.popup[data-number="2"] button.status-ready', "marker 2's Ready button")
        wait(driver, 10, lambda d: pin(d, 2).get_attribute("data-status") == "ready", "pin 2 to turn ready")
        check({m["number"]: m for m in markers(args)}[2]["status"] == "ready", "the store does not have marker 2 ready")
        # Another's marker is not there for them, even by its address.
        driver.execute_script("location.hash = arguments[0]", f"#/{args.drawing}/3")
        wait(driver, 10, lambda d: "has no marker 3" in d.find_element(By.ID, "messages").text, "marker 3 to be unknown to the subcontractor")
        check_console(driver, ["status of 401"])

        # "Change token": the inspector, on the page reloaded.
        driver.find_element(By.ID, "token-button").click()
        sign_in(driver, inspector_token)
        header_says(driver, f"{inspector_name} · inspector")
        wait(driver, 20, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), "the drawing to open again")
        check(driver.execute_script("return sessionStorage.getItem('planmark-token')") == inspector_token, "the new token is not kept")
        check(shown_pins(driver) == [1, 2, 3, 4], f"the inspector sees pins {shown_pins(driver)}, not [1, 2, 3, 4]")
        check(driver.find_element(By.ID, "place-section").is_displayed(), "the inspector is not offered placing")
        for number in (1, 2, 3, 4):
            check("leaflet-marker-draggable" in pin(driver, number).get_attribute("class"), f"the inspector may not drag pin {number}")
        # Ready for inspection: the inspector may not close it (nor reject or void it), nor delete it, but edits it.
        offered = open_popup(driver, args.drawing, 2)
        check(not offered & STATUS_BUTTONS, f"the ready marker 2 offers the inspector {offered}")
        check("delete" not in offered and "save-note" in offered, f"marker 2 offers the inspector {offered}")
        # An open marker of another company: start work or ready; edit; no delete. The note is stored.
        offered = open_popup(driver, args.drawing, 3)
        check(offered & STATUS_BUTTONS == {"status-in-progress", "status-ready"}, f"marker 3 offers the inspector {offered}")
        check("delete" not in offered and "save-note" in offered, f"marker 3 offers the inspector {offered}")
        note = driver.find_element(By.CSS_SELECTOR, '.popup[data-number="3"] textarea#note-3')
        wait(driver, 10, lambda d: note.is_displayed(), "marker 3's popup to be shown")
        note.clear()
        note.send_keys("seen by the inspector")
        driver.find_element(By.CSS_SELECTOR, '.popup[data-number="3"] button.save-note').click()
        wait(driver, 10, lambda d: "Marker 3: note saved" in d.find_element(By.ID, "messages").text, "the saved note")
        check({m["number"]: m for m in markers(args)}[3]["note"] == "seen by the inspector", "the inspector's note is not stored")
        check_console(driver, ["status of 401"])
        print(f"review page signed in: every check held in {time.monotonic() - started:.1f} s", file=sys.stderr)
    finally:
        driver.quit()


def phone():
    """Chromium as a phone: 390 x 844 CSS pixels, touch events, a mobile viewport."""
    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--disable-extensions", "--no-first-run",
                 "--disable-background-networking"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3, "touch": True}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def tap(driver, vx, vy):
    """A tap (a touch pointer: down, up) at viewport point (vx, vy)."""
    actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to_location(round(vx), round(vy)).pointer_down().pointer_up()
    actions.perform()


def tap_element(driver, element):
    """A tap at the middle of `element`, scrolled into view first."""
    x, y = driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); const r = arguments[0].getBoundingClientRect();"
                                 "return [r.left + r.width / 2, r.top + r.height / 2];", element)
    tap(driver, x, y)


def touch(driver, kind, x=None, y=None):
    """One touch event of one finger at viewport point (x, y) (DevTools' Input.dispatchTouchEvent): touchStart,
    touchMove or touchEnd (which takes no point)."""
    points = [] if kind == "touchEnd" else [{"x": round(x), "y": round(y)}]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def check_hold_to_drag(driver, args, number):
    """On a touch screen a finger that presses pin `number` and moves at once pans the sheet and leaves the pin where
    it is; a long press lifts it (the pin says so: the test waits for that, not for a time), and it follows the finger
    to where it is dropped, which is stored."""
    driver.execute_script("document.querySelector('.leaflet-popup-close-button')?.click()")
    place_mode(driver, False)
    kept = stored_marker(args, number)
    # Pressed and moved at once: the sheet pans (the pin's image pixel stays), nothing is stored.
    x, y = viewport_point(driver, kept["x"], kept["y"])
    touch(driver, "touchStart", x, y)
    for step in range(1, 6):
        touch(driver, "touchMove", x + 12 * step, y + 6 * step)
    touch(driver, "touchEnd")
    # The sheet moved with the finger (then maybe glides on, or back inside its bounds: wait until it rests).
    last = [None]
    def resting(d):
        now = d.execute_script("const v = document.getElementById('map').dataset; return [v.topLeftX, v.topLeftY]")
        still, last[0] = now == last[0], now
        return still
    wait(driver, 10, resting, "the sheet to come to rest")
    moved = viewport_point(driver, kept["x"], kept["y"])
    check(moved[0] - x > 20, f"the sheet did not pan with the finger: pin {number} from {(x, y)} to {moved}")
    shown = marker_pixel(driver, number)
    check(abs(shown["x"] - kept["x"]) < 1e-6 and abs(shown["y"] - kept["y"]) < 1e-6, f"a finger that panned moved pin {number}: {shown}")
    # A long press lifts it; it follows the finger to MOVE_PIXEL and is stored there.
    x, y = viewport_point(driver, kept["x"], kept["y"])
    touch(driver, "touchStart", x, y)
    wait(driver, 10, lambda d: pin(d, number).get_attribute("data-lifted") == "true", f"a long press to lift pin {number}")
    tx, ty = viewport_point(driver, *MOVE_PIXEL)
    for step in range(1, 9):
        touch(driver, "touchMove", x + (tx - x) * step / 8, y + (ty - y) * step / 8)
    touch(driver, "touchEnd")
    wait(driver, 10, lambda d: f"Marker {number} moved" in d.find_element(By.ID, "messages").text, f"pin {number} dropped and stored")
    scale = image_pixels_per_screen_pixel(driver)
    now = stored_marker(args, number)
    check(abs(now["x"] - MOVE_PIXEL[0]) <= scale and abs(now["y"] - MOVE_PIXEL[1]) <= scale,
          f"pin {number} stored at ({now['x']}, {now['y']}), not within {scale} px of {MOVE_PIXEL}")
    check(pin(driver, number).get_attribute("data-lifted") is None, "the pin still says it is lifted")


def drawer(driver):
    """The panel's place and state: [left, right, inert, the button's aria-expanded]."""
    return driver.execute_script("const s = document.getElementById('side'), r = s.getBoundingClientRect();"
                                 "return [r.left, r.right, s.inert, document.getElementById('panel-button').getAttribute('aria-expanded')];")


def check_phone_focus(driver, number):
    """On a phone, a row chosen in the drawer leaves the focus in its pin's popup; Escape closes it and, the drawer being
    closed (inert), the focus goes to the pin; Enter there opens the popup again."""
    popup = f'.leaflet-popup .popup[data-number="{number}"]'
    wait(driver, 10, lambda d: focused(d)[3] == number, f"the focus in marker {number}'s popup (it is on {focused(driver)})")
    press(driver, Keys.ESCAPE)
    wait(driver, 10, lambda d: not d.find_elements(By.CSS_SELECTOR, popup), "Escape to close the popup")
    wait(driver, 10, lambda d: d.execute_script("return document.activeElement.dataset.number === arguments[0] && "
                                                "document.activeElement.classList.contains('pin')", str(number)),
         f"the focus on pin {number}, the drawer closed")
    press(driver, Keys.ENTER)
    wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, popup) and focused(d)[3] == number, f"Enter to open marker {number} again")


def run_phone(args):
    """At a phone's width with touch: the sheet fills the screen and the panel is a closed drawer; a tap on the sheet
    places a marker as a click does; the header's button opens the drawer, whose controls are at least 44 px tall; a
    row of the list closes it and opens its pin's popup."""
    driver = phone()
    try:
        started = time.monotonic()
        driver.get(args.base + "/#/" + args.drawing)
        wait(driver, 20, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), "the drawing to open")
        check(driver.execute_script("return window.innerWidth") == 390, "the window is not a phone's 390 px")
        check(driver.execute_script("return document.querySelector('#map').classList.contains('leaflet-touch')"), "Leaflet sees no touch")
        sheet = driver.execute_script("const m = document.getElementById('map').getBoundingClientRect(); return [m.left, m.width];")
        check(sheet == [0, 390], f"the sheet (left, width) is {sheet}, not the screen's width")
        left, right, inert, expanded = drawer(driver)
        check(right <= 0 and inert and expanded == "false", f"the drawer is not closed: {drawer(driver)}")
        button = driver.find_element(By.ID, "panel-button")
        check(button.is_displayed() and button.size["height"] >= 44, f"the list button: shown {button.is_displayed()}, {button.size}")

        # With Place on, a tap in room 2.02 places a marker there, as a click does.
        before = markers(args)
        next_number = max([m["number"] for m in before], default=0) + 1
        place_mode(driver, True)
        check(driver.find_element(By.ID, "place-button").size["height"] >= 44, "the Place button is less than 44 px high")
        scale = image_pixels_per_screen_pixel(driver)
        tap(driver, *viewport_point(driver, *ROOM_PIXEL))
        wait(driver, 10, lambda d: f"Marker {next_number} placed" in d.find_element(By.ID, "messages").text, "the tap's marker")
        stored = {m["number"]: m for m in markers(args)}[next_number]
        check(abs(stored["x"] - ROOM_PIXEL[0]) <= scale and abs(stored["y"] - ROOM_PIXEL[1]) <= scale and stored["rooms"] == ["2.02"],
              f"the tap stored {stored}")
        check_hold_to_drag(driver, args, next_number)

        # The button opens the drawer over the sheet; what a finger presses in it is at least 44 px tall.
        tap_element(driver, button)
        wait(driver, 10, lambda d: drawer(d)[0] >= 0 and drawer(d)[2] is False and drawer(d)[3] == "true", "the drawer to open")
        small = driver.execute_script(
            "return [...document.querySelectorAll('#side button, #side select, #side input[type=search], #side input[type=text], #side .check')]"
            ".filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().height < 44)"
            ".map((e) => `${e.tagName} ${e.id || e.className} ${e.getBoundingClientRect().height}`)")
        check(small == [], f"controls under 44 px: {small}")
        wait(driver, 10, lambda d: next_number in list_numbers(d), f"marker {next_number} in the list")
        row = driver.find_element(By.CSS_SELECTOR, f'#punch-list .row[data-number="{next_number}"]')
        tap_element(driver, row)
        wait(driver, 10, lambda d: drawer(d)[2] is True and d.find_elements(By.CSS_SELECTOR, f'.leaflet-popup .popup[data-number="{next_number}"]'),
             "the row to close the drawer and open its popup")
        check_phone_focus(driver, next_number)
        check_pin_groups(driver, args, touch=True)
        if args.screenshot:
            # The README's picture: the drawer open over the sheet, the list in it, with a few more items.
            for x, y, note, assignee, status in ((820, 300, "Grout missing at the door", "Acme", "open"),
                                                 (1300, 900, "Paint scuff by the window", "Decor Ltd", "in-progress"),
                                                 (1000, 600, "Loose socket", "Sparks", "ready")):
                subprocess.run([args.planmark, "mark", args.drawing, str(x), str(y), "--store", args.store, "--note", note,
                                "--assignee", assignee, "--status", status, "--due", "2026-11-20"], check=True, capture_output=True)
            wait(driver, 20, lambda d: len(list_numbers(d)) >= 4, "the items in the list")
            driver.execute_script("document.querySelector('.leaflet-popup-close-button')?.click()")
            tap_element(driver, driver.find_element(By.ID, "panel-button"))
            wait(driver, 10, lambda d: drawer(d)[0] >= 0 and drawer(d)[3] == "true", "the drawer to open again")
            driver.execute_script("document.getElementById('list-heading').scrollIntoView()")
            driver.save_screenshot(args.screenshot)
        print(f"review page (phone): every check held in {time.monotonic() - started:.1f} s", file=sys.stderr)
    finally:
        driver.quit()


def run(args):
    if args.without_leaflet:
        return run_without_leaflet(args)
    if args.inspector:
        return run_signed_in(args)
    if args.phone:
        return run_phone(args)
    driver = browser()
    try:
        started = time.monotonic()
        driver.get(args.base + "/#/" + args.drawing)
        if args.token:
            # The page itself came without the token; it asks for it once.
            wait(driver, 15, lambda d: d.execute_script("return document.getElementById('token-dialog').open"), "the token dialog")
            driver.find_element(By.ID, "token-input").send_keys(args.token)
            driver.find_element(By.CSS_SELECTOR, "#token-form button[type=submit]").click()
        wait(driver, 20, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), "the drawing to open")
        check(args.token is None or driver.execute_script("return sessionStorage.getItem('planmark-token')") == args.token,
              "the token is not kept in sessionStorage")
        check(args.token is None or args.token not in driver.current_url, "the token is in the URL")
        # The store has no users: whoever reaches the page (with the server's token, if it has one) is the operator.
        who = driver.find_element(By.ID, "signed-in").get_attribute("textContent")
        check(who == "operator", f"the header says {who!r}, not 'operator'")

        # The sheet arrives: every tile (or the one overlay of a server without tiles) decoded with a size.
        tiled = driver.execute_script("return !!document.querySelector('.sheet-tiles')")
        selector = ".sheet-tiles img" if tiled else "img.sheet-image"
        wait(driver, 20, lambda d: d.execute_script(
            "const imgs = [...document.querySelectorAll(arguments[0])];"
            "return imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0);", selector), f"{selector} to load")
        count = driver.execute_script("return document.querySelectorAll(arguments[0]).length", selector)
        natural = driver.execute_script("return document.querySelector(arguments[0]).naturalWidth", selector)
        if tiled:
            check(natural == 256, f"a tile is {natural} pixels wide, not 256")
        print(f"sheet: {count} {'tiles' if tiled else 'overlay image'} loaded", file=sys.stderr)
        rooms = driver.execute_script("return document.querySelectorAll('.leaflet-overlay-pane path').length")
        check(rooms >= 8, f"only {rooms} region outlines drawn")

        before = markers(args)
        next_number = max([m["number"] for m in before], default=0) + 1

        # A room's id and name show on hover.
        move_to_pixel(driver, 800.0, 300.0)
        wait(driver, 10, lambda d: any(t.text == "2.02 Office" for t in d.find_elements(By.CSS_SELECTOR, ".leaflet-tooltip")),
             "room 2.02's name on hover")

        # Placing is a mode switched on: an ordinary click on the sheet places nothing; neither does one after Escape.
        check(driver.find_element(By.ID, "place-button").get_attribute("aria-pressed") == "false", "Place is on when the page opens")
        click_pixel(driver, *ROOM_PIXEL)
        place_mode(driver, True)
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        wait(driver, 10, lambda d: d.find_element(By.ID, "place-button").get_attribute("aria-pressed") == "false", "Escape to stop placing")
        click_pixel(driver, *ROOM_PIXEL)
        # The clicks reached the page (its map moved nothing and said nothing new) and stored nothing.
        check(len(markers(args)) == len(before), "a click with Place off stored a marker")
        # A click in room 2.02 with Place on stores the next marker at that pixel (within one CSS pixel's worth of image pixels).
        place_mode(driver, True)
        scale = click_pixel(driver, *ROOM_PIXEL)
        wait(driver, 10, lambda d: pin(d, next_number) is not None, f"pin {next_number}")
        wait(driver, 10, lambda d: f"Marker {next_number} placed" in d.find_element(By.ID, "messages").text, "the placed message")
        stored = {m["number"]: m for m in markers(args)}
        check(next_number in stored, f"marker {next_number} is not in the store")
        dx, dy = stored[next_number]["x"] - ROOM_PIXEL[0], stored[next_number]["y"] - ROOM_PIXEL[1]
        check(abs(dx) <= scale and abs(dy) <= scale,
              f"marker {next_number} stored at ({stored[next_number]['x']}, {stored[next_number]['y']}), more than {scale} px from {ROOM_PIXEL}")
        check(stored[next_number]["rooms"] == ["2.02"], f"rooms {stored[next_number]['rooms']}")
        check(pin(driver, next_number).text == str(next_number), "the pin does not show its number")

        # A click outside the allowed area says why, and stores nothing.
        click_pixel(driver, *OUTSIDE_PIXEL)
        wait(driver, 10, lambda d: "outside the allowed area" in d.find_element(By.ID, "messages").text, "the refusal")
        check("Nothing was stored" in driver.find_element(By.ID, "messages").text, "the refusal does not say nothing was stored")
        check(len(markers(args)) == len(before) + 1, "the refused click stored a marker")
        live = driver.find_element(By.ID, "messages").get_attribute("aria-live")
        check(live == "polite", f"the message region is aria-live={live!r}")

        # Dragging the pin outside the allowed area is refused: it goes back, says why, and the store keeps it.
        drag_pin(driver, next_number, ROOM_PIXEL, OUTSIDE_PIXEL)
        wait(driver, 10, lambda d: f"Marker {next_number} not moved" in d.find_element(By.ID, "messages").text, "the refused move")
        check("outside the allowed area" in driver.find_element(By.ID, "messages").text, "the refused move does not say why")
        shown = marker_pixel(driver, next_number)
        kept = {m["number"]: m for m in markers(args)}[next_number]
        check((kept["x"], kept["y"]) == (stored[next_number]["x"], stored[next_number]["y"]), "the refused move changed the store")
        check(abs(shown["x"] - kept["x"]) < 1e-6 and abs(shown["y"] - kept["y"]) < 1e-6, f"the pin did not go back: {shown}")
        # Dragging it within the room moves it there.
        scale = drag_pin(driver, next_number, (kept["x"], kept["y"]), MOVE_PIXEL)
        wait(driver, 10, lambda d: f"Marker {next_number} moved" in d.find_element(By.ID, "messages").text, "the move")
        moved = {m["number"]: m for m in markers(args)}[next_number]
        check(abs(moved["x"] - MOVE_PIXEL[0]) <= scale and abs(moved["y"] - MOVE_PIXEL[1]) <= scale,
              f"moved to ({moved['x']}, {moved['y']}), more than {scale} px from {MOVE_PIXEL}")

        # Resolving from the popup changes the pin and the store.
        pin(driver, next_number).click()
        wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f'.popup[data-number="{next_number}"] .history[data-loaded="true"]'),
             "the popup with its history")
        # The text as the DOM has it (textContent): Selenium's .text is empty while Leaflet's popup fades in, which
        # takes longer on a loaded machine. The history is filled before data-loaded is set; a cached history is
        # refreshed from the service, so wait for the entries themselves.
        history_text = lambda d: d.find_element(By.CSS_SELECTOR, f'.popup[data-number="{next_number}"] .history').get_attribute("textContent")
        wait(driver, 10, lambda d: "created" in history_text(d) and "moved" in history_text(d), "the created and moved entries in the popup")
        resolve = driver.find_element(By.CSS_SELECTOR, f'.popup[data-number="{next_number}"] button.status-closed')
        label = resolve.get_attribute("textContent").strip()
        check(resolve.tag_name == "button" and label == "Resolve", f"the resolve control is {resolve.tag_name} {label!r}")
        # Click once the popup has faded in (an element at opacity 0 is not displayed, and not clickable).
        click_shown(driver, f'.popup[data-number="{next_number}"] button.status-closed', "the Resolve button")
        wait(driver, 10, lambda d: pin(d, next_number).get_attribute("data-status") == "closed", "the pin to turn closed")
        check("pin-closed" in pin(driver, next_number).get_attribute("class"), "the pin is not coloured closed")
        check({m["number"]: m for m in markers(args)}[next_number]["status"] == "closed", "the store does not have it closed")

        # The legend counts it as closed, and its status filter hides and shows it.
        count = driver.find_element(By.CSS_SELECTOR, '#filters .count[data-status="closed"]').text
        check(count == "(1)", f"the legend counts {count} closed")
        closed_filter = driver.find_element(By.CSS_SELECTOR, '#filters input[data-status="closed"]')
        closed_filter.click()
        wait(driver, 10, lambda d: pin(d, next_number) is None, "the closed filter to hide the pin")
        closed_filter.click()
        wait(driver, 10, lambda d: pin(d, next_number) is not None, "the closed filter to show the pin again")

        # A marker added with the CLI appears without a reload and without polling: the page follows the drawing's event
        # stream (the header says "live"), and Chromium's resource timing lists no markers request from here on. The
        # server's watcher reads the SQLite store ten times a second, so on a quiet machine it appears well within a
        # second; the wait allows more so that a loaded CI machine cannot fail it, and the latency is printed.
        wait(driver, 20, lambda d: d.find_element(By.ID, "live-status").get_attribute("data-state") == "live", "the page to say live")
        check(driver.find_element(By.ID, "live-status").text == "live", "the live status does not read 'live'")
        driver.execute_script("performance.setResourceTimingBufferSize(100000); performance.clearResourceTimings();")
        markers_requests = ("return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
                            ".filter((p) => /^\\/drawings\\/[^/]+\\/markers$/.test(p)).length")
        added = subprocess.run([args.planmark, "mark", args.drawing, str(CLI_PIXEL[0]), str(CLI_PIXEL[1]), "--store", args.store,
                                "--note", "from the CLI"], check=True, capture_output=True, text=True).stdout.strip()
        mark_time = time.monotonic()
        wait(driver, 20, lambda d: pin(d, int(added)) is not None, f"the CLI's marker {added} to appear")
        print(f"the CLI's marker appeared after {time.monotonic() - mark_time:.2f} s", file=sys.stderr)
        requested = driver.execute_script(markers_requests)
        check(requested == 0, f"the page asked for the markers {requested} times while the stream was live")

        # Keyboard: the CLI's pin is focusable and Enter opens it, the focus moving into its popup.
        cli_pin = pin(driver, int(added))
        check(cli_pin.get_attribute("tabindex") == "0" and cli_pin.get_attribute("role") == "button", "the pin is not a focusable button")
        cli_pin.send_keys(Keys.ENTER)
        wait(driver, 10, lambda d: d.execute_script(
            f"return !!document.activeElement.closest('.popup[data-number=\"{added}\"]')"), "Enter to open the pin with the focus in it")

        # Its note is edited in the popup and stored; then it is deleted (the button asks twice) from the page and the store.
        popup = f'.popup[data-number="{added}"]'
        wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f"{popup} .history[data-loaded]"), "the CLI marker's popup")
        note = driver.find_element(By.CSS_SELECTOR, f"{popup} textarea")
        wait(driver, 10, lambda d: note.is_displayed(), "the CLI marker's popup to be shown")
        note.clear()
        note.send_keys("checked by the page")
        driver.find_element(By.CSS_SELECTOR, f"{popup} button.save-note").click()
        wait(driver, 10, lambda d: f"Marker {added}: note saved" in d.find_element(By.ID, "messages").text, "the saved note")
        check({m["number"]: m for m in markers(args)}[int(added)]["note"] == "checked by the page", "the note is not stored")
        wait(driver, 10, lambda d: d.find_elements(By.CSS_SELECTOR, f"{popup} button.delete"), "the delete button")
        driver.find_element(By.CSS_SELECTOR, f"{popup} button.delete").click()
        wait(driver, 10, lambda d: "again to delete" in d.find_element(By.ID, "messages").text, "the delete confirmation")
        check(int(added) in {m["number"] for m in markers(args)}, "one press deleted the marker")
        driver.find_element(By.CSS_SELECTOR, f"{popup} button.delete").click()
        wait(driver, 10, lambda d: pin(d, int(added)) is None, f"pin {added} to go")
        check(int(added) not in {m["number"] for m in markers(args)}, "the deleted marker is still stored")

        # Panel and sheet side by side at a desktop's width, no drawer button.
        layout = driver.execute_script(
            "const s = document.getElementById('side').getBoundingClientRect(), m = document.getElementById('map').getBoundingClientRect();"
            "return [s.left, s.right, m.left, m.right, window.innerWidth, document.getElementById('panel-button').hidden];")
        check(layout[0] == 0 and abs(layout[1] - layout[2]) <= 1 and abs(layout[3] - layout[4]) <= 1 and layout[5],
              f"desktop layout (panel left, right, sheet left, right, window width, button hidden): {layout}")
        check_punch_list(driver, args)
        check_details_and_conflicts(driver, args, list_numbers(driver)[-1])
        check_keyboard_and_screen_readers(driver, args)
        check_pin_groups(driver, args)
        check_offline(driver, args)

        # A deep link opens the drawing at a marker with its popup.
        driver.get(args.base + f"/#/{args.drawing}/{next_number}")
        wait(driver, 20, lambda d: d.find_elements(By.CSS_SELECTOR, f'.leaflet-popup .popup[data-number="{next_number}"]'),
             f"the deep link's popup of marker {next_number}")

        # Pages left for another are kept by the browser for Back (its back/forward cache) without their event streams:
        # seven visits in a row open (more than the six connections a browser opens to one server), and a page shown
        # again from that cache is live again.
        for _ in range(7):
            open_plan(driver, args)
        driver.get("about:blank")
        driver.back()
        wait(driver, 20, lambda d: d.execute_script("return document.body.dataset.ready === 'true'")
             and d.find_element(By.ID, "live-status").get_attribute("data-state") == "live", "the page shown again to be live")

        # A drawing in flutter_map's CRS flavour (zoom 0: CrsSimple scales by 256 * 2^0) converts clicks right too.
        if args.flutter_drawing:
            driver.get(args.base + "/#/" + args.flutter_drawing)
            wait(driver, 20, lambda d: d.execute_script(
                "return document.body.dataset.ready === 'true' && document.body.dataset.drawing === arguments[0]", args.flutter_drawing),
                "the flutter drawing to open")
            # Its tiles (pyramid level z at map zoom z + 8) arrive too, none refused as outside the pyramid.
            wait(driver, 20, lambda d: d.execute_script(
                "const imgs = [...document.querySelectorAll(arguments[0])];"
                "return imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0);", selector), "the flutter drawing's sheet")
            place_mode(driver, True)
            scale = click_pixel(driver, *ROOM_PIXEL)
            wait(driver, 10, lambda d: "Marker 1 placed" in d.find_element(By.ID, "messages").text, "the flutter drawing's marker")
            flutter = markers(args, args.flutter_drawing)
            check(len(flutter) == 1 and abs(flutter[0]["x"] - ROOM_PIXEL[0]) <= scale and abs(flutter[0]["y"] - ROOM_PIXEL[1]) <= scale,
                  f"the flutter drawing's marker: {flutter}")

        # Nothing the page loaded broke its Content-Security-Policy or failed.
        # (Chromium logs every non-2xx fetch: the refused click's 422 and, with a token, the first call's 401 are expected.)
        check_console(driver, ["status of 422"] + (["status of 401"] if args.token else []))

        if args.screenshot:
            driver.get(args.base + f"/#/{args.drawing}")
            driver.refresh()
            wait(driver, 20, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"), "the drawing to open again")
            wait(driver, 20, lambda d: d.execute_script(
                "const imgs = [...document.querySelectorAll(arguments[0])];"
                "return imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0);", selector), "the sheet again")
            pin(driver, next_number).click()
            wait(driver, 10, lambda d: d.execute_script(
                "const p = document.querySelectorAll('.leaflet-popup'); return p.length === 1"
                " && getComputedStyle(p[0]).opacity === '1' && !!p[0].querySelector('.history[data-loaded]')"), "the popup")
            driver.save_screenshot(args.screenshot)
        print(f"review page: every check held in {time.monotonic() - started:.1f} s", file=sys.stderr)
    finally:
        driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--planmark", required=True, help="the planmark executable")
    parser.add_argument("--store", required=True)
    parser.add_argument("--drawing", default="plan")
    parser.add_argument("--flutter-drawing", help="a drawing of the same sheet added with --crs flutter --zoom 0")
    parser.add_argument("--token")
    parser.add_argument("--without-leaflet", action="store_true", help="the server was started with a missing --leaflet-dir")
    parser.add_argument("--inspector", help="NAME:TOKEN of an inspector in the drawing's project (the signed-in run)")
    parser.add_argument("--subcontractor", help="NAME:TOKEN of a subcontractor of company Acme there (the signed-in run)")
    parser.add_argument("--phone", action="store_true", help="drive the page as a phone (390 px wide, touch)")
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    try:
        run(args)
    except Failure as failure:
        print(f"review page: FAILED: {failure}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
