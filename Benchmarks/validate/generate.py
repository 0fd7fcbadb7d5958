#!/usr/bin/env python3
"""Generates the `planmark validate` benchmark data (deterministic for a given seed).

Writes to Benchmarks/data/ (git-ignored) unless --out says otherwise:
  regions.geojson  a 20000x15000 px plan: a 19000x14000 building at (500, 500) tiled by 50 x 40 = 2000 rooms
                   on an irregular grid (columns 300..460 px, rows 280..420 px):
                   - plain rectangles,
                   - L-shapes: pairs of neighbours whose shared wall has a step (both rooms become L-shaped),
                   - rooms with one or two square column holes,
                   - 40 rooms with a 1000-vertex curved wall: pairs of neighbours sharing a circular arc
                     (convex for one room, concave for the other), vertices rounded to 1/1000 px,
                   - 12 stair cores (plain rooms that are holes of the allowed area);
                   every T-junction on a room's ring is a vertex of that ring, so neighbouring rooms share
                   walls vertex for vertex (same coordinates), and rooms never overlap.
                   Then one allowed area (kind "allowed"): the building outline minus the stair cores.
  markers.csv      id,x,y with 1,000,000 markers: uniform over the drawing (integer, half-integer, 2-decimal
                   and full-precision fractional pixels), 1% exactly on walls (edges of room rings, integer
                   or half-integer) or vertices (including curved-wall vertices and column corners), a few
                   exactly on the drawing's edges, and 0.2% outside the drawing.

Usage: python3 Benchmarks/validate/generate.py [--out DIR] [--seed N] [--markers N] [--rooms mixed|simple] [--check]
--rooms simple makes every room a plain rectangle (no L-shapes, curved walls or columns; the stair cores
stay holes of the allowed area). --check verifies the regions with shapely (validity, no overlaps, rooms
tile the building).
"""

import argparse
import json
import os
import random
import sys
import time

import numpy as np

WIDTH, HEIGHT = 20000, 15000
ORIGIN = 500                      # the building's top-left corner
COLS, ROWS = 50, 40               # 2000 rooms
BUILDING_W, BUILDING_H = 19000, 14000
ARC_PAIRS = 20                    # 40 rooms with a 1000-vertex curved wall
ARC_VERTICES = 1000
L_PAIRS = 250                     # 500 L-shaped rooms
COLUMN_ROOMS = 300                # rooms with column holes
STAIR_CORES = 12


