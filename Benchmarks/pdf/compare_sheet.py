#!/usr/bin/env python3
"""Compares the full-resolution level of a tile pyramid with a raster of the same page (pdftoppm -r 300 ... as a
binary PPM), over the whole sheet: the mean absolute difference per channel (the issue's bound: at most 2 levels),
the largest, the pixels that differ by more than 2 in some channel, and the mean over the ink alone (the pixels
darker than 250 in either image: the sheet is mostly white paper, which agrees everywhere and pulls the mean down).

The pyramid is planmark's (DIR/tiles.json, DIR/{z}/{x}/{y}.png, its maxZoom the full resolution) or libvips's google
layout (DIR/{z}/{y}/{x}.png, the highest z the full resolution). Tiles may be RGB or RGBA (planmark's edge tiles are
transparent beyond the image; vips pads with white): only the pixels of the image (the smaller of the two sizes when
they differ by the rounding of the page's size) are compared. Reads a row of tiles at a time: memory stays at one
row of tiles and the reference mapped from disk.

Usage: /usr/bin/python3 Benchmarks/pdf/compare_sheet.py planmark|google DIR REFERENCE.ppm [NAME]
"""
import json
import os
import sys

import numpy as np
from PIL import Image


def read_ppm(path):
    """A binary PPM (P6, maxval 255) mapped from disk as a height x width x 3 array."""
    with open(path, "rb") as f:
        fields = []
        while len(fields) < 4:
            line = f.readline()
            if line.startswith(b"#"):
                continue
            fields += line.split()
        offset = f.tell()
    assert fields[0] == b"P6" and fields[3] == b"255", f"{path}: not a binary 8-bit PPM"
    width, height = int(fields[1]), int(fields[2])
    return np.memmap(path, dtype=np.uint8, mode="r", offset=offset, shape=(height, width, 3))


def pyramid(layout, folder):
    """(the full-resolution level's z, tile path for (x, y), the image's width and height or None)."""
    if layout == "planmark":
        meta = json.load(open(os.path.join(folder, "tiles.json")))
        z = meta["maxZoom"]
        return z, (lambda x, y: os.path.join(folder, str(z), str(x), f"{y}.png")), (meta["width"], meta["height"])
    z = max(int(name) for name in os.listdir(folder) if name.isdigit())
    return z, (lambda x, y: os.path.join(folder, str(z), str(y), f"{x}.png")), None


def main():
    layout, folder, reference = sys.argv[1], sys.argv[2], sys.argv[3]
    name = sys.argv[4] if len(sys.argv) > 4 else folder
    ref = read_ppm(reference)
    z, path, size = pyramid(layout, folder)
    if size is None:  # vips: its level's grid of tiles, clipped to the reference (vips pads with white, as paper is)
        columns = len(os.listdir(os.path.join(folder, str(z), "0")))
        rows = len(os.listdir(os.path.join(folder, str(z))))
        size = (columns * 256, rows * 256)
    width, height = min(size[0], ref.shape[1]), min(size[1], ref.shape[0])
    total = np.zeros(3, dtype=np.int64)
    ink_total = np.zeros(3, dtype=np.int64)
    ink_pixels = over = worst = 0
    for ty in range((height + 255) // 256):
        y0, y1 = ty * 256, min(height, ty * 256 + 256)
        band = np.empty((y1 - y0, width, 3), dtype=np.uint8)
        for tx in range((width + 255) // 256):
            x0, x1 = tx * 256, min(width, tx * 256 + 256)
            tile = np.asarray(Image.open(path(tx, ty)).convert("RGB"))
            band[:, x0:x1] = tile[: y1 - y0, : x1 - x0]
        ours = band.astype(np.int16)
        theirs = np.asarray(ref[y0:y1, :width], dtype=np.int16)
        d = np.abs(ours - theirs)
        total += d.reshape(-1, 3).sum(axis=0)
        worst = max(worst, int(d.max()))
        over += int((d.max(axis=2) > 2).sum())
        ink = (ours.min(axis=2) < 250) | (theirs.min(axis=2) < 250)
        ink_pixels += int(ink.sum())
        ink_total += d[ink].sum(axis=0)
    pixels = width * height
    mean = total / pixels
    ink_mean = ink_total / max(1, ink_pixels)
    print(f"{name}: level {z}, {width}x{height} px against {os.path.basename(reference)} "
          f"({ref.shape[1]}x{ref.shape[0]}): mean absolute difference R {mean[0]:.3f} G {mean[1]:.3f} B {mean[2]:.3f} "
          f"(bound 2); largest {worst}; {over} pixels ({100 * over / pixels:.2f}%) differ by more than 2; "
          f"on the {ink_pixels} ink pixels ({100 * ink_pixels / pixels:.1f}%): R {ink_mean[0]:.2f} G {ink_mean[1]:.2f} "
          f"B {ink_mean[2]:.2f}")


if __name__ == "__main__":
    main()
