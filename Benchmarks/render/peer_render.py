#!/usr/bin/env python3
"""The `planmark render --legend --title T` review job done with Skia (skia-python) or cairo (pycairo).

    python3 peer_render.py --engine skia|cairo --image PLAN.png --regions R.geojson --markers M.csv
                           [--title T] [--compression N] -o OUT.png

The same picture as planmark (ReviewStyle.standard's colours; sizes from the sheet's shorter side as
planmark chooses them), anti-aliased, done as fast as each library allows:
  - decode: libvips (pyvips) reads the PNG and hands an RGBA (Skia) or BGRA premultiplied (cairo) buffer to
    the drawing library as one numpy array, the surface drawing in place in it (no further copy);
  - validate: markers against the drawing's size and the allowed areas with shapely 2.x (`prepare` and one
    vectorised `intersects_xy`), boundary counting as inside as in `planmark validate`; counted in
    read+decode, where planmark counts its own;
  - draw: translucent room fills (non-zero, holes the other way round), room and allowed-area outlines
    (stroked, miter joins, limit 4), each marker as halo edge (black at 45%), white halo, body in its
    state's colour (a disc, grown up to 1.35x or a pill for long labels, as planmark's fitting) and its
    number centred by its ink box in DejaVu Sans Bold; valid markers first, invalid on top; the legend
    panel (92% white, border, swatches, counts) with the title;
  - encode+write: libvips `pngsave` of the RGB bands with planmark's settings: zlib level 3
    (`--compression`), no row filter, sRGB-free, the drawing's pHYs kept (libvips writes it from the
    resolution), no interlace.

Prints on stderr, like `planmark render --timings` (interpreter start-up and imports are outside it;
run.sh reports each process's wall time as well):
    read+decode X s, draw Y s, encode+write Z s, total T s (validate V s)
"""

import argparse
import csv
import json
import math
import sys
import time

import numpy as np
import pyvips
import shapely
from shapely.geometry import shape

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def rgba(hex_rgb, opacity=1.0):
    return ((hex_rgb >> 16) & 255, (hex_rgb >> 8) & 255, hex_rgb & 255, round(opacity * 255))


# planmark's ReviewStyle.standard.
ROOM_FILL = rgba(0x3B82F6, 0.18)
ROOM_OUTLINE = rgba(0x1D4ED8)
ALLOWED_OUTLINE = rgba(0x9333EA)
VALID = rgba(0x15803D)
INVALID = {"outside-allowed-area": rgba(0xDC2626), "outside-rooms": rgba(0xEA580C),
           "outside-drawing": rgba(0x9F1239), "invalid-coordinate": rgba(0x9F1239)}
INVALID_FALLBACK = rgba(0xDC2626)
RESOLVED = rgba(0x6B7280)
LABEL = rgba(0xFFFFFF)
HALO = rgba(0xFFFFFF)
HALO_EDGE = rgba(0x000000, 0.45)
TEXT = rgba(0x111827)
PANEL = rgba(0xFFFFFF, 0.92)
PANEL_EDGE = rgba(0x374151, 0.8)
REASONS = ["invalid-coordinate", "outside-drawing", "outside-allowed-area", "outside-rooms"]


def read_regions(path):
    with open(path, "rb") as f:
        doc = json.load(f)
    rooms, allowed = [], []
    for feat in doc["features"]:
        kind = (feat.get("properties") or {}).get("kind", "room")
        geom = feat["geometry"]
        polys = [geom["coordinates"]] if geom["type"] == "Polygon" else geom["coordinates"]
        (allowed if kind == "allowed" else rooms).append(polys)
    return rooms, allowed


def read_markers(path):
    ids, xs, ys = [], [], []
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        ix, iy, ii = header.index("x"), header.index("y"), header.index("id")
        for row in rows:
            ids.append(row[ii])
            xs.append(float(row[ix]))
            ys.append(float(row[iy]))
    return ids, np.array(xs), np.array(ys)


def validate(xs, ys, width, height, allowed):
    """The reason each marker is invalid, or None."""
    reasons = np.full(len(xs), None, dtype=object)
    finite = np.isfinite(xs) & np.isfinite(ys)
    reasons[~finite] = "invalid-coordinate"
    on_sheet = finite & (xs >= 0) & (xs <= width) & (ys >= 0) & (ys <= height)
    reasons[finite & ~on_sheet] = "outside-drawing"
    if allowed:
        covered = np.zeros(len(xs), dtype=bool)
        for polys in allowed:
            geom = shape({"type": "MultiPolygon", "coordinates": polys})
            shapely.prepare(geom)
            covered |= shapely.intersects_xy(geom, xs, ys)
        reasons[on_sheet & ~covered] = "outside-allowed-area"
    return reasons