def split(total, parts, lo, hi, rnd):
    """`parts` integers in [lo, hi] summing to `total`, by random transfers from an even split."""
    sizes = [total // parts] * parts
    sizes[-1] += total - sum(sizes)
    for _ in range(parts * 20):
        i, j = rnd.randrange(parts), rnd.randrange(parts)
        d = rnd.randint(1, 25)
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


def arc_path(xm, y0, y1, sagitta):
    """ARC_VERTICES points from (xm, y0) to (xm, y1) on a circular arc bulging by `sagitta` in x.
    The end points are exact; the others are rounded to 1/1000 px."""
    c = (y1 - y0) / 2
    s = abs(sagitta)
    r = (c * c + s * s) / (2 * s)
    sign = 1 if sagitta > 0 else -1
    cx = xm + sign * (s - r)
    cy = (y0 + y1) / 2
    alpha = np.arcsin(c / r)
    pts = [(xm, y0)]
    for k in range(1, ARC_VERTICES - 1):
        t = -alpha + 2 * alpha * k / (ARC_VERTICES - 1)
        x = cx + sign * r * np.cos(t)
        y = cy + r * np.sin(t)
        pts.append((round(float(x), 3), round(float(y), 3)))
    pts.append((xm, y1))
    return pts


def build_regions(seed):
    rnd = random.Random(seed)
    X = cumulative(ORIGIN, split(BUILDING_W, COLS, 300, 460, rnd))
    Y = cumulative(ORIGIN, split(BUILDING_H, ROWS, 280, 420, rnd))
    kind = {}     # (i, j) -> "L-left", "L-right", "arc-left", "arc-right", "column", "stair"
    right_path = {}  # (i, j) of the left cell of a pair -> path of the shared wall, top to bottom

    def free(*cells):
        return all(0 <= i < COLS and 0 <= j < ROWS and (i, j) not in kind for i, j in cells)

    def pair(tag, count, make_path):
        made = 0
        while made < count:
            i, j = rnd.randrange(COLS - 1), rnd.randrange(ROWS)
            if not free((i, j), (i + 1, j)):
                continue
            kind[(i, j)] = tag + "-left"
            kind[(i + 1, j)] = tag + "-right"
            wa, wb = X[i + 1] - X[i], X[i + 2] - X[i + 1]
            right_path[(i, j)] = make_path(X[i + 1], Y[j], Y[j + 1], min(wa, wb))
            made += 1

    def arc(xm, y0, y1, w):
        s = rnd.uniform(0.2, 0.35) * w * rnd.choice((-1, 1))
        return arc_path(xm, y0, y1, s)

    def step(xm, y0, y1, w):
        d = int(rnd.uniform(0.25, 0.4) * w) * rnd.choice((-1, 1))
        ym = y0 + int((y1 - y0) * rnd.uniform(0.3, 0.7))
        return [(xm, y0), (xm, ym), (xm + d, ym), (xm + d, y1)]

    pair("arc", ARC_PAIRS, arc)
    pair("L", L_PAIRS, step)

    stairs = []
    while len(stairs) < STAIR_CORES:
        i, j = rnd.randrange(1, COLS - 1), rnd.randrange(1, ROWS - 1)
        if not free((i, j)) or any(abs(i - a) < 3 and abs(j - b) < 3 for a, b in stairs):
            continue
        kind[(i, j)] = "stair"
        stairs.append((i, j))

    holes = {}
    while len(holes) < COLUMN_ROOMS:
        i, j = rnd.randrange(COLS), rnd.randrange(ROWS)
        if not free((i, j)):
            continue
        kind[(i, j)] = "column"
        x0, x1, y0, y1 = X[i], X[i + 1], Y[j], Y[j + 1]
        n = rnd.choice((1, 2))
        cols = []
        for k in range(n):
            a = rnd.randint(30, 50)
            lo = x0 + 40 + k * (x1 - x0) // n
            hi = x0 + (k + 1) * (x1 - x0) // n - 40 - a
            cx = rnd.randint(lo, hi)
            cy = rnd.randint(y0 + 40, y1 - 40 - a)
            # Holes run the other way round from the exterior rings.
            cols.append([(cx, cy), (cx, cy + a), (cx + a, cy + a), (cx + a, cy)])
        holes[(i, j)] = cols

    # Exterior rings, clockwise on screen (y down), starting at the top-left corner.
    rooms = []
    for j in range(ROWS):
        for i in range(COLS):
            x0, x1, y0, y1 = X[i], X[i + 1], Y[j], Y[j + 1]
            k = kind.get((i, j), "rect")
            if k.endswith("-left"):
                ring = [(x0, y0)] + right_path[(i, j)] + [(x0, y1)]
            elif k.endswith("-right"):
                path = right_path[(i - 1, j)]
                ring = [(x1, y0), (x1, y1)] + path[::-1]
            else:
                ring = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
            name = {"stair": "Stair core", "column": "Hall", "arc-left": "Lounge", "arc-right": "Lounge"}.get(k, "Office")
            rooms.append({"id": f"R{j + 1:02d}-{i + 1:02d}", "name": name, "ring": ring,
                          "holes": holes.get((i, j), []), "tag": k})

    insert_t_junctions(rooms)

    allowed_holes = []
    for i, j in stairs:
        x0, x1, y0, y1 = X[i], X[i + 1], Y[j], Y[j + 1]
        allowed_holes.append([(x0, y0), (x0, y1), (x1, y1), (x1, y0)])
    allowed = {"id": "ALLOWED", "name": "Usable floor area",
               "ring": [(ORIGIN, ORIGIN), (ORIGIN + BUILDING_W, ORIGIN),
                        (ORIGIN + BUILDING_W, ORIGIN + BUILDING_H), (ORIGIN, ORIGIN + BUILDING_H)],
               "holes": allowed_holes}
    return rooms, allowed


def insert_t_junctions(rooms):
    """Adds to every axis-parallel edge of every exterior ring the ring vertices of other rooms that lie
    strictly inside it, so that neighbours share walls vertex for vertex."""
    by_y, by_x = {}, {}
    for room in rooms:
        for x, y in room["ring"]:
            if float(x).is_integer() and float(y).is_integer():
                by_y.setdefault(y, set()).add(x)
                by_x.setdefault(x, set()).add(y)
    by_y = {k: sorted(v) for k, v in by_y.items()}
    by_x = {k: sorted(v) for k, v in by_x.items()}
    for room in rooms:
        ring = room["ring"]
        out = []
        for a, b in zip(ring, ring[1:] + ring[:1]):
            out.append(a)
            (ax, ay), (bx, by) = a, b
            if ay == by and ax != bx:
                between = [x for x in by_y.get(ay, ()) if min(ax, bx) < x < max(ax, bx)]
                between.sort(reverse=bx < ax)
                out.extend((x, ay) for x in between)
            elif ax == bx and ay != by:
                between = [y for y in by_x.get(ax, ()) if min(ay, by) < y < max(ay, by)]
                between.sort(reverse=by < ay)
                out.extend((ax, y) for y in between)
        room["ring"] = out


def num(v):
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def ring_json(ring):
    pts = list(ring) + [ring[0]]
    return "[" + ",".join(f"[{num(x)},{num(y)}]" for x, y in pts) + "]"


def write_regions(path, rooms, allowed):
    with open(path, "w", newline="\n") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        parts = []
        for r, k in [(r, "room") for r in rooms] + [(allowed, "allowed")]:
            rings = ",".join(ring_json(x) for x in [r["ring"]] + r["holes"])
            parts.append('{"type":"Feature","id":%s,"properties":{"kind":"%s","name":%s},'
                         '"geometry":{"type":"Polygon","coordinates":[%s]}}'
                         % (json.dumps(r["id"]), k, json.dumps(r["name"]), rings))
        f.write(",\n".join(parts))
        f.write("\n]}\n")


def format_coords(values, style):
    """Text of each value by style: 0 integer, 1 half-integer, 2 two decimals, 3 full precision."""
    out = []
    for v, s in zip(values.tolist(), style.tolist()):
        if s == 0:
            out.append(str(int(round(v))))
        elif s == 1:
            out.append(num(round(v * 2) / 2))
        elif s == 2:
            out.append(f"{v:.2f}")
        else:
            out.append(repr(v))
    return out


def write_markers(path, rooms, n, seed):
    rng = np.random.default_rng(seed)
    n_wall = n // 100
    n_outside = n // 500
    n_edge = 50
    n_uniform = n - n_wall - n_outside - n_edge

    xs = rng.uniform(0, WIDTH, n_uniform)
    ys = rng.uniform(0, HEIGHT, n_uniform)
    style = rng.choice(4, n_uniform, p=[0.35, 0.30, 0.15, 0.20])
    xt = format_coords(xs, style)
    yt = format_coords(ys, style)

    # On walls: 30% on a ring vertex (any ring, curved walls and column corners included), 70% on an
    # axis-parallel edge at an integer or half-integer position along it.
    rnd = random.Random(seed + 1)
    for _ in range(n_wall):
        room = rooms[rnd.randrange(len(rooms))]
        rings = [room["ring"]] + room["holes"]
        ring = rings[rnd.randrange(len(rings))]
        if rnd.random() < 0.3:
            x, y = ring[rnd.randrange(len(ring))]
        else:
            while True:
                k = rnd.randrange(len(ring))
                (ax, ay), (bx, by) = ring[k], ring[(k + 1) % len(ring)]
                if ax == bx or ay == by:
                    break
            t = rnd.randint(0, 2 * int(abs(bx - ax) + abs(by - ay))) / 2
            if rnd.random() < 0.5:
                t = float(int(t))
            if ay == by:
                x, y = min(ax, bx) + t, ay
            else:
                x, y = ax, min(ay, by) + t
        xt.append(num(x))
        yt.append(num(y))

    # Exactly on the drawing's edges (on the drawing, outside the building).
    for k in range(n_edge):
        e = k % 4
        t = rnd.randint(0, 2 * (WIDTH if e < 2 else HEIGHT)) / 2
        x, y = [(t, 0), (t, HEIGHT), (0, t), (WIDTH, t)][e]
        xt.append(num(x))
        yt.append(num(y))

    # Off the drawing: beyond one of the four edges.
    for k in range(n_outside):
        e = k % 4
        x, y = rnd.uniform(0, WIDTH), rnd.uniform(0, HEIGHT)
        if e == 0:
            x = -rnd.uniform(0.5, 500)
        elif e == 1:
            x = WIDTH + rnd.uniform(0.001, 500)
        elif e == 2:
            y = -rnd.uniform(0.5, 500)
        else:
            y = HEIGHT + rnd.uniform(0.001, 500)
        xt.append(f"{x:.3f}")
        yt.append(f"{y:.3f}")

    order = rng.permutation(n)
    with open(path, "w", newline="\n") as f:
        f.write("id,x,y\n")
        f.write("".join(f"{i + 1},{xt[k]},{yt[k]}\n" for i, k in enumerate(order.tolist())))


def check(rooms, allowed):
    import shapely
    from shapely.geometry import Polygon

    polys = [Polygon(r["ring"], r["holes"]) for r in rooms]
    assert all(p.is_valid for p in polys), "invalid room"
    a = Polygon(allowed["ring"], allowed["holes"])
    assert a.is_valid, "invalid allowed area"
    tree = shapely.STRtree(polys)
    left, right = tree.query(polys, predicate="intersects")
    sel = left < right
    overlap = shapely.area(shapely.intersection(np.array(polys)[left[sel]], np.array(polys)[right[sel]]))
    assert float(overlap.max(initial=0)) == 0.0, "rooms overlap"
    columns = sum(Polygon(h).area for r in rooms for h in r["holes"])
    total = sum(p.area for p in polys) + columns
    assert abs(total - BUILDING_W * BUILDING_H) < 1e-3, total
    curved = sum(1 for r in rooms if len(r["ring"]) >= ARC_VERTICES)
    print(f"check: {len(polys)} valid rooms, no overlaps, tiling area exact, {curved} curved rooms, "
          f"{sum(1 for r in rooms if r['holes'])} with columns, "
          f"{sum(1 for r in rooms if r['tag'].startswith('L'))} L-shaped", file=sys.stderr)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(here, "..", "data"))
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--markers", type=int, default=1_000_000)
    ap.add_argument("--rooms", choices=("mixed", "simple"), default="mixed")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if args.rooms == "simple":
        global ARC_PAIRS, L_PAIRS, COLUMN_ROOMS
        ARC_PAIRS = L_PAIRS = COLUMN_ROOMS = 0
    os.makedirs(args.out, exist_ok=True)
    t0 = time.perf_counter()
    rooms, allowed = build_regions(args.seed)
    write_regions(os.path.join(args.out, "regions.geojson"), rooms, allowed)
    write_markers(os.path.join(args.out, "markers.csv"), rooms, args.markers, args.seed)
    print(f"generated {len(rooms)} rooms + 1 allowed area, {args.markers} markers in "
          f"{time.perf_counter() - t0:.1f} s -> {os.path.normpath(args.out)}", file=sys.stderr)
    if args.check:
        check(rooms, allowed)


if __name__ == "__main__":
    main()
