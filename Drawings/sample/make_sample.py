#!/usr/bin/env python3
"""Generates the sample drawing of PlanMark: a level-2 office floor plan.

Writes, next to this script:
  plan.png             2400x1600 px, 8-bit grey, white sheet, black walls, doors with swing arcs,
                       windows, a stair core, a column, room labels, north arrow, scale bar, title block
  plan.pdf             the same plan as vectors on one page of 1152 x 768 pt, which is 2400 x 1600 px at 150 dpi
                       (1 px = 0.48 pt), so `planmark drawing add plan.pdf --dpi 150` makes a drawing on which
                       regions.geojson and the markers apply unchanged; its outline (bookmark) entry
                       "A-201 - Level 2 general arrangement" names the sheet for `planmark sheets add`
  regions.geojson      rooms (on the wall centre-lines, neighbours share walls vertex for vertex)
                       and one allowed area (the building interior minus the stair core)
  markers.csv          id,x,y      (pixels, origin top-left, y down)
  markers-latlng.csv   id,lat,lng  (the same markers as Leaflet CRS.Simple latLngs at zoom 2)
  expected-validate.jsonl  the hand-worked outcome of `planmark validate` on markers.csv

How plan.pdf is made: one drawing function, draw_plan_on(d), draws the plan with ImageDraw's calls in pixels. For
plan.png `d` is Pillow's ImageDraw.Draw; for plan.pdf it is CairoDraw, which draws the same calls with pycairo's PDF
surface scaled to 0.48 pt a pixel, keeping Pillow's meaning (boxes include their last pixel, outlines lie inside,
arcs in degrees clockwise from 3 o'clock, grey levels, DejaVu Sans and Sans Bold text placed by Pillow's anchors).
pdftoppm -r 150 draws plan.pdf at 2400 x 1600 px, a mean absolute difference of about 1.2 grey levels from plan.png
(anti-aliased edges and the glyphs' unhinted spacing).

Deterministic: the same Pillow, cairo and DejaVu fonts give the same bytes (plan.pdf's creation date is fixed).
Pillow versions differ in a few edge pixels (Debian 12's Pillow 9.4 draws the north arrow's two bottom tips a
pixel wider than the Pillow that made the committed plan.png), so name the outputs to write only those. Requires Pillow and
pycairo (Debian: python3-pil, python3-cairo; /usr/bin/python3) and DejaVu Sans (fonts-dejavu-core).
Scale: 1 px = 1 cm (1:100 at 100 px per metre).

Usage: /usr/bin/python3 Drawings/sample/make_sample.py [OUTPUT ...]   (plan.png, plan.pdf, regions.geojson,
       markers.csv (with markers-latlng.csv), expected-validate.jsonl; all of them without names)
"""

import json
import math
import os
import sys

import cairo
from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
FONT_DIR = "/usr/share/fonts/truetype/dejavu"
WIDTH, HEIGHT = 2400, 1600
ZOOM = 2  # Leaflet zoom of markers-latlng.csv: lat = -y / 2^2, lng = x / 2^2
PDF_DPI = 150  # plan.pdf's page is the plan at 150 dpi: 2400 x 1600 px = 1152 x 768 pt
PT_PER_PX = 72 / PDF_DPI
SHEET_TITLE = "A-201 - Level 2 general arrangement"  # plan.pdf's outline entry, as the title block says
PDF_DATE = "2026-11-22T00:00:00Z"  # plan.pdf's creation date: fixed, so the bytes do not change with the day

EXTERIOR = 30  # wall thickness in px (1 px = 1 cm)
INTERIOR = 12
CORE = 20  # concrete stair core

# ---------------------------------------------------------------------------------------------------
# Geometry: wall centre-lines. Building outline (200,150)-(1800,1250).
#
#   y=150  +---------------+-----------+--------------------------+
#          | 2.01 Office   | 2.02      | 2.03 Meeting   [column]  |
#   y=650  +---------------+-----------+--------------------------+
#          | 2.10 Corridor                                        |
#   y=800  +----------+--------+-------+-----------+----------+---+
#          | 2.04     | Stair  | 2.05  | 2.06 WC   | 2.07         |
#   y=1000 | Open     +--------+ Kitchen|          | Storage      |
#          | office (L-shaped)  |       |          |              |
#   y=1250 +--------------------+-------+----------+--------------+
#         x=200      650      950     1250       1500           1800
# ---------------------------------------------------------------------------------------------------

