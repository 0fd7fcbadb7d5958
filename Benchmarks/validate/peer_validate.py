#!/usr/bin/env python3
"""The fair peer of `planmark validate --report csv`: shapely 2 + numpy + pyarrow, vectorised end to end.

Writes the same report, byte for byte, as

    planmark validate --regions REGIONS --size WxH --report csv MARKERS

for a markers CSV with a header naming `id,x,y` (the benchmark's files): the header
`id,x,y,valid,reason,regions`, then one line a marker in input order.

How (no Python loop per marker; the only loops run once per region):
- regions: `json` + `shapely.geometry.shape`, each `shapely.prepare`d; labels `ID:inside` and
  `ID:boundary` prepared once per region;
- markers: `pyarrow.csv.read_csv` with every column kept as text, coordinates cast to float64 by Arrow
  (fast_float);
- point location: markers sorted by x once; per region `np.searchsorted` for its bounding box, a y
  filter, then `shapely.intersects_xy` (covers, walls included) and `shapely.contains_xy` (inside vs
  boundary) on the candidates; hits ordered by (marker, region) with `np.lexsort`;
- reasons from numpy masks (outside-drawing, then outside-allowed-area);
- output: coordinate text kept from the input where PlanMark prints the same text (up to 15 significant
  digits, no exponent: trailing fraction zeros, leading zeros and a `+` removed by Arrow regex kernels),
  integers from an int64 cast, the rest from Arrow's shortest float formatting; each marker's
  regions are the prepared labels taken with `take`, made a list array from offsets and joined with
  `binary_join`; the fields joined element-wise; the whole report written with one `write` of the
  resulting string buffer.

Usage: python3 peer_validate.py --regions FILE --size WxH MARKERS.csv > report.csv
`--timings` prints the phases on stderr. Exit status 1 when some marker is invalid, as planmark.
Limits (not exercised by the benchmark files, documented rather than emulated): coordinates below 1e-4
in magnitude print as Arrow spells them (`0.00001`, PlanMark `1e-05`); a numeric feature id is printed as
Python prints it; lat,lng files, --boundary exclude and --require-room are not implemented.
"""

import argparse
import json
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import shapely
from shapely.geometry import shape

TWO53 = 9_007_199_254_740_992.0


def load_regions(path):
    with open(path, "rb") as f:
        doc = json.load(f)
    geoms, ids, allowed = [], [], []
    for k, feature in enumerate(doc["features"]):
        props = feature.get("properties") or {}
        fid = feature.get("id")
        if fid is None or fid == "":
            fid = props.get("id")
        if fid is None or fid == "":
            fid = k + 1
        g = shape(feature["geometry"])
        shapely.prepare(g)
        geoms.append(g)
        ids.append(str(fid))
        allowed.append(props.get("kind", "room") == "allowed")
    return geoms, ids, np.array(allowed, dtype=bool)


def csv_quote(arr):
    """CSV-quotes the strings that need it (a comma, quote or line break), vectorised."""
    needs = pc.match_substring_regex(arr, r'[,"\r\n]')
    if not pc.any(needs).as_py():
        return arr
    quoted = pc.binary_join_element_wise('"', pc.replace_substring(arr, '"', '""'), '"', "")
    return pc.if_else(needs, quoted, arr)


