#!/usr/bin/env python3
"""Generates the `planmark render` benchmark data (deterministic for a given seed and size).

Writes to Benchmarks/data/render/ (git-ignored) unless --out says otherwise:
  plan.png         a 7016x4961 px (A2 landscape at 300 dpi) drawing as a CAD exporter writes it: 8-bit grey,
                   pHYs 300 dpi, white paper, a 200-room floor (20 x 10 irregular grid, 30 pairs of rooms
                   with a stepped shared wall, so 60 L-shapes, 2 stair cores), walls of realistic
                   thickness at 1:100 (outer 300 mm = 35 px, inner 100 mm = 12 px, centred on the room
                   outlines), a door in nearly every room (gap in its top wall, the leaf and its quarter-circle swing),
                   hatched stair cores, a room name, number and area in every room, grid bubbles,
                   dimension lines, a drawing frame and a title block.
  regions.geojson  the 200 rooms (kind "room", pixel coordinates, neighbours share walls vertex for vertex)
                   and one allowed area (kind "allowed"): the building outline minus the stair cores.
  markers.csv      id,x,y for 2000 markers, ids 1..2000: 95% inside the allowed area, 4% outside it on the
                   sheet (margins and stair cores) and 1% off the drawing; coordinates with 0 to 2 decimals.

With --a0 the same plan is written at 14043x9933 (A0 at 300 dpi; everything scaled by 14043/7016) as
plan-a0.png, regions-a0.geojson and markers-a0.csv (for the peak-memory check).

The drawing is drawn at twice the size and box-filtered down (--supersample 2), so its lines and text have
the grey anti-aliased edges of a plotter driver's raster export (and the PNG has realistic entropy).

With --pdf the plan is written as a vector PDF instead of the PNG (plan.pdf, or plan-a0.pdf with --a0): one page
of ISO A2 or A0 landscape (594 x 420 mm, 1189 x 841 mm = 3370.39 x 2383.94 pt), the same drawing by the same code
(draw_plan_on, with Drawings/cairo_draw.py's CairoDraw in place of Pillow's ImageDraw: filled walls, lines, door
arcs, hatched stairs, text in DejaVu Sans as fonts embedded in the PDF) in page units, one plan pixel = 72/300 pt,
so the regions and markers apply to the page drawn at 300 dpi (A0: 14044 x 9934 px). Deterministic bytes. Needs
pycairo (Debian: python3-cairo, so run it with /usr/bin/python3).

--hatch also hatches every rectangular room's floor (45-degree lines 1.2 mm apart at 1:100, crossed in WCs and labs:
about 10,000 more lines, a busier page) and names the plan plan[-a0]-hatched.png or .pdf; without it the outputs are
as they always were.

Usage: python3 Benchmarks/render/generate.py [--out DIR] [--seed N] [--a0] [--pdf] [--hatch] [--supersample N] [--check]
--check verifies the regions with shapely (valid rings, no overlaps, rooms tile the building) and the
marker split.
"""

import argparse
import json
import os
import random
import sys
import time

from PIL import Image, ImageDraw, ImageFont

A2 = (7016, 4961)
A0 = (14043, 9933)
A2_MM = (594, 420)    # the PDF's page, landscape (ISO 216)
A0_MM = (1189, 841)
PDF_DATE = "2026-11-28T00:00:00Z"  # the PDF's creation date: fixed, so its bytes do not change with the day
COLS, ROWS = 20, 10
L_PAIRS = 30
STAIRS = 2
MARKERS = 2000
FONT_DIR = "/usr/share/fonts/truetype/dejavu/"