# Rooms: id, name, exterior ring (centre-lines, every T-junction on the ring is a vertex so that
# neighbours share walls vertex for vertex), holes, label position.
ROOMS = [
    ("2.01", "Office", [(200, 150), (700, 150), (700, 650), (200, 650)], [], (450, 400)),
    ("2.02", "Office", [(700, 150), (1100, 150), (1100, 650), (700, 650)], [], (900, 400)),
    ("2.03", "Meeting", [(1100, 150), (1800, 150), (1800, 650), (1100, 650)],
     [[(1430, 380), (1430, 420), (1470, 420), (1470, 380)]], (1300, 330)),
    ("2.04", "Open office",
     [(200, 800), (650, 800), (650, 1000), (950, 1000), (950, 1250), (200, 1250)], [], (420, 1010)),
    ("2.05", "Kitchen", [(950, 800), (1250, 800), (1250, 1250), (950, 1250), (950, 1000)], [],
     (1070, 1050)),
    ("2.06", "WC", [(1250, 800), (1500, 800), (1500, 1250), (1250, 1250)], [], (1375, 1190)),
    ("2.07", "Storage", [(1500, 800), (1800, 800), (1800, 1250), (1500, 1250)], [], (1650, 1040)),
    ("2.10", "Corridor",
     [(200, 650), (700, 650), (1100, 650), (1800, 650), (1800, 800), (1500, 800), (1250, 800),
      (950, 800), (650, 800), (200, 800)], [], (1000, 725)),
]

STAIR = [(650, 800), (950, 800), (950, 1000), (650, 1000)]
COLUMN = ROOMS[2][3][0]

ALLOWED = ("A1", "Level 2 usable area",
           [(200, 150), (1800, 150), (1800, 1250), (200, 1250)], [STAIR])

# Walls: (x0, y0, x1, y1, thickness), axis-aligned centre-line segments.
WALLS = [
    (200, 150, 1800, 150, EXTERIOR), (1800, 150, 1800, 1250, EXTERIOR),
    (200, 1250, 1800, 1250, EXTERIOR), (200, 150, 200, 1250, EXTERIOR),
    (700, 150, 700, 650, INTERIOR), (1100, 150, 1100, 650, INTERIOR),
    (200, 650, 1800, 650, INTERIOR), (200, 800, 650, 800, INTERIOR), (950, 800, 1800, 800, INTERIOR),
    (650, 800, 950, 800, CORE), (650, 800, 650, 1000, CORE), (650, 1000, 950, 1000, CORE),
    (950, 800, 950, 1000, CORE), (950, 1000, 950, 1250, INTERIOR),
    (1250, 800, 1250, 1250, INTERIOR), (1500, 800, 1500, 1250, INTERIOR),
]

# Doors: (hinge, other jamb, swing direction), the opening lies on a wall centre-line between the
# hinge and the other jamb; the leaf is drawn open at 90 degrees towards the swing direction.
DOORS = [
    ((650, 650), (560, 650), (0, -1)),     # 2.01
    ((740, 650), (830, 650), (0, -1)),     # 2.02
    ((1140, 650), (1220, 650), (0, -1)),   # 2.03, double door, left leaf
    ((1300, 650), (1220, 650), (0, -1)),   # 2.03, right leaf
    ((300, 800), (390, 800), (0, 1)),      # 2.04
    ((790, 800), (700, 800), (0, -1)),     # stair, opens into the corridor (escape direction)
    ((1000, 800), (1090, 800), (0, 1)),    # 2.05
    ((1480, 800), (1400, 800), (0, 1)),    # 2.06
    ((1650, 800), (1560, 800), (0, 1)),    # 2.07
    ((200, 680), (200, 770), (1, 0)),      # entrance
]

# Windows in the exterior walls: (x0, y0, x1, y1) along a centre-line.
WINDOWS = [
    (330, 150, 570, 150), (800, 150, 1000, 150), (1250, 150, 1650, 150),
    (300, 1250, 550, 1250), (700, 1250, 900, 1250), (1030, 1250, 1170, 1250), (1600, 1250, 1700, 1250),
    (1800, 300, 1800, 500), (1800, 950, 1800, 1100),
]