def colour(reason):
    return VALID if reason is None else INVALID.get(reason, INVALID_FALLBACK)


def signed_area(ring):
    a = 0.0
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
        a += x0 * y1 - x1 * y0
    return a


def fitting(ink_w, ink_h, cx, cy, radius):
    """planmark's ReviewMarkerShape.fitting: ('disc', cx, cy, r) or ('pill', x0, y0, x1, y1, r)."""
    pad = radius * 0.22
    hw, hh = ink_w / 2 + pad, ink_h / 2
    needed = math.hypot(hw, hh)
    if needed <= radius:
        return ("disc", cx, cy, radius)
    if needed <= radius * 1.35:
        return ("disc", cx, cy, needed)
    half_chord = math.sqrt(max(0.0, radius * radius - hh * hh))
    straight = max(0.0, hw - half_chord)
    return ("pill", cx - straight - radius, cy - radius, cx + straight + radius, cy + radius, radius)


def inflate(s, d):
    if s[0] == "disc":
        return ("disc", s[1], s[2], s[3] + d)
    return ("pill", s[1] - d, s[2] - d, s[3] + d, s[4] + d, s[5] + d)


# MARK: - Engines: the same calls, one in Skia, one in cairo.

class SkiaEngine:
    def __init__(self, pixels):
        import skia
        self.skia = skia
        self.surface = skia.Surface(pixels, colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kUnpremul_AlphaType)
        self.canvas = self.surface.getCanvas()
        self.paint = skia.Paint(AntiAlias=True)
        self.typeface = skia.Typeface.MakeFromFile(FONT)
        self.fonts = {}

    def font(self, size):
        f = self.fonts.get(size)
        if f is None:
            f = self.skia.Font(self.typeface, size)
            f.setEdging(self.skia.Font.Edging.kAntiAlias)
            self.fonts[size] = f
        return f

    def set_colour(self, c):
        self.paint.setColor(self.skia.Color(*c[:3], c[3]))

    def fill_rings(self, rings, c):
        path = self.skia.Path()
        path.setFillType(self.skia.PathFillType.kWinding)
        for ring in rings:
            path.addPoly([self.skia.Point(x, y) for x, y in ring], True)
        self.paint.setStyle(self.skia.Paint.kFill_Style)
        self.set_colour(c)
        self.canvas.drawPath(path, self.paint)

    def stroke_rings(self, rings, c, width):
        path = self.skia.Path()
        for ring in rings:
            path.addPoly([self.skia.Point(x, y) for x, y in ring], True)
        self.paint.setStyle(self.skia.Paint.kStroke_Style)
        self.paint.setStrokeWidth(width)
        self.paint.setStrokeJoin(self.skia.Paint.kMiter_Join)
        self.paint.setStrokeMiter(4)
        self.set_colour(c)
        self.canvas.drawPath(path, self.paint)

    def fill_shape(self, s, c):
        self.paint.setStyle(self.skia.Paint.kFill_Style)
        self.set_colour(c)
        if s[0] == "disc":
            self.canvas.drawCircle(s[1], s[2], s[3], self.paint)
        else:
            self.canvas.drawRoundRect(self.skia.Rect.MakeLTRB(s[1], s[2], s[3], s[4]), s[5], s[5], self.paint)

    def fill_rect(self, x0, y0, x1, y1, c, radius=0.0):
        self.fill_shape(("pill", x0, y0, x1, y1, radius), c)

    def ink(self, text, size):
        """Ink box (left, top, right, bottom) relative to the pen at the baseline, and the advance."""
        f = self.font(size)
        bounds = self.skia.Rect()
        advance = f.measureText(text, bounds=bounds)
        return bounds.left(), bounds.top(), bounds.right(), bounds.bottom(), advance

    def text(self, text, size, x, baseline, c):
        self.paint.setStyle(self.skia.Paint.kFill_Style)
        self.set_colour(c)
        self.canvas.drawString(text, x, baseline, self.font(size), self.paint)

    def finish(self):
        self.surface.flushAndSubmit() if hasattr(self.surface, "flushAndSubmit") else None


