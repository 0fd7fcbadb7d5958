#!/usr/bin/env python3
"""Inputs for the store benchmark (standard library only, deterministic).

Writes into the folder given (default: ./data):
  plan.png         a 20000 x 15000 px drawing (1-bit grayscale; only its header matters to the store)
  regions.geojson  one allowed area (the drawing minus a 100 px margin) and 2000 rooms (a 50 x 40 grid)
  markers.csv      1,000,000 markers (x,y): integer, half-integer and fractional pixels, 1% exactly on
                   walls, 0.5% outside the allowed area (so --skip-invalid has work to do)
  markers-valid.csv the same markers without the invalid ones
"""
import json
import os
import random
import struct
import sys
import zlib

W, H = 20000, 15000
COLUMNS, ROWS = 50, 40
MARGIN = 100
COUNT = int(os.environ.get("MARKERS", "1000000"))


def png(path):
    row = b"\x00" + b"\xff" * ((W + 7) // 8)
    compressor = zlib.compressobj(6)
    data = b"".join(compressor.compress(row) for _ in range(H)) + compressor.flush()

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 1, 0, 0, 0, 0))
                + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def regions(path):
    features = [{"type": "Feature", "id": "allowed", "properties": {"kind": "allowed"},
                 "geometry": {"type": "Polygon", "coordinates": [[[MARGIN, MARGIN], [W - MARGIN, MARGIN],
                                                                  [W - MARGIN, H - MARGIN], [MARGIN, H - MARGIN], [MARGIN, MARGIN]]]}}]
    cw, ch = (W - 2 * MARGIN) / COLUMNS, (H - 2 * MARGIN) / ROWS
    for r in range(ROWS):
        for c in range(COLUMNS):
            x0, y0 = MARGIN + c * cw, MARGIN + r * ch
            x1, y1 = x0 + cw, y0 + ch
            features.append({"type": "Feature", "id": f"R{r:02d}-{c:02d}", "properties": {"kind": "room"},
                             "geometry": {"type": "Polygon", "coordinates": [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]]}})
    with open(path, "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f)


def number(value):
    """Shortest text of a coordinate: integers without a fraction."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


def markers(path, valid_path):
    rng = random.Random(20260101)
    cw = (W - 2 * MARGIN) / COLUMNS
    with open(path, "w") as f, open(valid_path, "w") as v:
        f.write("x,y\n")
        v.write("x,y\n")
        for i in range(COUNT):
            kind = i % 200
            if kind == 0:  # outside the allowed area (in the margin)
                x, y = rng.uniform(0, MARGIN - 1), rng.uniform(0, H)
            elif kind < 3:  # exactly on a vertical wall
                x, y = MARGIN + rng.randrange(1, COLUMNS) * cw, rng.randrange(MARGIN + 1, H - MARGIN)
            elif kind % 3 == 0:
                x, y = rng.randrange(MARGIN, W - MARGIN), rng.randrange(MARGIN, H - MARGIN)
            elif kind % 3 == 1:
                x, y = rng.randrange(MARGIN, W - MARGIN) + 0.5, rng.randrange(MARGIN, H - MARGIN) + 0.5
            else:
                x, y = round(rng.uniform(MARGIN, W - MARGIN), 3), round(rng.uniform(MARGIN, H - MARGIN), 3)
            line = f"{number(x)},{number(y)}\n"
            f.write(line)
            if kind != 0:
                v.write(line)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "data"
    os.makedirs(out, exist_ok=True)
    png(os.path.join(out, "plan.png"))
    regions(os.path.join(out, "regions.geojson"))
    markers(os.path.join(out, "markers.csv"), os.path.join(out, "markers-valid.csv"))