# Markers: id, x, y (strings, written as given), and the expected outcome of
# `planmark validate --regions regions.geojson --size 2400x1600 markers.csv` (boundary rule include),
# worked out by hand from the coordinates above: the reason (None = valid) and every covering region
# in regions-file order with its location. "i" = inside, "b" = boundary.
MARKERS = [
    ("M01", "450", "400", None, [("2.01", "i"), ("A1", "i")]),
    ("M02", "900.5", "300.25", None, [("2.02", "i"), ("A1", "i")]),
    ("M03", "1300", "500", None, [("2.03", "i"), ("A1", "i")]),
    # next to the column (x 1430..1470): still inside 2.03
    ("M04", "1400", "400", None, [("2.03", "i"), ("A1", "i")]),
    # inside the column, a hole of 2.03: no room; the allowed area has no hole there
    ("M05", "1450", "400", None, [("A1", "i")]),
    # on the column's west face x = 1430: on 2.03's hole ring
    ("M06", "1430", "400", None, [("2.03", "b"), ("A1", "i")]),
    # on the wall x = 700 shared by 2.01 and 2.02
    ("M07", "700", "400", None, [("2.01", "b"), ("2.02", "b"), ("A1", "i")]),
    # on the wall y = 650 shared by 2.03 and the corridor
    ("M08", "1500", "650", None, [("2.03", "b"), ("2.10", "b"), ("A1", "i")]),
    # the T-junction (700, 650): a vertex of 2.01, 2.02 and the corridor
    ("M09", "700", "650", None, [("2.01", "b"), ("2.02", "b"), ("2.10", "b"), ("A1", "i")]),
    ("M10", "1000", "725", None, [("2.10", "i"), ("A1", "i")]),
    ("M11", "400", "1100", None, [("2.04", "i"), ("A1", "i")]),
    # in the arm of the L-shaped 2.04 below the stair core
    ("M12", "800", "1100", None, [("2.04", "i"), ("A1", "i")]),
    ("M13", "1100", "900", None, [("2.05", "i"), ("A1", "i")]),
    ("M14", "1375.5", "1000", None, [("2.06", "i"), ("A1", "i")]),
    ("M15", "1650", "1100", None, [("2.07", "i"), ("A1", "i")]),
    # in the stair core: the allowed area's hole, and no room
    ("M16", "800", "900", "outside-allowed-area", []),
    # on the stair core's west wall x = 650: 2.04's edge and the allowed area's hole ring
    ("M17", "650", "900", None, [("2.04", "b"), ("A1", "b")]),
    # on the exterior wall's centre-line x = 1800
    ("M18", "1800", "400", None, [("2.03", "b"), ("A1", "b")]),
    # in the outer half of the exterior wall: beyond the centre-line, so outside every region
    ("M19", "1810", "400", "outside-allowed-area", []),
    # on the sheet, outside the building
    ("M20", "2100", "700", "outside-allowed-area", []),
    # beyond the drawing's right edge (x > 2400)
    ("M21", "2500", "800", "outside-drawing", []),
    # not a number
    ("M22", "abc", "500", "invalid-coordinate", []),
]


def font(name, size):
    return ImageFont.truetype(os.path.join(FONT_DIR, name), size)


def ring_area(ring):
    s = 0
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
        s += x0 * y1 - x1 * y0
    return abs(s) / 2


def wall_rect(x0, y0, x1, y1, t):
    """The wall's outline: the centre-line thickened by t/2 each side and extended by t/2 at both ends."""
    h = t / 2
    return (min(x0, x1) - h, min(y0, y1) - h, max(x0, x1) + h - 1, max(y0, y1) + h - 1)


def wall_thickness_at(x, y):
    best = 0
    for (x0, y0, x1, y1, t) in WALLS:
        if min(x0, x1) <= x <= max(x0, x1) and min(y0, y1) <= y <= max(y0, y1):
            best = max(best, t)
    return best


