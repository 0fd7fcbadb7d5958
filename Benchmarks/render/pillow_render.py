#!/usr/bin/env python3
"""The `planmark render --legend --title T` review job done with Pillow, as a user would script it.

    python3 pillow_render.py --image PLAN.png --regions R.geojson --markers M.csv [--title T]
                             [--compress-level N] -o OUT.png

Same inputs, same picture as planmark (same colours and sizes, chosen from the sheet's shorter side as
planmark's ReviewStyle does), done the fastest plain-Pillow way:
  - decode: Image.open + load, convert to RGBA;
  - validate: markers against the drawing's size and the allowed areas (boundary counts as inside, as in
    `planmark validate`), with shapely 2.x: each allowed area `prepare`d, one vectorised
    `shapely.intersects_xy` call per area; reported separately (it is cheap) and counted in read+decode,
    where planmark counts its own validation;
  - draw: translucent room fills on a transparent overlay (ImageDraw.polygon) composited once with
    Image.alpha_composite; outlines with ImageDraw.line (Pillow's fastest stroke; integer width, no
    anti-aliasing), allowed-area outlines likewise; markers as ellipses (halo edge, white halo, body in
    the state's colour; the disc grows to fit long labels) with the number centred (anchor "mm") in
    DejaVu Sans Bold; resolved, then valid, then invalid on top; a legend panel with counts and the title;
  - encode+write: convert to RGB (planmark writes RGB when every pixel is opaque) and save as PNG with
    Pillow's defaults (zlib level 6, adaptive filters), or --compress-level N.

Prints on stderr, like `planmark render --timings` (which times its `run()`, so interpreter start-up and
imports are left out here too; run.sh reports each process's wall time as well):
    read+decode X s, draw Y s, encode+write Z s, total T s (validate V s)
"""

import argparse
import csv
import json
import math
import sys
import time

import numpy as np
import shapely
from PIL import Image, ImageDraw, ImageFont
from shapely.geometry import shape

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

# planmark's ReviewStyle.standard.
ROOM_FILL = (0x3B, 0x82, 0xF6, round(0.18 * 255))
ROOM_OUTLINE = (0x1D, 0x4E, 0xD8, 255)
ALLOWED_OUTLINE = (0x93, 0x33, 0xEA, 255)
VALID = (0x15, 0x80, 0x3D, 255)
INVALID = {"outside-allowed-area": (0xDC, 0x26, 0x26, 255), "outside-rooms": (0xEA, 0x58, 0x0C, 255),
           "outside-drawing": (0x9F, 0x12, 0x39, 255), "invalid-coordinate": (0x9F, 0x12, 0x39, 255)}