class CairoEngine:
    def __init__(self, pixels):
        import cairo
        self.cairo = cairo
        h, w = pixels.shape[:2]
        self.surface = cairo.ImageSurface.create_for_data(pixels, cairo.FORMAT_ARGB32, w, h, w * 4)
        self.cr = cairo.Context(self.surface)
        self.cr.set_antialias(cairo.ANTIALIAS_DEFAULT)
        self.face = None
        self.size = None

    def set_colour(self, c):
        self.cr.set_source_rgba(c[0] / 255, c[1] / 255, c[2] / 255, c[3] / 255)

    def _rings(self, rings):
        cr = self.cr
        cr.new_path()
        for ring in rings:
            cr.move_to(*ring[0])
            for x, y in ring[1:]:
                cr.line_to(x, y)
            cr.close_path()

    def fill_rings(self, rings, c):
        self._rings(rings)
        self.cr.set_fill_rule(self.cairo.FILL_RULE_WINDING)
        self.set_colour(c)
        self.cr.fill()

    def stroke_rings(self, rings, c, width):
        self._rings(rings)
        self.cr.set_line_width(width)
        self.cr.set_line_join(self.cairo.LINE_JOIN_MITER)
        self.cr.set_miter_limit(4)
        self.set_colour(c)
        self.cr.stroke()

    def fill_shape(self, s, c):
        cr = self.cr
        cr.new_path()
        if s[0] == "disc":
            cr.arc(s[1], s[2], s[3], 0, 2 * math.pi)
        else:
            x0, y0, x1, y1, r = s[1:]
            cr.arc(x1 - r, y0 + r, r, -math.pi / 2, 0)
            cr.arc(x1 - r, y1 - r, r, 0, math.pi / 2)
            cr.arc(x0 + r, y1 - r, r, math.pi / 2, math.pi)
            cr.arc(x0 + r, y0 + r, r, math.pi, 3 * math.pi / 2)
            cr.close_path()
        self.set_colour(c)
        self.cr.fill()

    def fill_rect(self, x0, y0, x1, y1, c, radius=0.0):
        if radius > 0:
            self.fill_shape(("pill", x0, y0, x1, y1, radius), c)
        else:
            self.cr.rectangle(x0, y0, x1 - x0, y1 - y0)
            self.set_colour(c)
            self.cr.fill()

    def _font(self, size):
        if self.face is None:
            self.cr.select_font_face("DejaVu Sans", self.cairo.FONT_SLANT_NORMAL, self.cairo.FONT_WEIGHT_BOLD)
        if size != self.size:
            self.cr.set_font_size(size)
            self.size = size

    def ink(self, text, size):
        self._font(size)
        e = self.cr.text_extents(text)
        return e.x_bearing, e.y_bearing, e.x_bearing + e.width, e.y_bearing + e.height, e.x_advance

    def text(self, text, size, x, baseline, c):
        self._font(size)
        self.set_colour(c)
        self.cr.move_to(x, baseline)
        self.cr.show_text(text)

    def finish(self):
        self.surface.flush()