def opening(draw, a, b, t):
    """Clears the wall between centre-line points a and b (thickness t)."""
    (ax, ay), (bx, by) = a, b
    h = t / 2 + 1
    if ay == by:
        draw.rectangle((min(ax, bx), ay - h, max(ax, bx) - 1, ay + h - 1), fill=255)
    else:
        draw.rectangle((ax - h, min(ay, by), ax + h - 1, max(ay, by) - 1), fill=255)


def draw_plan():
    """plan.png's image: the plan drawn by Pillow."""
    img = Image.new("L", (WIDTH, HEIGHT), 255)
    draw_plan_on(ImageDraw.Draw(img))
    return img


def draw_plan_on(d):
    """Draws the plan on `d`: an ImageDraw.Draw (plan.png) or a CairoDraw (plan.pdf), in pixels of the plan."""
    # Sheet frame.
    d.rectangle((40, 40, WIDTH - 41, HEIGHT - 41), outline=0, width=4)
    d.rectangle((52, 52, WIDTH - 53, HEIGHT - 53), outline=0, width=1)

    # Walls, then the openings.
    for w in WALLS:
        d.rectangle(wall_rect(*w), fill=0)
    for hinge, jamb, _ in DOORS:
        opening(d, hinge, jamb, wall_thickness_at(*hinge))
    for x0, y0, x1, y1 in WINDOWS:
        t = EXTERIOR
        opening(d, (x0, y0), (x1, y1), t)
        h = t // 2
        if y0 == y1:
            for dy in (-h, 0, h - 1):
                d.line((x0, y0 + dy, x1 - 1, y0 + dy), fill=0, width=2 if dy else 1)
            d.line((x0, y0 - h, x0, y0 + h - 1), fill=0, width=2)
            d.line((x1 - 1, y0 - h, x1 - 1, y0 + h - 1), fill=0, width=2)
        else:
            for dx in (-h, 0, h - 1):
                d.line((x0 + dx, y0, x0 + dx, y1 - 1), fill=0, width=2 if dx else 1)
            d.line((x0 - h, y0, x0 + h - 1, y0), fill=0, width=2)
            d.line((x0 - h, y1 - 1, x0 + h - 1, y1 - 1), fill=0, width=2)

    # Door leaves and swing arcs.
    for (hx, hy), (jx, jy), (nx, ny) in DOORS:
        r = abs(jx - hx) + abs(jy - hy)
        t = wall_thickness_at(hx, hy)
        # The leaf starts at the wall face on the swing side.
        fx, fy = hx + nx * t / 2, hy + ny * t / 2
        lx, ly = fx + nx * r, fy + ny * r
        d.line((fx, fy, lx, ly), fill=0, width=3)
        ux, uy = (jx - hx) / r, (jy - hy) / r
        a_jamb = math.degrees(math.atan2(uy, ux)) % 360
        a_leaf = math.degrees(math.atan2(ny, nx)) % 360
        start, end = (a_jamb, a_leaf) if (a_leaf - a_jamb) % 360 == 90 else (a_leaf, a_jamb)
        d.arc((fx - r, fy - r, fx + r, fy + r), start, end, fill=90, width=1)

    # Column (the hole of 2.03), solid.
    xs = [p[0] for p in COLUMN]
    ys = [p[1] for p in COLUMN]
    d.rectangle((min(xs), min(ys), max(xs) - 1, max(ys) - 1), fill=0)

    # Stair core: two flights of treads, a landing, the walking line with an arrow.
    ix0, iy0, ix1, iy1 = 650 + CORE // 2, 800 + CORE // 2, 950 - CORE // 2, 1000 - CORE // 2
    mid = (iy0 + iy1) // 2
    d.line((ix0 + 60, mid, ix1, mid), fill=0, width=2)  # the wall between the flights
    for x in range(ix0 + 60, ix1 - 60 + 1, 22):
        d.line((x, iy0, x, iy1 - 1), fill=0, width=1)
    d.line((ix1 - 80, iy0 + 45, ix0 + 30, iy0 + 45, ix0 + 30, iy1 - 45, ix1 - 80, iy1 - 45), fill=0, width=1)
    d.polygon([(ix1 - 80, iy1 - 52), (ix1 - 66, iy1 - 45), (ix1 - 80, iy1 - 38)], fill=0)
    d.text((ix1 - 40, iy1 - 45), "UP", font=font("DejaVuSans.ttf", 16), fill=0, anchor="mm")
    d.rectangle((ix0 + 100, iy0 + 2, ix1 - 60, iy0 + 24), fill=255)
    d.text(((ix0 + ix1) / 2 + 20, iy0 + 6), "STAIR 2.S1", font=font("DejaVuSans.ttf", 14), fill=0, anchor="ma")

    # Kitchen counter with a sink; WC cubicles.
    d.rectangle((1190, 840, 1243, 1180), outline=0, width=2)
    d.rounded_rectangle((1198, 960, 1236, 1020), radius=8, outline=0, width=2)
    for y in (830, 945):
        d.rectangle((1256, y, 1355, y + 100), outline=0, width=1)
        d.ellipse((1300, y + 25, 1346, y + 85), outline=0, width=2)
    d.line((1360, 820, 1360, 1060), fill=0, width=2)
    for y in (1010, 1080):
        d.rounded_rectangle((1440, y, 1490, y + 55), radius=10, outline=0, width=2)

    # Room labels: number and name, area (centre-line area, 1 px = 1 cm).
    for room in ROOMS:
        for xy, text, f, anchor in label_lines(room):
            d.text(xy, text, font=f, fill=0, anchor=anchor)

    # North arrow.
    cx, cy = 2120, 300
    d.ellipse((cx - 70, cy - 70, cx + 70, cy + 70), outline=0, width=3)
    d.polygon([(cx, cy - 90), (cx + 28, cy + 40), (cx, cy + 18), (cx - 28, cy + 40)], fill=0)
    d.text((cx, cy - 100), "N", font=font("DejaVuSans-Bold.ttf", 40), fill=0, anchor="md")

    # Scale bar: 5 m = 500 px.
    sx, sy = 200, 1420
    for k in range(5):
        d.rectangle((sx + k * 100, sy, sx + (k + 1) * 100 - 1, sy + 15), outline=0, fill=0 if k % 2 == 0 else 255, width=2)
    f_small = font("DejaVuSans.ttf", 20)
    for k in range(6):
        d.text((sx + k * 100, sy + 22), f"{k}", font=f_small, fill=0, anchor="ma")
    d.text((sx + 520, sy + 8), "m", font=f_small, fill=0, anchor="lm")
    d.text((sx, sy - 12), "SCALE 1:100  (1 px = 1 cm)", font=f_small, fill=0, anchor="ld")

    # Title block.
    tx0, ty0, tx1, ty1 = 1860, 1300, WIDTH - 53, HEIGHT - 53
    d.rectangle((tx0, ty0, tx1, ty1), outline=0, width=3)
    for y in (1370, 1420, 1470):
        d.line((tx0, y, tx1, y), fill=0, width=2)
    d.line((2180, 1420, 2180, ty1), fill=0, width=2)
    d.text((tx0 + 16, ty0 + 35), "PLANMARK SAMPLE OFFICE", font=font("DejaVuSans-Bold.ttf", 30), fill=0, anchor="lm")
    d.text((tx0 + 16, 1395), "Level 2 \u2014 General arrangement plan", font=font("DejaVuSans.ttf", 22), fill=0, anchor="lm")
    f_cell = font("DejaVuSans.ttf", 18)
    d.text((tx0 + 16, 1445), "Drawing no.  A-201", font=f_cell, fill=0, anchor="lm")
    d.text((2196, 1445), "Rev.  C", font=f_cell, fill=0, anchor="lm")
    d.text((tx0 + 16, 1500), "Scale  1:100 @ A1", font=f_cell, fill=0, anchor="lm")
    d.text((2196, 1500), "Sheet  1 / 1", font=f_cell, fill=0, anchor="lm")