def coordinate_text(text, value, ok):
    """The coordinate as PlanMark prints it: integers as integers, other values as their shortest
    round-trip text. Input text with at most 15 significant digits and no exponent is already that text
    once its `+`, leading zeros and trailing fraction zeros are dropped."""
    t = pc.utf8_trim(text, " \t")
    t = pc.replace_substring_regex(t, r"^\+", "")
    t = pc.replace_substring_regex(t, r"(\.[0-9]*?)0+$", r"\1")
    t = pc.replace_substring_regex(t, r"^(-?)0+([0-9])", r"\1\2")
    t = pc.replace_substring_regex(t, r"^(-?)\.", r"\10.")
    digits = pc.utf8_length(pc.replace_substring_regex(pc.replace_substring_regex(t, r"[-.]", ""), r"^0+", ""))
    a = np.abs(value)
    integral = ok & (value == np.trunc(value)) & (a < TWO53)
    plain = pc.and_(pc.less_equal(digits, 15), pc.invert(pc.match_substring(t, "e", ignore_case=True)))
    plain = pc.and_(plain, pa.array(ok & (a >= 1e-4)))
    ints = pc.cast(pa.array(np.where(integral, value, 0).astype(np.int64)), pa.string())
    shortest = pc.cast(pa.array(np.where(ok, value, 0.0)), pa.string())
    out = pc.if_else(plain, t, shortest)
    out = pc.if_else(pa.array(integral), ints, out)
    return pc.if_else(pa.array(ok), out, "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--regions", required=True)
    ap.add_argument("--size", required=True, help="WxH")
    ap.add_argument("--timings", action="store_true")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("markers")
    args = ap.parse_args()
    width, height = (float(v) for v in args.size.lower().split("x"))
    t0 = time.perf_counter()
    marks = [("start", t0)]

    geoms, ids, is_allowed = load_regions(args.regions)
    bounds = shapely.bounds(np.array(geoms, dtype=object))
    labels = pa.array([f"{rid}:{loc}" for rid in ids for loc in ("inside", "boundary")])
    marks.append(("regions", time.perf_counter()))

    table = pacsv.read_csv(
        args.markers,
        convert_options=pacsv.ConvertOptions(column_types={"id": pa.string(), "x": pa.string(), "y": pa.string()}),
    )
    n = table.num_rows
    xt, yt = table["x"].combine_chunks(), table["y"].combine_chunks()
    number = r"^[ \t]*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t]*$"
    xok = pc.match_substring_regex(xt, number)
    yok = pc.match_substring_regex(yt, number)
    x = pc.cast(pc.utf8_trim(pc.if_else(xok, xt, "nan"), " \t"), pa.float64()).to_numpy(zero_copy_only=False)
    y = pc.cast(pc.utf8_trim(pc.if_else(yok, yt, "nan"), " \t"), pa.float64()).to_numpy(zero_copy_only=False)
    ok = np.isfinite(x) & np.isfinite(y)
    marks.append(("markers", time.perf_counter()))

    # Point location: every region against the markers in its bounding box.
    order = np.argsort(np.where(ok, x, np.inf), kind="stable")
    xs, ys = np.where(ok, x, np.inf)[order], y[order]
    hit_marker, hit_code = [], []
    for r, g in enumerate(geoms):
        minx, miny, maxx, maxy = bounds[r]
        lo, hi = np.searchsorted(xs, minx, side="left"), np.searchsorted(xs, maxx, side="right")
        cand = np.arange(lo, hi)
        cand = cand[(ys[lo:hi] >= miny) & (ys[lo:hi] <= maxy)]
        if cand.size == 0:
            continue
        px, py = xs[cand], ys[cand]
        covers = shapely.intersects_xy(g, px, py)
        cand, px, py = cand[covers], px[covers], py[covers]
        inside = shapely.contains_xy(g, px, py)
        hit_marker.append(order[cand])
        hit_code.append(2 * r + (~inside).astype(np.int64))
    hm = np.concatenate(hit_marker) if hit_marker else np.zeros(0, np.int64)
    hc = np.concatenate(hit_code) if hit_code else np.zeros(0, np.int64)
    sort = np.lexsort((hc, hm))
    hm, hc = hm[sort], hc[sort]
    marks.append(("locate", time.perf_counter()))

    # Reasons.
    in_allowed = np.zeros(n, dtype=bool)
    allowed_hit = is_allowed[hc // 2]
    in_allowed[hm[allowed_hit]] = True
    on_drawing = (x >= 0) & (x <= width) & (y >= 0) & (y <= height)
    reason = np.zeros(n, dtype=np.int8)  # 0 valid
    reason[~in_allowed] = 3 if is_allowed.any() else 0
    reason[~on_drawing] = 2
    reason[~ok] = 1
    valid_text = pa.array(["true", "false"]).take(pa.array((reason != 0).astype(np.int8)))
    reason_text = pa.array(["", "invalid-coordinate", "outside-drawing", "outside-allowed-area"]).take(pa.array(reason))

    # Regions column: prepared labels, listed per marker and joined with ';'.
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(hm, minlength=n), out=offsets[1:])
    lists = pa.ListArray.from_arrays(pa.array(offsets), labels.take(pa.array(hc)))
    regions_text = csv_quote(pc.binary_join(lists, ";"))

    ids_text = table["id"].combine_chunks() if "id" in table.column_names else pa.nulls(n, pa.string()).fill_null("")
    row_numbers = pc.cast(pa.array(np.arange(1, n + 1, dtype=np.int64)), pa.string())
    ids_text = csv_quote(pc.if_else(pc.equal(ids_text, ""), row_numbers, ids_text))
    x_text = coordinate_text(xt, x, ok)
    y_text = coordinate_text(yt, y, ok)
    lines = pc.binary_join_element_wise(
        ids_text, x_text, y_text, valid_text, reason_text, pc.binary_join_element_wise(regions_text, "\n", ""), ","
    )
    marks.append(("format", time.perf_counter()))

    # One write of the joined buffer.
    offsets_buf, data_buf = lines.buffers()[1], lines.buffers()[2]
    offs = np.frombuffer(offsets_buf, dtype=np.int32 if lines.type == pa.string() else np.int64)[lines.offset:lines.offset + n + 1]
    body = memoryview(data_buf)[int(offs[0]):int(offs[-1])]
    out = sys.stdout.buffer if args.output == "-" else open(args.output, "wb")
    out.write(b"id,x,y,valid,reason,regions\n")
    out.write(body)
    out.flush()
    marks.append(("write", time.perf_counter()))

    if args.timings:
        print(" ".join(f"{name} {b - a:.3f}s" for (_, a), (name, b) in zip(marks, marks[1:])), file=sys.stderr)
    sys.exit(1 if (reason != 0).any() else 0)


if __name__ == "__main__":
    main()
