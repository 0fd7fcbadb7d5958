#!/usr/bin/env python3
"""The `planmark validate --report jsonl` job done with shapely 2.x and numpy, end to end.

    python3 shapely_validate.py --regions REGIONS.geojson [--size WxH] [--boundary include|exclude]
                                [--require-room] MARKERS.csv > report.jsonl

The fastest path shapely offers for many points against a few thousand polygons:
  - regions loaded with json + shapely.geometry.shape, each one `shapely.prepare`d;
  - markers read with one `np.loadtxt` call (numpy's C reader, a structured dtype for id, x, y);
    a file it cannot read (a coordinate that is not a number, quotes, ...) falls back to Python's csv module;
  - markers sorted by x once; for each region the markers in its bounding box are found with
    `np.searchsorted` on the sorted x, then a y filter, then one vectorised `shapely.intersects_xy`
    (covers: the boundary counts) and `shapely.contains_xy` on the hits (inside vs boundary);
  - the hits sorted by (marker, region) so every marker lists its regions in regions-file order;
  - the reasons, in planmark's order: invalid-coordinate, outside-drawing, outside-allowed-area,
    outside-rooms (with --require-room);
  - one JSON object a marker in input order, numbers as JavaScript prints them (40, 12.5).
"""

import argparse
import csv
import io
import json
import math
import re
import sys
import time

import numpy as np
import shapely
from shapely.geometry import shape


def js_number(v):
    """A double as planmark (and JSON.stringify) writes it: integral values up to 2^53 without a fraction."""
    if not math.isfinite(v):
        return "null"
    if v == int(v) and abs(v) < 9007199254740992:
        return str(int(v))
    return repr(v)


def js_string(text):
    """`text` as a quoted JSON string, escaped as planmark escapes it (quote, backslash, \\n \\r \\t, other
    control characters as \\u00XX; everything else as is)."""
    if not _NEEDS_ESCAPE.search(text):
        return '"' + text + '"'
    out = []
    for ch in text:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f]')


def load_regions(path):
    with open(path, "rb") as f:
        doc = json.load(f)
    ids, kinds, geoms = [], [], []
    for k, feat in enumerate(doc["features"]):
        fid = feat.get("id")
        props = feat.get("properties") or {}
        if fid is None:
            fid = props.get("id")
        if fid is None:
            raise SystemExit(f"{path}: feature {k} has no id")
        if isinstance(fid, float) and fid.is_integer():
            fid = int(fid)
        ids.append(str(fid))
        kinds.append(props.get("kind", "room"))
        geoms.append(shape(feat["geometry"]))
    geoms = np.array(geoms, dtype=object)
    shapely.prepare(geoms)
    return ids, kinds, geoms


ID_WIDTH = 24


def load_markers(path):
    """ids (list of str), x, y (float64 arrays; NaN where a coordinate does not parse)."""
    with open(path, "r", newline="") as f:
        header = [h.strip().lower() for h in f.readline().rstrip("\r\n").split(",")]
    if "x" not in header or "y" not in header:
        raise SystemExit(f"{path}:1: the header must name x,y")
    cx, cy = header.index("x"), header.index("y")
    cid = header.index("id") if "id" in header else None
    try:
        if cid is None:
            a = np.loadtxt(path, delimiter=",", skiprows=1, comments=None, usecols=(cx, cy), ndmin=2,
                           dtype=np.float64)
            x, y = a[:, 0].copy(), a[:, 1].copy()
            return [str(k) for k in range(1, len(x) + 1)], x, y
        else:
            a = np.loadtxt(path, delimiter=",", skiprows=1, comments=None, usecols=(cid, cx, cy), ndmin=1,
                           dtype=[("id", f"U{ID_WIDTH}"), ("x", "f8"), ("y", "f8")])
            ids = a["id"].tolist()
            x, y = a["x"].copy(), a["y"].copy()
            del a
            # A fixed-width id column truncates longer ids silently: take the slow path then.
            if not any(len(i) >= ID_WIDTH for i in ids):
                return ids, x, y
    except ValueError:
        pass
    return load_markers_slowly(path, cx, cy, cid)


def load_markers_slowly(path, cx, cy, cid):
    """Python's csv module: any row whose coordinates do not parse is kept with NaN (invalid-coordinate)."""
    ids, xs, ys = [], [], []
    with open(path, "r", newline="") as f:
        rows = csv.reader(f)
        next(rows)
        n = 0
        for row in rows:
            if not row or all(not c.strip() for c in row):
                continue
            n += 1
            ids.append(row[cid].strip() if cid is not None and cid < len(row) else str(n))
            vals = []
            for c in (cx, cy):
                try:
                    vals.append(float(row[c]))
                except (ValueError, IndexError):
                    vals.append(math.nan)
            xs.append(vals[0])
            ys.append(vals[1])
    return ids, np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64)


