#!/usr/bin/env python3
"""Writes geos-cases.txt: floor-plan polygons and points labelled inside/boundary/outside by GEOS
(through shapely 2.x), the independent oracle for PlanMark's point location.

Run: pip install shapely && python3 make_geos_cases.py > geos-cases.txt
Format, one item a line:
  polygon NAME
  ring x y x y ...      (outer ring, then)  hole x y x y ...
  case x y LABEL        (LABEL: inside | boundary | outside)
Numbers use Python's repr, which round-trips doubles exactly.
"""
import math
import random

import shapely
from shapely.geometry import Point, Polygon

random.seed(20261122)


def label(poly, x, y):
    p = Point(x, y)
    if poly.contains(p):
        return "inside"
    if poly.intersects(p):
        return "boundary"
    return "outside"


def ulp_neighbours(v):
    return [math.nextafter(v, -math.inf), v, math.nextafter(v, math.inf)]


def shapes():
    yield "rect", [[(100, 100), (900, 100), (900, 600), (100, 600)]]
    yield "L", [[(0, 0), (600, 0), (600, 300), (300, 300), (300, 700), (0, 700)]]
    yield "column-room", [[(1000, 1000), (1800, 1000), (1800, 1600), (1000, 1600)],
                          [(1300, 1200), (1350, 1200), (1350, 1250), (1300, 1250)],
                          [(1500.5, 1300.5), (1560.5, 1300.5), (1560.5, 1360.5), (1500.5, 1360.5)]]
    yield "diagonal", [[(0, 0), (20000, 15000), (0, 15000)]]
    yield "slanted", [[(10.25, 3.5), (7010.75, 1203.125), (6800.5, 4961), (3, 4000.75)]]
    arc = [(5000 + 1200 * math.cos(math.pi * k / 999), 5000 - 1200 * math.sin(math.pi * k / 999)) for k in range(1000)]
    yield "curved", [arc + [(3800, 6000), (6200, 6000)]]
    # A room with a diagonal notch and collinear vertices on a wall.
    yield "notched", [[(0, 0), (400, 0), (800, 0), (800, 800), (400, 400), (0, 800)]]


def main():
    for name, rings in shapes():
        poly = Polygon(rings[0], rings[1:])
        assert poly.is_valid, name
        print("polygon", name)
        print("ring", " ".join(repr(float(c)) for v in rings[0] for c in v))
        for hole in rings[1:]:
            print("hole", " ".join(repr(float(c)) for v in hole for c in v))
        cases = []
        minx, miny, maxx, maxy = poly.bounds
        verts = [v for ring in rings for v in ring]
        for (x, y) in verts:
            for nx in ulp_neighbours(float(x)):
                for ny in ulp_neighbours(float(y)):
                    cases.append((nx, ny))
        for ring in rings:
            for k in range(len(ring)):
                (x1, y1), (x2, y2) = ring[k], ring[(k + 1) % len(ring)]
                for t in (0.5, 0.25, 1 / 3):
                    x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
                    for nx in ulp_neighbours(x):
                        cases.append((nx, y))
                    for ny in ulp_neighbours(y):
                        cases.append((x, ny))
                # Rays through vertices: same y as a vertex, left and right of it.
                cases.append((x1 - 1, float(y1)))
                cases.append((x1 + 1, float(y1)))
        for _ in range(600):
            x = random.uniform(minx - 10, maxx + 10)
            y = random.uniform(miny - 10, maxy + 10)
            cases.append((x, y))
            cases.append((float(round(x)), float(round(y))))
            cases.append((round(x * 2) / 2, round(y * 2) / 2))
        seen = set()
        for (x, y) in cases:
            if (x, y) in seen:
                continue
            seen.add((x, y))
            print("case", repr(float(x)), repr(float(y)), label(poly, x, y))


if __name__ == "__main__":
    main()