def split(total, parts, lo, hi, rnd):
    """`parts` integers in [lo, hi] summing to `total`, by random transfers from an even split."""
    sizes = [total // parts] * parts
    sizes[-1] += total - sum(sizes)
    for _ in range(parts * 30):
        i, j = rnd.randrange(parts), rnd.randrange(parts)
        d = rnd.randint(1, 20)
        if i != j and sizes[i] - d >= lo and sizes[j] + d <= hi:
            sizes[i] -= d
            sizes[j] += d
    assert sum(sizes) == total and all(lo <= s <= hi for s in sizes)
    return sizes


def cumulative(start, sizes):
    out = [start]
    for s in sizes:
        out.append(out[-1] + s)
    return out


class Layout:
    """The plan in A2 pixel units; `s` scales everything to the sheet actually written."""

    def __init__(self, seed, width, height):
        self.width, self.height = width, height
        self.s = width / A2[0]
        s = self.s
        rnd = random.Random(seed)
        self.rnd = rnd
        # Building: leaves room for the frame, grid bubbles, dimensions and the title block.
        self.x0, self.y0 = round(420 * s), round(430 * s)
        bw, bh = round(6000 * s), round(3900 * s)
        self.X = cumulative(self.x0, split(bw, COLS, round(240 * s), round(360 * s), rnd))
        self.Y = cumulative(self.y0, split(bh, ROWS, round(330 * s), round(450 * s), rnd))
        self.x1, self.y1 = self.X[-1], self.Y[-1]
        X, Y = self.X, self.Y

        kind = {}
        step_path = {}

        def free(*cells):
            return all(0 <= i < COLS and 0 <= j < ROWS and (i, j) not in kind for i, j in cells)

        made = 0
        while made < L_PAIRS:
            i, j = rnd.randrange(COLS - 1), rnd.randrange(ROWS)
            if not free((i, j), (i + 1, j)):
                continue
            kind[(i, j)], kind[(i + 1, j)] = "L-left", "L-right"
            w = min(X[i + 1] - X[i], X[i + 2] - X[i + 1])
            d = int(rnd.uniform(0.3, 0.45) * w) * rnd.choice((-1, 1))
            ym = Y[j] + int((Y[j + 1] - Y[j]) * rnd.uniform(0.35, 0.65))
            xm = X[i + 1]
            step_path[(i, j)] = [(xm, Y[j]), (xm, ym), (xm + d, ym), (xm + d, Y[j + 1])]
            made += 1
        self.stairs = []
        while len(self.stairs) < STAIRS:
            i, j = rnd.randrange(2, COLS - 2), rnd.randrange(2, ROWS - 2)
            if free((i, j)) and all(abs(i - a) > 4 for a, _ in self.stairs):
                kind[(i, j)] = "stair"
                self.stairs.append((i, j))

        rooms = []
        number = 0
        for j in range(ROWS):
            for i in range(COLS):
                x0, x1, y0, y1 = X[i], X[i + 1], Y[j], Y[j + 1]
                k = kind.get((i, j), "rect")
                if k == "L-left":
                    ring = [(x0, y0)] + step_path[(i, j)] + [(x0, y1)]
                elif k == "L-right":
                    ring = [(x1, y0), (x1, y1)] + step_path[(i - 1, j)][::-1]
                else:
                    ring = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
                number += 1
                name = "Stair" if k == "stair" else rnd.choice(("Office", "Office", "Office", "Meeting", "Store", "WC", "Lab"))
                rooms.append({"id": f"R{j + 1:02d}-{i + 1:02d}", "number": f"{j + 1}.{i + 1:02d}", "name": name,
                              "ring": ring, "cell": (i, j), "tag": k})
        insert_t_junctions(rooms)
        self.rooms = rooms
        self.allowed_holes = [[(X[i], Y[j]), (X[i], Y[j + 1]), (X[i + 1], Y[j + 1]), (X[i + 1], Y[j])]
                              for i, j in self.stairs]


def insert_t_junctions(rooms):
    """Adds to every axis-parallel edge of every ring the vertices of other rings strictly inside it, so that
    neighbouring rooms share walls vertex for vertex."""
    by_y, by_x = {}, {}
    for room in rooms:
        for x, y in room["ring"]:
            by_y.setdefault(y, set()).add(x)
            by_x.setdefault(x, set()).add(y)
    for room in rooms:
        ring = room["ring"]
        out = []
        for a, b in zip(ring, ring[1:] + ring[:1]):
            out.append(a)
            (ax, ay), (bx, by) = a, b
            if ay == by and ax != bx:
                between = sorted((x for x in by_y.get(ay, ()) if min(ax, bx) < x < max(ax, bx)), reverse=bx < ax)
                out.extend((x, ay) for x in between)
            elif ax == bx and ay != by:
                between = sorted((y for y in by_x.get(ax, ()) if min(ay, by) < y < max(ay, by)), reverse=by < ay)
                out.extend((ax, y) for y in between)
        room["ring"] = out


def ring_area(ring):
    return abs(sum(ax * by - bx * ay for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]))) / 2