# MARK: - The job

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", choices=["skia", "cairo"], required=True)
    p.add_argument("--image", required=True)
    p.add_argument("--regions", required=True)
    p.add_argument("--markers", required=True)
    p.add_argument("--title")
    p.add_argument("--compression", type=int, default=3, help="zlib level 0-9 (default 3, as planmark)")
    p.add_argument("-o", "--output", required=True)
    args = p.parse_args()
    t_start = time.perf_counter()

    # Read and decode: one RGBA (Skia) or BGRA (cairo, premultiplied; the drawing is opaque) buffer.
    rooms, allowed = read_regions(args.regions)
    ids, xs, ys = read_markers(args.markers)
    src = pyvips.Image.new_from_file(args.image, access="sequential")
    xres, yres = src.xres, src.yres
    if src.bands == 2 or src.bands == 4:
        src = src.flatten(background=255)
    if src.bands == 1:
        src = src.bandjoin([src, src])
    if args.engine == "cairo":
        src = src[2].bandjoin([src[1], src[0]])
    src = src.bandjoin(255).cast("uchar")
    W, H = src.width, src.height
    pixels = np.ndarray(buffer=src.write_to_memory(), dtype=np.uint8, shape=(H, W, 4))
    del src
    t_v = time.perf_counter()
    reasons = validate(xs, ys, W, H, allowed)
    validate_s = time.perf_counter() - t_v
    t_decoded = time.perf_counter()

    e = SkiaEngine(pixels) if args.engine == "skia" else CairoEngine(pixels)
    short = min(W, H)
    radius = max(12.0, short / 250)
    outline = max(1.5, short / 2000)
    halo = max(1.5, radius * 0.15)
    label_size = max(8, round(radius * 1.1))

    # Rooms: each one non-zero path (exteriors one way round, holes the other), then outlines.
    for polys in rooms:
        rings = []
        for poly in polys:
            outer_positive = signed_area(poly[0]) > 0
            rings.append(poly[0] if outer_positive else poly[0][::-1])
            for hole in poly[1:]:
                rings.append(hole[::-1] if (signed_area(hole) > 0) == outer_positive else hole)
        e.fill_rings(rings, ROOM_FILL)
    for group, ink in ((rooms, ROOM_OUTLINE), (allowed, ALLOWED_OUTLINE)):
        for polys in group:
            e.stroke_rings([ring for poly in polys for ring in poly], ink, outline)

    # Markers: resolved (none from a file), valid, then invalid on top.
    order = [k for k in range(len(ids)) if reasons[k] is None] + [k for k in range(len(ids)) if reasons[k] is not None]
    for k in order:
        x, y, text = xs[k], ys[k], ids[k]
        if not (math.isfinite(x) and math.isfinite(y)):
            continue
        reach = radius * 1.35 + halo + 1 + label_size * len(text)
        if x + reach <= 0 or y + reach <= 0 or x - reach >= W or y - reach >= H:
            continue
        left, top, right, bottom, _ = e.ink(text, label_size)
        s = fitting(right - left, bottom - top, x, y, radius)
        e.fill_shape(inflate(s, halo + 1), HALO_EDGE)
        e.fill_shape(inflate(s, halo), HALO)
        e.fill_shape(s, colour(reasons[k]))
        e.text(text, label_size, round(x - (left + right) / 2), round(y - (top + bottom) / 2), LABEL)

    # Legend panel with the title.
    entry_size = max(11, round(radius * 0.95))
    title_size = max(14, round(radius * 1.3))
    counts = {}
    for reason in reasons:
        counts[reason] = counts.get(reason, 0) + 1
    entries = []
    if rooms:
        entries.append(("area", f"Room ({len(rooms)})"))
    if allowed:
        entries.append(("outline", f"Allowed area ({len(allowed)})"))
    entries.append((VALID, f"Valid ({counts.get(None, 0)})"))
    invalid = [r for r in REASONS if counts.get(r)]
    if not invalid:
        entries.append((INVALID_FALLBACK, "Invalid (0)"))
    for r in invalid:
        entries.append((colour(r), f"Invalid: {r} ({counts[r]})"))
    entry_h = round(entry_size * 1.5)
    title_h = round(title_size * 1.5)
    pad = round(entry_size * 0.8)
    width = e.ink(args.title, title_size)[4] if args.title else 0
    for _, t in entries:
        width = max(width, entry_h + e.ink(t, entry_size)[4])
    x0 = y0 = float(round(radius))
    x1 = x0 + width + 2 * pad
    y1 = y0 + (title_h if args.title else 0) + len(entries) * entry_h + 2 * pad
    e.fill_rect(x0, y0, x1, y1, PANEL, radius=pad / 2)
    e.stroke_rings([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], PANEL_EDGE, 1)
    ty = int(y0) + pad
    tx = int(x0) + pad
    if args.title:
        e.text(args.title, title_size, tx, ty + round(title_h * 0.72), TEXT)
        ty += title_h
    half = entry_size * 0.42
    for swatch, t in entries:
        mid = ty + entry_h / 2
        cx = tx + entry_h * 0.4
        square = [[(cx - half, mid - half), (cx + half, mid - half), (cx + half, mid + half), (cx - half, mid + half)]]
        if swatch == "area":
            e.fill_rect(cx - half, mid - half, cx + half, mid + half, ROOM_FILL)
            e.stroke_rings(square, ROOM_OUTLINE, max(1.5, outline))
        elif swatch == "outline":
            e.stroke_rings(square, ALLOWED_OUTLINE, max(1.5, outline))
        else:
            e.fill_shape(("disc", cx, mid, half + 1.5), HALO_EDGE)
            e.fill_shape(("disc", cx, mid, half), swatch)
        left, top, right, bottom, _ = e.ink(t, entry_size)
        e.text(t, entry_size, tx + entry_h, round(mid - (top + bottom) / 2), TEXT)
        ty += entry_h
    e.finish()
    t_drawn = time.perf_counter()

    # Encode and write: the RGB bands, zlib level 3, no filter (planmark's settings).
    out = pyvips.Image.new_from_memory(pixels.data, W, H, 4, "uchar")
    out = out[2].bandjoin([out[1], out[0]]) if args.engine == "cairo" else out[0:3]
    out = out.copy(xres=xres, yres=yres, interpretation="srgb")
    out.pngsave(args.output, compression=args.compression, filter="none", interlace=False, strip=True)
    t_end = time.perf_counter()

    print(f"read+decode {t_decoded - t_start:.3f} s, draw {t_drawn - t_decoded:.3f} s, "
          f"encode+write {t_end - t_drawn:.3f} s, total {t_end - t_start:.3f} s (validate {validate_s:.3f} s)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
