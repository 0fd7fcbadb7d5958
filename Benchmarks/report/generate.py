#!/usr/bin/env python3
"""Generates the punch-list report benchmark's data (markers, fields and photo shapes deterministic for a given seed;
the photos' grain is PIL's effect_noise).

Reads the A0 sheet of the render benchmark (Benchmarks/data/render/plan-a0.png, regions-a0.geojson,
markers-a0.csv: Benchmarks/render/generate.py --a0 writes them) and writes to Benchmarks/data/report/
(git-ignored) unless --out says otherwise:
  markers.csv   500 markers `id,x,y,status,priority,category,assignee,due,note`: the first 500 positions of
                markers-a0.csv that lie in the allowed area (shapely), with seeded fields: statuses 40% open,
                20% in-progress, 20% ready, 15% closed, 5% void; 6 assignees and some unassigned; due dates,
                a quarter of them past; a note of 4 to 30 words.
  photos/       200 JPEG photos, 1600 x 1200 (a site photo's size after a phone app's resize), quality 85,
                about 150-250 KB each: a gradient, shapes and grain, so they compress like photos.
  attach.csv    `number,file`: which marker each photo goes to (markers 1..175: one each to 150 of them, a
                second to 25; numbers as the import gives them, in file order).

Usage: python3 Benchmarks/report/generate.py [--render-data DIR] [--out DIR] [--seed N]
"""

import argparse
import csv
import json
import os
import random

from PIL import Image, ImageDraw, ImageFilter
from shapely.geometry import shape, Point
from shapely.ops import unary_union

MARKERS = 500
PHOTOS = 200
WORDS = ("crack tile grout paint socket cover missing loose door frame scratched window sealant gap skirting "
         "ceiling stain damp corner plaster chipped handle sticks hinge squeaks light fitting not level "
         "threshold trip hazard fire stopping incomplete label wrong colour finish").split()
ASSIGNEES = ["ann", "bob", "Carla (tiling)", "Dev Electrical", "Eve", "Frank & Sons"]
CATEGORIES = ["Tiling", "Electrical", "Paint", "Doors", "Windows", "Fire", "Plumbing"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser()
    parser.add_argument("--render-data", default=os.path.join(root, "Benchmarks/data/render"))
    parser.add_argument("--out", default=os.path.join(root, "Benchmarks/data/report"))
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    os.makedirs(os.path.join(args.out, "photos"), exist_ok=True)

    with open(os.path.join(args.render_data, "regions-a0.geojson")) as f:
        features = json.load(f)["features"]
    allowed = unary_union([shape(f["geometry"]) for f in features if f["properties"].get("kind") == "allowed"])
    chosen = []
    with open(os.path.join(args.render_data, "markers-a0.csv")) as f:
        for row in csv.DictReader(f):
            try:
                x, y = float(row["x"]), float(row["y"])
            except ValueError:
                continue
            if allowed.covers(Point(x, y)):
                chosen.append((row["x"], row["y"]))
            if len(chosen) == MARKERS:
                break
    assert len(chosen) == MARKERS

    statuses = ["open"] * 40 + ["in-progress"] * 20 + ["ready"] * 20 + ["closed"] * 15 + ["void"] * 5
    with open(os.path.join(args.out, "markers.csv"), "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["id", "x", "y", "status", "priority", "category", "assignee", "due", "note"])
        for i, (x, y) in enumerate(chosen, 1):
            assignee = rnd.choice(ASSIGNEES + [""])
            due = "" if rnd.random() < 0.3 else f"2026-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}"
            note = " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(4, 30))).capitalize()
            out.writerow([f"R{i}", x, y, rnd.choice(statuses), rnd.choice(["low", "normal", "normal", "high", "critical"]),
                          rnd.choice(CATEGORIES), assignee, due, note])

    targets = rnd.sample(range(1, 176), 150)
    targets += rnd.sample(targets, PHOTOS - len(targets))
    with open(os.path.join(args.out, "attach.csv"), "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["number", "file"])
        for k, number in enumerate(targets, 1):
            name = f"photos/photo-{k:03d}.jpg"
            path = os.path.join(args.out, name)
            if not os.path.exists(path):
                photo(rnd, path)
            else:
                photo(random.Random(rnd.random()), None)  # keep the generator's sequence the same
            out.writerow([number, name])


def photo(rnd, path):
    w, h = 1600, 1200
    base = tuple(rnd.randint(60, 200) for _ in range(3))
    shapes = [(rnd.randint(0, w), rnd.randint(0, h), rnd.randint(40, 500), tuple(rnd.randint(0, 255) for _ in range(3)))
              for _ in range(40)]
    rnd.randint(0, 2**31)  # kept so that the sequence of the data already generated stays the same
    if path is None:
        return
    image = Image.new("RGB", (w, h), base)
    draw = ImageDraw.Draw(image)
    for x, y, r, colour in shapes:
        draw.ellipse([x - r, y - r, x + r, y + r // 2], fill=colour)
    image = image.filter(ImageFilter.GaussianBlur(6))
    noise = Image.effect_noise((w, h), 24).convert("RGB")
    image = Image.blend(image, noise, 0.18)
    image.save(path, quality=85)


if __name__ == "__main__":
    main()