INVALID_FALLBACK = (0xDC, 0x26, 0x26, 255)
RESOLVED = (0x6B, 0x72, 0x80, 255)
LABEL = (255, 255, 255, 255)
HALO = (255, 255, 255, 255)
HALO_EDGE = (140, 140, 140, 255)   # planmark: black at 45% opacity; ImageDraw on RGBA replaces, so an opaque grey
TEXT = (0x11, 0x18, 0x27, 255)
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


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image", required=True)
    p.add_argument("--regions", required=True)
    p.add_argument("--markers", required=True)
    p.add_argument("--title")
    p.add_argument("--compress-level", type=int, help="zlib level 0-9 (default: Pillow's, which is 6)")
    p.add_argument("-o", "--output", required=True)
    args = p.parse_args()
    t_start = time.perf_counter()

    # Read and decode.
    rooms, allowed = read_regions(args.regions)
    ids, xs, ys = read_markers(args.markers)
    img = Image.open(args.image)
    img.load()
    dpi = img.info.get("dpi")
    img = img.convert("RGBA")
    W, H = img.size
    t_v = time.perf_counter()
    reasons = validate(xs, ys, W, H, allowed)
    validate_s = time.perf_counter() - t_v
    t_decoded = time.perf_counter()

    # Sizes as planmark's ReviewStyle chooses them.
    short = min(W, H)
    radius = max(12.0, short / 250)
    outline = max(1, round(max(1.5, short / 2000)))
    halo = max(1.5, radius * 0.15)
    label_font = ImageFont.truetype(FONT, max(8, round(radius * 1.1)))

    # Room fills: one overlay, one composite.
    overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    for polys in rooms:
        for poly in polys:
            od.polygon([tuple(v) for v in poly[0]], fill=ROOM_FILL)
            for hole in poly[1:]:
                od.polygon([tuple(v) for v in hole], fill=(0, 0, 0, 0))
    img = Image.alpha_composite(img, overlay)
    del overlay, od
    d = ImageDraw.Draw(img)

    # Outlines.
    for group, ink in ((rooms, ROOM_OUTLINE), (allowed, ALLOWED_OUTLINE)):
        for polys in group:
            for poly in polys:
                for ring in poly:
                    d.line([tuple(v) for v in ring], fill=ink, width=outline)

    # Markers: resolved (none from a file), valid, then invalid on top.
    order = [k for k in range(len(ids)) if reasons[k] is None] + [k for k in range(len(ids)) if reasons[k] is not None]
    for k in order:
        x, y, text = xs[k], ys[k], ids[k]
        if not (math.isfinite(x) and math.isfinite(y)):
            continue
        left, top, right, bottom = label_font.getbbox(text, anchor="mm")
        needed = math.hypot((right - left) / 2 + radius * 0.22, (bottom - top) / 2)
        r = max(radius, needed)
        for rr, ink in ((r + halo + 1, HALO_EDGE), (r + halo, HALO), (r, colour(reasons[k]))):
            d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=ink)
        d.text((x, y), text, font=label_font, fill=LABEL, anchor="mm")

    # Legend panel with the title.
    entry_font = ImageFont.truetype(FONT, max(11, round(radius * 0.95)))
    title_font = ImageFont.truetype(FONT, max(14, round(radius * 1.3)))
    counts = {}
    for reason in reasons:
        counts[reason] = counts.get(reason, 0) + 1
    entries = []
    if rooms:
        entries.append(("area", f"Room ({len(rooms)})"))
    if allowed:
        entries.append((None, f"Allowed area ({len(allowed)})"))
    entries.append((VALID, f"Valid ({counts.get(None, 0)})"))
    invalid = [r for r in REASONS if counts.get(r)]
    if not invalid:
        entries.append((INVALID_FALLBACK, "Invalid (0)"))
    for r in invalid:
        entries.append((colour(r), f"Invalid: {r} ({counts[r]})"))
    entries.append((RESOLVED, "Resolved (0)"))
    entry_h = round(entry_font.size * 1.5)
    title_h = round(title_font.size * 1.5) if args.title else 0
    pad = round(entry_font.size * 0.8)
    width = max([title_font.getlength(args.title) if args.title else 0] +
                [entry_h + entry_font.getlength(t) for _, t in entries])
    x0 = y0 = round(radius)
    x1, y1 = x0 + width + 2 * pad, y0 + title_h + len(entries) * entry_h + 2 * pad
    d.rounded_rectangle([x0, y0, x1, y1], radius=pad / 2, fill=(255, 255, 255, 255), outline=(0x37, 0x41, 0x51, 255))
    ty = y0 + pad
    if args.title:
        d.text((x0 + pad, ty + title_h / 2), args.title, font=title_font, fill=TEXT, anchor="lm")
        ty += title_h
    half = entry_font.size * 0.42
    for swatch, text in entries:
        cy = ty + entry_h / 2
        cx = x0 + pad + entry_h * 0.4
        if swatch == "area":
            d.rectangle([cx - half, cy - half, cx + half, cy + half], fill=(0xC4, 0xD9, 0xFC, 255), outline=ROOM_OUTLINE, width=outline)
        elif swatch is None:
            d.rectangle([cx - half, cy - half, cx + half, cy + half], outline=ALLOWED_OUTLINE, width=outline)
        else:
            d.ellipse([cx - half - 1.5, cy - half - 1.5, cx + half + 1.5, cy + half + 1.5], fill=HALO_EDGE)
            d.ellipse([cx - half, cy - half, cx + half, cy + half], fill=swatch)
        d.text((x0 + pad + entry_h, cy), text, font=entry_font, fill=TEXT, anchor="lm")
        ty += entry_h
    t_drawn = time.perf_counter()

    # Encode and write.
    out = img.convert("RGB")
    options = {}
    if dpi:
        options["dpi"] = dpi
    if args.compress_level is not None:
        options["compress_level"] = args.compress_level
    out.save(args.output, format="PNG", **options)
    t_end = time.perf_counter()

    print(f"read+decode {t_decoded - t_start:.3f} s, draw {t_drawn - t_decoded:.3f} s, "
          f"encode+write {t_end - t_drawn:.3f} s, total {t_end - t_start:.3f} s (validate {validate_s:.3f} s)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