class Scaled:
    """`layout` with every coordinate multiplied by `f` (for drawing supersampled)."""

    def __init__(self, layout, f):
        self.s = layout.s * f
        self.width, self.height = layout.width * f, layout.height * f
        self.X, self.Y = [x * f for x in layout.X], [y * f for y in layout.Y]
        self.x0, self.y0, self.x1, self.y1 = layout.x0 * f, layout.y0 * f, layout.x1 * f, layout.y1 * f
        self.stairs = layout.stairs
        self.rooms = [dict(room, ring=[(x * f, y * f) for x, y in room["ring"]]) for room in layout.rooms]


def draw_plan_on(d, layout, hatch=False):
    """Draws the plan with Pillow's ImageDraw calls on `d`, in the pixels of `layout` (a Layout, or a Scaled one to
    draw supersampled), black on white paper (the caller makes the paper): `d` is Pillow's ImageDraw.Draw for the PNG,
    or a CairoDraw (Drawings/cairo_draw.py), which draws the same calls as vectors, for the PDF. With `hatch`, every
    rectangular room's floor is hatched too (hatch_rooms).
    - Complexity: O(rooms x their vertices) drawing calls; with `hatch`, O(floor area / spacing) more."""
    s = layout.s
    W, H = layout.width, layout.height
    rnd = random.Random(7)
    outer, inner = max(2, round(35 * s)), max(2, round(12 * s))
    thin = max(1, round(2 * s))
    X, Y = layout.X, layout.Y
    font = lambda size: ImageFont.truetype(os.path.join(FONT_DIR, "DejaVuSans.ttf"), max(6, round(size * s)))
    f_name, f_small, f_grid, f_title, f_big = font(30), font(22), font(34), font(40), font(70)

    # Frame.
    m = round(60 * s)
    d.rectangle([m, m, W - m, H - m], outline=0, width=max(2, round(6 * s)))
    d.rectangle([m + round(30 * s), m + round(30 * s), W - m - round(30 * s), H - m - round(30 * s)], outline=0, width=thin)

    # Hatched stair cores (under the walls).
    for i, j in layout.stairs:
        x0, x1, y0, y1 = X[i], X[i + 1], Y[j], Y[j + 1]
        steps = round(28 * s)
        for y in range(y0 + inner, y1 - inner, steps):
            d.line([(x0, y), (x1, y)], fill=0, width=thin)
        d.line([((x0 + x1) // 2, y0), ((x0 + x1) // 2, y1)], fill=0, width=thin)

    if hatch:
        hatch_rooms(d, layout, inner)

    # Walls: every room edge as a thick line centred on it; the building outline thicker.
    half_in = inner // 2
    for room in layout.rooms:
        ring = room["ring"]
        for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
            d.rectangle([min(ax, bx) - half_in, min(ay, by) - half_in, max(ax, bx) + half_in, max(ay, by) + half_in], fill=0)
    bx0, by0, bx1, by1 = layout.x0, layout.y0, layout.x1, layout.y1
    half_out = outer // 2
    for a, b in [((bx0, by0), (bx1, by0)), ((bx1, by0), (bx1, by1)), ((bx0, by1), (bx1, by1)), ((bx0, by0), (bx0, by1))]:
        d.rectangle([min(a[0], b[0]) - half_out, min(a[1], b[1]) - half_out, max(a[0], b[0]) + half_out,
                     max(a[1], b[1]) + half_out], fill=0)

    # Doors: a gap in the room's top wall (the entrance on the first row), clear of every wall that meets
    # it, with the leaf and its quarter-circle swing into the room.
    door = round(90 * s)
    on_line = {}
    for room in layout.rooms:
        for x, y in room["ring"]:
            on_line.setdefault(y, set()).add(x)
    for room in layout.rooms:
        i, j = room["cell"]
        wall_y = Y[j]
        top = sorted(x for x, y in room["ring"] if y == wall_y)
        if room["tag"] == "stair" or len(top) < 2:
            continue
        stops = sorted(x for x in on_line[wall_y] if top[0] <= x <= top[-1])
        a, b = max(zip(stops, stops[1:]), key=lambda ab: ab[1] - ab[0])
        if b - a < door + 4 * inner:
            continue
        hw = half_out if j == 0 else half_in
        gx = rnd.randint(a + 2 * inner, b - 2 * inner - door)
        d.rectangle([gx, wall_y - hw, gx + door, wall_y + hw], fill=255)
        d.line([(gx, wall_y - hw), (gx, wall_y + hw)], fill=0, width=thin)
        d.line([(gx + door, wall_y - hw), (gx + door, wall_y + hw)], fill=0, width=thin)
        hinge_y = wall_y + hw
        d.line([(gx, hinge_y), (gx, hinge_y + door)], fill=0, width=max(1, round(4 * s)))
        d.arc([gx - door, hinge_y - door, gx + door, hinge_y + door], 0, 90, fill=0, width=thin)

    # Room labels: name, number, area (1 px = 1/11.81 mm at 1:100 and 300 dpi -> m²).
    px_per_m = 300 / 25.4 * 10 * s
    for room in layout.rooms:
        i, j = room["cell"]
        cx = (X[i] + X[i + 1]) / 2
        cy = (Y[j] + Y[j + 1]) / 2 + 40 * s
        area = ring_area(room["ring"]) / (px_per_m * px_per_m)
        d.text((cx, cy - 34 * s), room["name"].upper(), font=f_name, fill=0, anchor="mm")
        d.text((cx, cy), room["number"], font=f_small, fill=0, anchor="mm")
        d.text((cx, cy + 28 * s), f"{area:.1f} m²", font=f_small, fill=0, anchor="mm")

    # Grid bubbles and dimension lines.
    r = round(28 * s)
    for k, x in enumerate(X):
        yb = by0 - round(200 * s)
        d.line([(x, yb + r), (x, by0 - half_out)], fill=0, width=thin)
        d.ellipse([x - r, yb - r, x + r, yb + r], outline=0, width=thin)
        d.text((x, yb), str(k + 1), font=f_grid, fill=0, anchor="mm")
        if k:
            yd = by0 - round(90 * s)
            d.line([(X[k - 1], yd), (x, yd)], fill=0, width=thin)
            d.line([(x - 8 * s, yd + 8 * s), (x + 8 * s, yd - 8 * s)], fill=0, width=thin)
            mm = round((x - X[k - 1]) / px_per_m * 1000)
            d.text(((X[k - 1] + x) / 2, yd - 6 * s), str(mm), font=f_small, fill=0, anchor="md")
    for k, y in enumerate(Y):
        xb = bx0 - round(200 * s)
        d.line([(xb + r, y), (bx0 - half_out, y)], fill=0, width=thin)
        d.ellipse([xb - r, y - r, xb + r, y + r], outline=0, width=thin)
        d.text((xb, y), chr(ord("A") + k), font=f_grid, fill=0, anchor="mm")

    # Title block, bottom right.
    tw, th = round(1500 * s), round(300 * s)
    tx1, ty1 = W - m - round(30 * s), H - m - round(30 * s)
    tx0, ty0 = tx1 - tw, ty1 - th
    d.rectangle([tx0, ty0, tx1, ty1], fill=255, outline=0, width=max(2, round(4 * s)))
    d.line([(tx0, ty0 + th // 2), (tx1, ty0 + th // 2)], fill=0, width=thin)
    d.line([(tx0 + tw * 2 // 3, ty0 + th // 2), (tx0 + tw * 2 // 3, ty1)], fill=0, width=thin)
    d.text((tx0 + 30 * s, ty0 + th / 4), "PLANMARK BENCHMARK - LEVEL 02 GENERAL ARRANGEMENT", font=f_title, fill=0, anchor="lm")
    d.text((tx0 + 30 * s, ty0 + th * 3 / 4), "Scale 1:100 @ A2   Drawn: generate.py   Checked: -", font=f_small, fill=0, anchor="lm")
    d.text((tx0 + tw * 5 / 6, ty0 + th * 3 / 4), "A-102", font=f_big, fill=0, anchor="mm")


def hatch_rooms(d, layout, inner):
    """Floor hatching, as a CAD export of a finishes plan draws it, one line at a time: 45-degree lines 1.2 mm apart at
    1:100 (12 px of the A2 sheet) in every rectangular room, crossed in WCs and labs (tiled floors), fine lines
    (1 px of the A2 sheet), clipped to the room inside its walls. About 10,000 lines on the sheet.
    - Complexity: O(floor area / spacing) lines."""
    s = layout.s
    gap = 12 * s
    width = max(1, round(1 * s))
    X, Y = layout.X, layout.Y
    for room in layout.rooms:
        if room["tag"] != "rect":
            continue
        i, j = room["cell"]
        x0, y0, x1, y1 = X[i] + inner, Y[j] + inner, X[i + 1] - inner, Y[j + 1] - inner
        directions = (1, -1) if room["name"] in ("WC", "Lab") else (1,)
        for direction in directions:
            # Lines y = direction * (x - c): for direction 1, c runs over x - y; for -1, over x + y.
            lo, hi = (x0 - y1, x1 - y0) if direction == 1 else (x0 + y0, x1 + y1)
            c = lo + gap
            while c < hi:
                if direction == 1:
                    ya, yb = max(y0, x0 - c), min(y1, x1 - c)
                    a, b = (ya + c, ya), (yb + c, yb)
                else:
                    ya, yb = max(y0, c - x1), min(y1, c - x0)
                    a, b = (c - ya, ya), (c - yb, yb)
                if ya < yb:
                    d.line([a, b], fill=0, width=width)
                c += gap


def draw_plan(layout, path, supersample, hatch=False):
    """The drawing: 8-bit grey, black on white, as a CAD export: drawn at `supersample` times the size and
    box-filtered down, so lines and text have anti-aliased edges as a plotter driver's raster export has.
    - Complexity: O(pixels) memory and time (the supersampled sheet, then the box filter)."""
    out_size = (layout.width, layout.height)
    layout = Scaled(layout, supersample)
    img = Image.new("L", (layout.width, layout.height), 255)
    draw_plan_on(ImageDraw.Draw(img), layout, hatch)
    if supersample != 1:
        img = img.resize(out_size, Image.Resampling.BOX)
    img.save(path, dpi=(300, 300))


def write_pdf(layout, path, page_mm, supersample, hatch=False):
    """The same drawing as vectors: one page of `page_mm` (ISO A2 or A0 landscape), drawn by draw_plan_on through
    CairoDraw on pycairo's PDF surface, in page units (pt) by a scale transform: one pixel of the plan at 300 dpi is
    72/300 pt, so pdftoppm -r 300 puts the plan's pixels where the PNG has them (the page's size in pixels at 300 dpi,
    ceil(pt x 300 / 72), is the PNG's: A0 1189 x 841 mm = 3370.39 x 2383.94 pt is 14044 x 9934 px, the PNG's
    14043 x 9933 and a column and a row of paper). The plan is drawn at the PNG's supersampled coordinates (the same
    rounding) with the scale divided by `supersample`. Its creation date is fixed, so the bytes depend only on the
    code, cairo and the fonts.
    - Complexity: O(rooms x their vertices) drawing operations (the A0 file is about 40 kB, deflated)."""
    import cairo
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Drawings"))
    from cairo_draw import CairoDraw  # Drawings/cairo_draw.py, shared with Drawings/sample/make_sample.py

    width_pt, height_pt = (mm * 72 / 25.4 for mm in page_mm)
    surface = cairo.PDFSurface(path, width_pt, height_pt)
    surface.set_metadata(cairo.PDF_METADATA_TITLE, "PLANMARK BENCHMARK - LEVEL 02 GENERAL ARRANGEMENT")
    surface.set_metadata(cairo.PDF_METADATA_CREATOR, "Benchmarks/render/generate.py")
    surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, PDF_DATE)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    ctx.scale(72 / 300 / supersample, 72 / 300 / supersample)
    draw_plan_on(CairoDraw(ctx), Scaled(layout, supersample), hatch)
    ctx.show_page()
    surface.finish()


def write_regions(layout, path):
    def num(v):
        return str(int(v)) if float(v).is_integer() else repr(float(v))

    def ring_json(ring):
        pts = list(ring) + [ring[0]]
        return "[" + ",".join(f"[{num(x)},{num(y)}]" for x, y in pts) + "]"

    parts = []
    for room in layout.rooms:
        parts.append('{"type":"Feature","id":%s,"properties":{"kind":"room","name":%s},'
                     '"geometry":{"type":"Polygon","coordinates":[%s]}}'
                     % (json.dumps(room["id"]), json.dumps(f'{room["name"]} {room["number"]}'), ring_json(room["ring"])))
    outline = [(layout.x0, layout.y0), (layout.x1, layout.y0), (layout.x1, layout.y1), (layout.x0, layout.y1)]
    rings = ",".join(ring_json(r) for r in [outline] + layout.allowed_holes)
    parts.append('{"type":"Feature","id":"ALLOWED","properties":{"kind":"allowed","name":"Usable floor area"},'
                 '"geometry":{"type":"Polygon","coordinates":[%s]}}' % rings)
    with open(path, "w", newline="\n") as f:
        f.write('{"type":"FeatureCollection","features":[\n' + ",\n".join(parts) + "\n]}\n")


def write_markers(layout, path, seed):
    """95% inside the allowed area, 4% outside it on the sheet (margins, stair cores), 1% off the sheet."""
    rnd = random.Random(seed + 1)
    s = layout.s
    X, Y = layout.X, layout.Y
    stairs = [(X[i], Y[j], X[i + 1], Y[j + 1]) for i, j in layout.stairs]
    pad = 25 * s   # keep "inside" markers clear of the outline so they stay inside

    def in_stair(x, y):
        return any(a <= x <= c and b <= y <= d for a, b, c, d in stairs)

    def fmt(v):
        return rnd.choice((str(round(v)), f"{v:.1f}", f"{v:.2f}"))

    n_off = MARKERS // 100
    n_out = MARKERS * 4 // 100
    kinds = ["in"] * (MARKERS - n_off - n_out) + ["out"] * n_out + ["off"] * n_off
    rnd.shuffle(kinds)
    rows = []
    for k in kinds:
        while True:
            if k == "in":
                x, y = rnd.uniform(layout.x0 + pad, layout.x1 - pad), rnd.uniform(layout.y0 + pad, layout.y1 - pad)
                if not any(a - pad <= x <= c + pad and b - pad <= y <= d + pad for a, b, c, d in stairs):
                    break
            elif k == "out":
                if rnd.random() < 0.2:
                    a, b, c, d = stairs[rnd.randrange(len(stairs))]
                    x, y = rnd.uniform(a + pad, c - pad), rnd.uniform(b + pad, d - pad)
                    break
                x, y = rnd.uniform(0, layout.width), rnd.uniform(0, layout.height)
                if not (layout.x0 - pad <= x <= layout.x1 + pad and layout.y0 - pad <= y <= layout.y1 + pad):
                    break
            else:
                x = rnd.choice((rnd.uniform(-400 * s, -1), rnd.uniform(layout.width + 1, layout.width + 400 * s)))
                y = rnd.uniform(-300 * s, layout.height + 300 * s)
                break
        rows.append((fmt(x), fmt(y)))
    with open(path, "w", newline="\n") as f:
        f.write("id,x,y\n")
        for n, (x, y) in enumerate(rows, 1):
            f.write(f"{n},{x},{y}\n")
    return kinds.count("in"), kinds.count("out"), kinds.count("off")


def check(layout, regions_path, markers_path):
    import shapely
    from shapely.geometry import shape, Polygon
    with open(regions_path) as f:
        doc = json.load(f)
    rooms = [shape(ft["geometry"]) for ft in doc["features"] if ft["properties"]["kind"] == "room"]
    allowed = [shape(ft["geometry"]) for ft in doc["features"] if ft["properties"]["kind"] == "allowed"]
    assert len(rooms) == COLS * ROWS and len(allowed) == 1
    assert all(r.is_valid for r in rooms + allowed)
    building = Polygon([(layout.x0, layout.y0), (layout.x1, layout.y0), (layout.x1, layout.y1), (layout.x0, layout.y1)])
    union = shapely.union_all(rooms)
    assert abs(union.area - building.area) < 1e-6 and abs(sum(r.area for r in rooms) - building.area) < 1e-6, "rooms must tile"
    xs, ys = [], []
    with open(markers_path) as f:
        next(f)
        for line in f:
            _, x, y = line.split(",")
            xs.append(float(x))
            ys.append(float(y))
    a = allowed[0]
    shapely.prepare(a)
    inside = sum(bool(v) for v in shapely.intersects_xy(a, xs, ys))
    off = sum(1 for x, y in zip(xs, ys) if not (0 <= x <= layout.width and 0 <= y <= layout.height))
    print(f"check: {len(rooms)} rooms tile the building, allowed area valid; markers: {inside} inside the allowed "
          f"area, {len(xs) - inside - off} outside it on the sheet, {off} off the sheet", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "data", "render"))
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--a0", action="store_true", help="write the A0 (14043x9933) set instead of the A2 one")
    p.add_argument("--supersample", type=int, default=2, help="draw at N times the size, then box-filter down")
    p.add_argument("--pdf", action="store_true", help="write the plan as a vector PDF (plan.pdf, plan-a0.pdf) instead of the PNG")
    p.add_argument("--hatch", action="store_true",
                   help="hatch every rectangular room's floor too (about 10,000 more lines; plan-hatched.png, plan-a0-hatched.pdf, ...)")
    p.add_argument("--check", action="store_true")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    suffix = "-a0" if args.a0 else ""
    width, height = A0 if args.a0 else A2
    t = time.perf_counter()
    layout = Layout(args.seed, width, height)
    plan = os.path.join(args.out, f"plan{suffix}{'-hatched' if args.hatch else ''}.png")
    regions = os.path.join(args.out, f"regions{suffix}.geojson")
    markers = os.path.join(args.out, f"markers{suffix}.csv")
    write_regions(layout, regions)
    counts = write_markers(layout, markers, args.seed)
    if args.pdf:
        plan = plan[:-len(".png")] + ".pdf"
        write_pdf(layout, plan + ".tmp.pdf", A0_MM if args.a0 else A2_MM, args.supersample, args.hatch)
        os.replace(plan + ".tmp.pdf", plan)
        what = f"{'A0' if args.a0 else 'A2'} page, {width}x{height} px of plan at 300 dpi"
    else:
        draw_plan(layout, plan + ".tmp.png", args.supersample, args.hatch)
        os.replace(plan + ".tmp.png", plan)
        what = f"{width}x{height}"
    print(f"wrote {plan} ({what}, {os.path.getsize(plan) / 1e6:.2f} MB), {regions}, {markers} "
          f"({counts[0]} in / {counts[1]} outside / {counts[2]} off the sheet) in {time.perf_counter() - t:.1f} s",
          file=sys.stderr)
    if args.check:
        check(layout, regions, markers)


if __name__ == "__main__":
    main()