class CairoDraw:
    """The part of Pillow's ImageDraw.Draw that draw_plan_on uses, drawn as vectors on a cairo context whose unit is
    one pixel of the plan, with Pillow's meaning of the arguments:

    - coordinates name pixels, and a pixel x covers [x, x + 1): a box (x0, y0, x1, y1) includes its last pixels, so
      it covers [x0, x1 + 1] x [y0, y1 + 1]; a line or polygon runs through the pixels' centres (x + 0.5) and covers
      the pixels it touches (a line's ends reach half a pixel past its end points);
    - outlines lie inside the box, `width` pixels wide; fills are drawn first, the outline over them unless both have
      the same ink;
    - arcs are in degrees clockwise from 3 o'clock (y points down);
    - inks are grey levels 0..255 (mode "L");
    - text is in the face of the Pillow font it is given (DejaVuSans.ttf or DejaVuSans-Bold.ttf, which cairo finds
      through fontconfig as DejaVu Sans, normal or bold) at the font's pixel size, placed by Pillow's two-letter
      anchors (horizontal l, m, r; vertical a, t, m, s, b, d) measured with cairo's metrics of that face.
    """

    FACES = {"DejaVuSans.ttf": ("DejaVu Sans", cairo.FONT_WEIGHT_NORMAL),
             "DejaVuSans-Bold.ttf": ("DejaVu Sans", cairo.FONT_WEIGHT_BOLD)}

    def __init__(self, ctx):
        self.ctx = ctx

    def _ink(self, ink):
        self.ctx.set_source_rgb(ink / 255, ink / 255, ink / 255)

    def _fill(self, ink, even_odd=False):
        self._ink(ink)
        self.ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD if even_odd else cairo.FILL_RULE_WINDING)
        self.ctx.fill()

    @staticmethod
    def _box(xy):
        x0, y0, x1, y1 = xy
        return x0, y0, x1 + 1, y1 + 1

    def _ring(self, xy, width, path):
        """Fills the outline of a shape `width` pixels wide inside its box: the shape, less the shape inset by width."""
        x0, y0, x1, y1 = self._box(xy)
        path(x0, y0, x1, y1, 0)
        if x1 - x0 > 2 * width and y1 - y0 > 2 * width:
            path(x0 + width, y0 + width, x1 - width, y1 - width, width)

    def _paint(self, xy, fill, outline, width, path):
        if fill is not None:
            path(*self._box(xy), 0)
            self._fill(fill)
        if outline is not None and outline != fill and width:
            self._ring(xy, width, path)
            self._fill(outline, even_odd=True)

    def rectangle(self, xy, fill=None, outline=None, width=1):
        self._paint(xy, fill, outline, width, lambda x0, y0, x1, y1, _: self.ctx.rectangle(x0, y0, x1 - x0, y1 - y0))

    def rounded_rectangle(self, xy, radius=0, fill=None, outline=None, width=1):
        def path(x0, y0, x1, y1, inset):
            r = radius + 0.5 - inset  # the corner's box is 2 * radius + 1 pixels
            c = self.ctx
            c.new_sub_path()
            c.arc(x1 - r, y0 + r, r, -math.pi / 2, 0)
            c.arc(x1 - r, y1 - r, r, 0, math.pi / 2)
            c.arc(x0 + r, y1 - r, r, math.pi / 2, math.pi)
            c.arc(x0 + r, y0 + r, r, math.pi, 3 * math.pi / 2)
            c.close_path()
        self._paint(xy, fill, outline, width, path)

    def _ellipse_path(self, x0, y0, x1, y1, start=0.0, end=360.0, negative=False):
        c = self.ctx
        c.save()
        c.translate((x0 + x1) / 2, (y0 + y1) / 2)
        c.scale((x1 - x0) / 2, (y1 - y0) / 2)
        (c.arc_negative if negative else c.arc)(0, 0, 1, math.radians(start), math.radians(end))
        c.restore()

    def ellipse(self, xy, fill=None, outline=None, width=1):
        def path(x0, y0, x1, y1, _):
            self.ctx.new_sub_path()
            self._ellipse_path(x0, y0, x1, y1)
            self.ctx.close_path()
        self._paint(xy, fill, outline, width, path)

    def arc(self, xy, start, end, fill=None, width=1):
        """The part of the ellipse's outline from `start` to `end` degrees: the ring sector between the two."""
        x0, y0, x1, y1 = self._box(xy)
        self.ctx.new_sub_path()
        self._ellipse_path(x0, y0, x1, y1, start, end)
        self._ellipse_path(x0 + width, y0 + width, x1 - width, y1 - width, end, start, negative=True)
        self.ctx.close_path()
        self._fill(fill)

    def line(self, xy, fill=None, width=1):
        """Each segment of the polyline on its own, `width` pixels wide, through the end pixels' centres and half a
        pixel past them."""
        points = list(zip(xy[0::2], xy[1::2])) if not isinstance(xy[0], (tuple, list)) else list(xy)
        c = self.ctx
        for (ax, ay), (bx, by) in zip(points, points[1:]):
            length = math.hypot(bx - ax, by - ay)
            ux, uy = ((bx - ax) / length, (by - ay) / length) if length else (1.0, 0.0)
            c.move_to(ax + 0.5 - ux / 2, ay + 0.5 - uy / 2)
            c.line_to(bx + 0.5 + ux / 2, by + 0.5 + uy / 2)
        c.set_line_width(width)
        c.set_line_cap(cairo.LINE_CAP_BUTT)
        self._ink(fill)
        c.stroke()

    def polygon(self, xy, fill=None, outline=None, width=1):
        """The polygon through its vertices' pixel centres, the pixels on its edges included."""
        c = self.ctx

        def path():
            for k, (x, y) in enumerate(xy):
                (c.line_to if k else c.move_to)(x + 0.5, y + 0.5)
            c.close_path()
        if fill is not None:
            path()
            self._ink(fill)
            c.set_fill_rule(cairo.FILL_RULE_WINDING)
            c.fill_preserve()
            c.set_line_width(1)
            c.set_line_join(cairo.LINE_JOIN_MITER)
            c.stroke()
        if outline is not None and outline != fill:
            path()
            c.set_line_width(width)
            self._ink(outline)
            c.stroke()

    def text(self, xy, text, font, fill=None, anchor="la"):
        family, weight = self.FACES[os.path.basename(font.path)]
        c = self.ctx
        c.select_font_face(family, cairo.FONT_SLANT_NORMAL, weight)
        c.set_font_size(font.size)
        ascent, descent = c.font_extents()[:2]
        ink_x, ink_y, ink_w, ink_h, advance = c.text_extents(text)[:5]
        dx = {"l": 0, "m": -advance / 2, "r": -advance}[anchor[0]]
        dy = {"a": ascent, "t": -ink_y, "m": (ascent - descent) / 2, "s": 0, "b": -(ink_y + ink_h), "d": -descent}[anchor[1]]
        x, y = xy
        c.move_to(x + dx, y + dy)
        self._ink(fill)
        c.show_text(text)
        c.new_path()


