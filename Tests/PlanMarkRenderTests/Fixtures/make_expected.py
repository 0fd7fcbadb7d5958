#!/usr/bin/env python3
"""Writes Pillow's decoding of PngSuite (and libpng's extra test PNGs) as RGBA 8-bit PNGs.

Run once from the repository root with ../shared/fixtures beside it (pip install pillow):
    python3 Tests/PlanMarkRenderTests/Fixtures/make_expected.py
Output: Tests/PlanMarkRenderTests/Fixtures/pngsuite-expected/<group>/<name>.png plus manifest.txt,
one line per image: "<group>/<name> <width> <height> <gamma|nogamma> <how>".

Pillow applies no gamma correction, like the decoder under test (values as stored, treated as sRGB),
so every image gets an expectation; "gamma" marks files with gAMA/cHRM/sRGB/iCCP chunks.
Known Pillow limits worked around here, from the documented PNG rules (spec section 13.12 / 9.2):
  * 16-bit greyscale opens as mode I;16 and convert("RGBA") clips at 255; samples are instead scaled
    to 8 bits as round(v * 255 / 65535), and a tRNS grey value matched at 16 bits.
  * 16-bit RGB with tRNS: Pillow keeps the 16-bit tRNS colour but reads samples as their high bytes,
    so convert("RGBA") never matches it; a pixel is made transparent here when its high bytes equal
    the colour's high bytes. This is exact only when no other colour shares those high bytes, so it is
    used only for colours whose low bytes equal their high bytes (all such files here); a false match
    would show as a 255-level alpha difference in the test, never be hidden by its 1-level tolerance.
  * 2- and 4-bit greyscale with tRNS opens as mode L with the samples scaled to 8 bits but the tRNS
    value left at the stored bit depth, so it never matches; the value is scaled the same way
    (v * 255 / (2^depth - 1)) and pixels equal to it get alpha 0.
Pillow truncates other 16-bit samples to their high byte; the test allows 1 level of difference.
"""
import os
import struct
import sys
import zlib

from PIL import Image

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..",
                                     "shared", "fixtures", "pngsuite"))
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pngsuite-expected")
GROUPS = {
    "pngsuite": ROOT,
    "libpng-pngsuite": os.path.join(ROOT, "libpng-pngsuite"),
    "libpng-pngsuite-interlaced": os.path.join(ROOT, "libpng-pngsuite", "interlaced"),
    "libpng-testpngs": os.path.join(ROOT, "libpng-testpngs"),
    "libpng-testpngs-badpal": os.path.join(ROOT, "libpng-testpngs", "badpal"),
    "libpng-testpngs-png-3": os.path.join(ROOT, "libpng-testpngs", "png-3"),
}
GAMMA_CHUNKS = {b"gAMA", b"cHRM", b"sRGB", b"iCCP", b"cICP"}


def chunks(path):
    with open(path, "rb") as f:
        data = f.read()
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length


def ihdr(path):
    for kind, body in chunks(path):
        if kind == b"IHDR":
            return struct.unpack(">IIBBBBB", body)
    raise ValueError("no IHDR")


def pillow_rgba(path):
    width, height, depth, colour, _, _, _ = ihdr(path)
    im = Image.open(path)
    im.load()
    if colour == 0 and depth == 16:
        trns = im.info.get("transparency")
        assert im.mode == "I;16", im.mode  # native-order 16-bit samples, little-endian here
        samples = struct.unpack("<%dH" % (width * height), im.tobytes())
        out = bytearray()
        for v in samples:
            g = (v * 255 + 32767) // 65535
            out += bytes((g, g, g, 0 if v == trns else 255))
        return Image.frombytes("RGBA", im.size, bytes(out)), "grey16-scaled"
    if colour == 0 and depth in (2, 4) and im.mode == "L" and "transparency" in im.info:
        key = im.info["transparency"] * 255 // ((1 << depth) - 1)
        grey = im.tobytes()
        out = bytearray()
        for g in grey:
            out += bytes((g, g, g, 0 if g == key else 255))
        return Image.frombytes("RGBA", im.size, bytes(out)), "grey-lowbit-trns-scaled"
    if colour == 2 and depth == 16 and "transparency" in im.info:
        tr, tg, tb = im.info["transparency"]
        if any((c >> 8) != (c & 0xFF) for c in (tr, tg, tb)):
            return None, "skipped: 16-bit tRNS colour not representable after truncation"
        rgb = im.convert("RGB")
        out = bytearray()
        data = rgb.tobytes()
        for i in range(0, len(data), 3):
            r, g, b = data[i], data[i + 1], data[i + 2]
            transparent = (r, g, b) == (tr >> 8, tg >> 8, tb >> 8)
            out += bytes((r, g, b, 0 if transparent else 255))
        return Image.frombytes("RGBA", im.size, bytes(out)), "rgb16-trns"
    return im.convert("RGBA"), "convert"


def main():
    lines = []
    for group, folder in GROUPS.items():
        os.makedirs(os.path.join(OUT, group), exist_ok=True)
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if not name.endswith(".png") or not os.path.isfile(path):
                continue
            if group == "pngsuite" and name.startswith("x"):
                continue  # must fail; no expectation
            try:
                image, how = pillow_rgba(path)
            except Exception as error:  # Pillow refuses it: no expectation, the test only decodes it
                print(f"{group}/{name}: Pillow cannot decode: {error}", file=sys.stderr)
                continue
            if image is None:
                print(f"{group}/{name}: {how}", file=sys.stderr)
                continue
            has_gamma = any(kind in GAMMA_CHUNKS for kind, _ in chunks(path))
            stem = name[:-4]
            image.save(os.path.join(OUT, group, stem + ".png"), optimize=True)
            lines.append(f"{group}/{stem} {image.width} {image.height} {'gamma' if has_gamma else 'nogamma'} {how}")
    with open(os.path.join(OUT, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} expectations written to {OUT}")


if __name__ == "__main__":
    main()