def locate(geoms, x, y, include_boundary):
    """(marker index, region index, inside?) for every region covering every marker, sorted by marker
    then region."""
    finite = np.isfinite(x) & np.isfinite(y)
    idx = np.nonzero(finite)[0]
    order = idx[np.argsort(x[idx], kind="stable")]
    sx, sy = x[order], y[order]
    markers, regions, inside = [], [], []
    bounds = shapely.bounds(geoms)
    for r, g in enumerate(geoms):
        minx, miny, maxx, maxy = bounds[r]
        lo = np.searchsorted(sx, minx, side="left")
        hi = np.searchsorted(sx, maxx, side="right")
        if lo >= hi:
            continue
        cy = sy[lo:hi]
        sel = np.nonzero((cy >= miny) & (cy <= maxy))[0] + lo
        if sel.size == 0:
            continue
        px, py = sx[sel], sy[sel]
        if include_boundary:
            cov = shapely.intersects_xy(g, px, py)
            sel, px, py = sel[cov], px[cov], py[cov]
            ins = shapely.contains_xy(g, px, py)
        else:
            cov = shapely.contains_xy(g, px, py)
            sel = sel[cov]
            ins = np.ones(sel.size, dtype=bool)
        markers.append(order[sel])
        regions.append(np.full(sel.size, r, dtype=np.int64))
        inside.append(ins)
    if not markers:
        e = np.zeros(0, dtype=np.int64)
        return e, e, np.zeros(0, dtype=bool)
    m = np.concatenate(markers)
    r = np.concatenate(regions)
    ins = np.concatenate(inside)
    o = np.lexsort((r, m))
    return m[o], r[o], ins[o]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--regions", required=True)
    ap.add_argument("--size")
    ap.add_argument("--boundary", choices=("include", "exclude"), default="include")
    ap.add_argument("--require-room", action="store_true")
    ap.add_argument("--timings", action="store_true", help="phase timings on stderr")
    ap.add_argument("markers")
    args = ap.parse_args()

    t0 = time.perf_counter()
    ids, kinds, geoms = load_regions(args.regions)
    t1 = time.perf_counter()
    mids, x, y = load_markers(args.markers)
    t2 = time.perf_counter()
    m, r, ins = locate(geoms, x, y, args.boundary == "include")
    t3 = time.perf_counter()

    n = len(mids)
    is_allowed = np.array([k == "allowed" for k in kinds], dtype=bool)
    is_room = ~is_allowed
    in_allowed = np.zeros(n, dtype=bool)
    in_room = np.zeros(n, dtype=bool)
    in_allowed[m[is_allowed[r]]] = True
    in_room[m[is_room[r]]] = True

    # Reasons in planmark's order; later checks only where the earlier ones passed.
    reason = np.zeros(n, dtype=np.int8)  # 0 valid
    finite = np.isfinite(x) & np.isfinite(y)
    reason[~finite] = 1
    if args.size:
        w, h = (float(v) for v in args.size.lower().split("x"))
        off = finite & ~((x >= 0) & (x <= w) & (y >= 0) & (y <= h))
        reason[off & (reason == 0)] = 2
    if is_allowed.any():
        reason[(reason == 0) & ~in_allowed] = 3
    if args.require_room:
        reason[(reason == 0) & ~in_room] = 4
    reason_text = ['"valid":true,"reason":null', '"valid":false,"reason":"invalid-coordinate"',
                   '"valid":false,"reason":"outside-drawing"', '"valid":false,"reason":"outside-allowed-area"',
                   '"valid":false,"reason":"outside-rooms"']

    # Each marker's regions text: hit pieces per (region, location), joined per marker.
    pieces = [['{"id":%s,"kind":"%s","location":"%s"}' % (js_string(i), k, loc) for loc in ("boundary", "inside")]
              for i, k in zip(ids, kinds)]
    starts = np.searchsorted(m, np.arange(n + 1))
    rl, il = r.tolist(), ins.tolist()
    st = starts.tolist()
    xs, ys, rs = x.tolist(), y.tolist(), reason.tolist()
    if _NEEDS_ESCAPE.search("".join(mids)):
        qids = [js_string(i) for i in mids]
    else:
        qids = ['"' + i + '"' for i in mids]
    out = []
    app = out.append
    write = sys.stdout.write
    for k in range(n):
        if len(out) == 65536:
            write("".join(out))
            out.clear()
        a, b = st[k], st[k + 1]
        if a == b:
            regions = ""
        elif b == a + 1:
            regions = pieces[rl[a]][il[a]]
        else:
            regions = ",".join([pieces[rl[j]][il[j]] for j in range(a, b)])
        xv, yv = xs[k], ys[k]
        if rs[k] == 1:
            xy = '"x":null,"y":null'
        else:
            xt = str(int(xv)) if xv.is_integer() and abs(xv) < 9007199254740992 else repr(xv)
            yt = str(int(yv)) if yv.is_integer() and abs(yv) < 9007199254740992 else repr(yv)
            xy = '"x":' + xt + ',"y":' + yt
        app('{"id":%s,%s,%s,"regions":[%s]}\n' % (qids[k], xy, reason_text[rs[k]], regions))
    write("".join(out))
    sys.stdout.flush()
    t4 = time.perf_counter()
    if args.timings:
        print(f"shapely_validate: regions {t1 - t0:.2f} s, markers {t2 - t1:.2f} s, locate {t3 - t2:.2f} s, "
              f"report {t4 - t3:.2f} s, total {t4 - t0:.2f} s; {n} markers, {int((reason != 0).sum())} invalid, "
              f"{m.size} hits", file=sys.stderr)
    sys.exit(1 if (reason != 0).any() else 0)


if __name__ == "__main__":
    main()