def write_pdf(path):
    """plan.pdf: the plan drawn by draw_plan_on as vectors on one page that is the plan at 150 dpi (1 px = 0.48 pt),
    with an outline entry naming the sheet, and a fixed creation date so that the bytes depend only on the code,
    cairo and the fonts."""
    surface = cairo.PDFSurface(path, WIDTH * PT_PER_PX, HEIGHT * PT_PER_PX)
    surface.set_metadata(cairo.PDF_METADATA_TITLE, SHEET_TITLE)
    surface.set_metadata(cairo.PDF_METADATA_CREATOR, "Drawings/sample/make_sample.py")
    surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, PDF_DATE)
    surface.add_outline(cairo.PDF_OUTLINE_ROOT, SHEET_TITLE, "page=1", 0)
    ctx = cairo.Context(surface)
    ctx.scale(PT_PER_PX, PT_PER_PX)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    draw_plan_on(CairoDraw(ctx))
    ctx.show_page()
    surface.finish()


def label_lines(room):
    """A room's label as drawn: (position, text, font, anchor) of its two lines, number and name over the area."""
    rid, name, ring, holes, (lx, ly) = room
    area = (ring_area(ring) - sum(ring_area(h) for h in holes)) / 10000
    return [((lx, ly - 4), f"{rid} {name}", font("DejaVuSans-Bold.ttf", 28), "md"),
            ((lx, ly + 6), f"{area:.2f} m\u00b2", font("DejaVuSans.ttf", 22), "ma")]


