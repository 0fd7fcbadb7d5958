#!/usr/bin/env python3
"""Compares planmark's tiles with libvips's (google layout) tile by tile: every planmark tile z/x/y.png
against vips's (z + levels - 1)/y/x.png, on the pixels planmark has as opaque (vips pads edge tiles with
white where planmark's are transparent). Prints the largest difference per channel and how many pixels
differ by more than 2 (the issue's bound).

Usage: python3 Benchmarks/tiles/compare.py PLANMARK_DIR VIPS_DIR
"""
import json
import os
import sys

import numpy as np
from PIL import Image

ours, theirs = sys.argv[1], sys.argv[2]
meta = json.load(open(os.path.join(ours, "tiles.json")))
offset = -meta["minZoom"]          # vips's level 0 is our minZoom
worst, over, pixels, tiles = 0, 0, 0, 0
for z in range(meta["minZoom"], meta["maxZoom"] + 1):
    for x in os.listdir(os.path.join(ours, str(z))):
        for name in os.listdir(os.path.join(ours, str(z), x)):
            y = name[:-4]
            a = np.asarray(Image.open(os.path.join(ours, str(z), x, name)).convert("RGBA"), dtype=np.int16)
            b = np.asarray(Image.open(os.path.join(theirs, str(z + offset), y, x + ".png")).convert("RGBA"), dtype=np.int16)
            opaque = a[:, :, 3] == 255
            d = np.abs(a[:, :, :3] - b[:, :, :3])[opaque]
            if d.size:
                worst = max(worst, int(d.max()))
                over += int((d.max(axis=1) > 2).sum())
            pixels += int(opaque.sum())
            tiles += 1
print(f"{tiles} tiles, {pixels} opaque pixels compared: largest difference {worst}, {over} pixels differ by more than 2")