def label_box(room):
    """The box of the room's label as Pillow draws it, [minX, minY, maxX, maxY] in pixels (`properties.labelBox`)."""
    d = ImageDraw.Draw(Image.new("L", (1, 1)))
    boxes = [d.textbbox(xy, text, font=f, anchor=anchor) for xy, text, f, anchor in label_lines(room)]
    return [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)]


def feature(fid, kind, name, ring, holes, label=None):
    def closed(r):
        return [list(p) for p in r] + [list(r[0])]
    # Exterior rings as drawn (clockwise on screen), holes the other way round.
    rings = [closed(ring)] + [closed(h) for h in holes]
    return {
        "type": "Feature",
        "id": fid,
        "properties": {"kind": kind, "name": name, **({"labelBox": label} if label else {})},
        "geometry": {"type": "Polygon", "coordinates": rings},
    }


def write_regions(path):
    features = [feature(room[0], "room", room[1], room[2], room[3], label_box(room)) for room in ROOMS]
    aid, aname, aring, aholes = ALLOWED
    features.append(feature(aid, "allowed", aname, aring, aholes))
    doc = {"type": "FeatureCollection", "features": features}
    with open(path, "w", newline="\n") as f:
        # One feature a line: readable diffs, still small.
        f.write('{"type": "FeatureCollection", "features": [\n')
        f.write(",\n".join(json.dumps(feat, separators=(", ", ": ")) for feat in doc["features"]))
        f.write("\n]}\n")


def latlng_text(value, is_lat):
    """Leaflet's CRS.Simple pointToLatLng at ZOOM: lat = -(y / s), lng = x / s with s = 2^ZOOM.

    Exact here (s = 4 and every pixel value has few binary digits); a value that is not a number is
    passed through unchanged so that the invalid row stays invalid."""
    try:
        v = float(value)
    except ValueError:
        return value
    s = 2 ** ZOOM
    r = -(v / s) if is_lat else v / s
    assert r * s == (-v if is_lat else v), "conversion must be exact"
    return str(int(r)) if r == int(r) else repr(r)


def write_markers(path_xy, path_latlng):
    with open(path_xy, "w", newline="\n") as f:
        f.write("id,x,y\n")
        for mid, x, y, _, _ in MARKERS:
            f.write(f"{mid},{x},{y}\n")
    with open(path_latlng, "w", newline="\n") as f:
        f.write("id,lat,lng\n")
        for mid, x, y, _, _ in MARKERS:
            f.write(f"{mid},{latlng_text(y, True)},{latlng_text(x, False)}\n")


def js_number(text):
    """A pixel value as JSON.stringify prints it: integers without a fraction."""
    v = float(text)
    return str(int(v)) if v == int(v) else repr(v)


def write_expected(path):
    """expected-validate.jsonl: the hand-worked outcomes above, in planmark's jsonl report format."""
    kinds = {rid: "room" for rid, *_ in ROOMS}
    kinds[ALLOWED[0]] = "allowed"
    with open(path, "w", newline="\n") as f:
        for mid, x, y, reason, hits in MARKERS:
            try:
                xy = {"x": js_number(x), "y": js_number(y)}
            except ValueError:
                xy = {"x": "null", "y": "null"}
            regions = ",".join(
                '{"id":%s,"kind":"%s","location":"%s"}' % (json.dumps(rid), kinds[rid], "inside" if loc == "i" else "boundary")
                for rid, loc in hits)
            f.write('{"id":%s,"x":%s,"y":%s,"valid":%s,"reason":%s,"regions":[%s]}\n' % (
                json.dumps(mid), xy["x"], xy["y"], "true" if reason is None else "false",
                "null" if reason is None else json.dumps(reason), regions))


OUTPUTS = {
    "plan.png": lambda path: draw_plan().save(path, optimize=True),
    "plan.pdf": write_pdf,
    "regions.geojson": write_regions,
    "markers.csv": lambda path: write_markers(path, os.path.join(HERE, "markers-latlng.csv")),
    "expected-validate.jsonl": write_expected,
}


def main(names):
    """Writes the named outputs (markers.csv brings markers-latlng.csv), all of them without names."""
    unknown = [n for n in names if n not in OUTPUTS]
    if unknown:
        sys.exit(f"make_sample.py: no output {', '.join(unknown)} (outputs: {', '.join(OUTPUTS)})")
    for name in names or OUTPUTS:
        OUTPUTS[name](os.path.join(HERE, name))


if __name__ == "__main__":
    main(sys.argv[1:])
