#!/usr/bin/env python3
"""The peer of `planmark report`: the same punch-list PDF from the same store, with the libraries a Python
programmer would reach for, used as fast as they allow: sqlite3 for the store, libvips (pyvips) to decode the
drawing once (kept in its own 1-band format), shrink it for the sheet and cut the crops, cairo (pycairo) for
the pins, the text (DejaVu Sans, selectable) and the PDF; JPEG photos attached with set_mime_data, as planmark
does, so they are embedded as they are.

Layout as planmark's (`ReportPDFWriter`): page 1 with the title, drawing and revision, date, filters, counts
by status and the whole sheet (longest side 2000 px) fitted to the text width; then per marker its fields, a
480 px crop of 300 drawing pixels around it with the pins, its photos at 150 pt high, its last 3 history
entries; page numbers. Room fills and outlines and numbered pins are drawn as the review renderer's style
does (colours of `ReviewStyle.standard`, radius max(12, shorter side / 250)), without the renderer's legend.

Usage: python3 Benchmarks/report/peer_report.py STORE DRAWING OUT.pdf
"""

import json
import sqlite3
import sys
import time

import cairo
import numpy as np
import pyvips

A4 = (595.2756, 841.8898)
MARGIN = 42.0
STATUS_ORDER = ["open", "in-progress", "ready", "closed", "void"]
STATUS_CODES = ["open", "in-progress", "ready", "closed", "void"]  # stored code -> status
PRIORITY_CODES = ["low", "normal", "high", "critical"]  # stored code -> priority
STATUS_TITLE = {"open": "Open", "in-progress": "In progress", "ready": "Ready for inspection", "closed": "Closed", "void": "Void"}
# ReviewStyle.standard's status colours (RGB 0..1).
STATUS_COLOUR = {"open": (0.85, 0.33, 0.10), "in-progress": (0.95, 0.65, 0.10), "ready": (0.20, 0.45, 0.85),
                 "closed": (0.20, 0.62, 0.30), "void": (0.55, 0.55, 0.55)}


def surface_from_vips(image):
    """An RGB24 cairo surface from a 1- or 3-band uchar vips image (one numpy pass)."""
    array = np.ndarray(buffer=image.write_to_memory(), dtype=np.uint8, shape=(image.height, image.width, image.bands))
    out = np.empty((image.height, image.width, 4), dtype=np.uint8)
    if image.bands == 1:
        out[..., 0] = out[..., 1] = out[..., 2] = array[..., 0]
    else:
        out[..., 0], out[..., 1], out[..., 2] = array[..., 2], array[..., 1], array[..., 0]
    out[..., 3] = 255
    surface = cairo.ImageSurface.create_for_data(memoryview(out), cairo.FORMAT_RGB24, image.width, image.height)
    return surface, out


def draw_overlay(surface, regions, markers, origin, scale, shorter_side):
    cr = cairo.Context(surface)
    cr.translate(-origin[0] * scale, -origin[1] * scale)
    cr.scale(scale, scale)
    line = max(1.5, shorter_side / 2000) / scale
    for kind, rings in regions:
        for polygon in rings:
            for ring in polygon:
                cr.move_to(*ring[0])
                for point in ring[1:]:
                    cr.line_to(*point)
                cr.close_path()
        if kind == "room":
            cr.set_source_rgba(0.30, 0.55, 0.95, 0.16)
            cr.fill_preserve()
            cr.set_source_rgb(0.10, 0.25, 0.55)
        else:
            cr.set_source_rgb(0.10, 0.55, 0.20)
        cr.set_line_width(line)
        cr.stroke()
    cr.identity_matrix()
    radius = max(12.0, shorter_side / 250)
    cr.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)
    cr.set_font_size(radius)
    width, height = surface.get_width(), surface.get_height()
    for number, x, y, status in markers:
        px, py = (x - origin[0]) * scale, (y - origin[1]) * scale
        if px < -radius or py < -radius or px > width + radius or py > height + radius:
            continue
        cr.arc(px, py, radius * 1.15, 0, 6.2832)
        cr.set_source_rgba(0, 0, 0, 0.45)
        cr.fill()
        cr.arc(px, py, radius, 0, 6.2832)
        cr.set_source_rgb(1, 1, 1)
        cr.fill()
        cr.arc(px, py, radius * 0.85, 0, 6.2832)
        cr.set_source_rgb(*STATUS_COLOUR[status])
        cr.fill()
        label = str(number)
        extents = cr.text_extents(label)
        cr.move_to(px - extents.x_bearing - extents.width / 2, py - extents.y_bearing - extents.height / 2)
        cr.set_source_rgb(1, 1, 1)
        cr.show_text(label)


class Page:
    def __init__(self, cr, footer):
        self.cr, self.footer, self.number = cr, footer, 1
        self.y = MARGIN
        self.width = A4[0] - 2 * MARGIN
        self.bottom = A4[1] - MARGIN - 14

    def font(self, size, bold=False):
        self.cr.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
        self.cr.set_font_size(size)

    def ensure(self, space):
        if self.y > MARGIN and self.bottom - self.y < space:
            self.new_page()

    def foot(self):
        self.font(8)
        label = f"Page {self.number}"
        self.cr.move_to(A4[0] - MARGIN - self.cr.text_extents(label).x_advance, A4[1] - MARGIN + 4)
        self.cr.show_text(label)
        self.cr.move_to(MARGIN, A4[1] - MARGIN + 4)
        self.cr.show_text(self.footer)

    def new_page(self):
        self.foot()
        self.cr.show_page()
        self.number += 1
        self.y = MARGIN

    def wrap(self, text, width):
        lines, line = [], ""
        for word in text.split(" "):
            candidate = word if not line else line + " " + word
            if self.cr.text_extents(candidate).x_advance <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
        return lines

    def text(self, text, size, bold=False, indent=0):
        self.font(size, bold)
        for line in self.wrap(text, self.width - indent):
            self.ensure(size * 1.3)
            self.font(size, bold)
            self.cr.move_to(MARGIN + indent, self.y + size)
            self.cr.show_text(line)
            self.y += size * 1.3

    def field(self, label, value, label_width=70, size=9.5):
        self.font(size)
        for index, line in enumerate(self.wrap(value, self.width - label_width)):
            self.ensure(size * 1.35)
            if index == 0:
                self.font(size, True)
                self.cr.move_to(MARGIN, self.y + size)
                self.cr.show_text(label + ":")
            self.font(size)
            self.cr.move_to(MARGIN + label_width, self.y + size)
            self.cr.show_text(line)
            self.y += size * 1.35

    def picture(self, surface, x, w, h, pixel_w, pixel_h):
        self.cr.save()
        self.cr.translate(MARGIN + x, self.y)
        self.cr.scale(w / pixel_w, h / pixel_h)
        self.cr.set_source_surface(surface, 0, 0)
        self.cr.paint()
        self.cr.restore()


def main():
    started = time.monotonic()
    store, name, out = sys.argv[1:4]
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    drawing_id, width, height, sha = db.execute("SELECT id, width, height, imageSHA256 FROM drawing WHERE name = ?", (name,)).fetchone()
    regions = [(kind, [json.loads(g)["coordinates"]] if json.loads(g)["type"] == "Polygon" else json.loads(g)["coordinates"])
               for kind, g in db.execute("SELECT kind, geometry FROM region WHERE drawingId = ? ORDER BY position", (drawing_id,))]
    markers = db.execute("SELECT number, x, y, status, priority, category, assignee, due, rooms, note FROM marker "
                         "WHERE drawingId = ? ORDER BY number", (drawing_id,)).fetchall()
    # Since migration v9 the store keeps statuses and priorities as small integers (PlanMarkStore/StoredCodes.swift).
    markers = [(m[0], m[1], m[2], STATUS_CODES[m[3]] if isinstance(m[3], int) else m[3],
                PRIORITY_CODES[m[4]] if isinstance(m[4], int) else m[4]) + tuple(m[5:]) for m in markers]
    pins = [(m[0], m[1], m[2], m[3]) for m in markers]
    today = time.strftime("%Y-%m-%d", time.gmtime())
    image = pyvips.Image.new_from_buffer(db.execute("SELECT bytes FROM image WHERE sha256 = ?", (sha,)).fetchone()[0], "",
                                         access="random")
    if image.hasalpha():
        image = image.flatten(background=255)
    image = image.copy_memory()  # decoded once, kept for the crops
    shorter = min(width, height)

    pdf = cairo.PDFSurface(out, *A4)
    cr = cairo.Context(pdf)
    page = Page(cr, name)
    page.text("Punch list", 20, True)
    page.y += 4
    page.field("Drawing", f"{name}, revision 1 ({width} x {height} px)")
    page.field("Date", today)
    page.field("Filters", "none (every marker)")
    counts = {s: 0 for s in STATUS_ORDER}
    for m in markers:
        counts[m[3]] += 1
    page.field("Markers", f"{len(markers)} markers: " + " · ".join(f"{STATUS_TITLE[s]} {c}" for s, c in counts.items() if c))
    for s in STATUS_ORDER:
        page.field("  " + STATUS_TITLE[s], str(counts[s]), 130)
    page.y += 8
    scale = min(1.0, 2000 / max(width, height))
    sheet = image.resize(scale)
    surface, keep = surface_from_vips(sheet)
    draw_overlay(surface, regions, pins, (0, 0), sheet.width / width, shorter * scale)
    fit = min(page.width / sheet.width, (page.bottom - page.y - 4) / sheet.height)
    page.picture(surface, 0, sheet.width * fit, sheet.height * fit, sheet.width, sheet.height)
    page.new_page()

    for number, x, y, status, priority, category, assignee, due, rooms, note in markers:
        page.ensure(110)
        page.y += 6
        overdue = due is not None and due < today and status not in ("closed", "void")
        page.text(f"#{number}  {STATUS_TITLE[status]}" + ("  · OVERDUE" if overdue else ""), 13, True)
        page.field("Priority", priority)
        page.field("Category", category or "–")
        page.field("Assignee", assignee or "–")
        page.field("Due", (due + (" (OVERDUE)" if overdue else "")) if due else "–")
        page.field("Rooms", ", ".join(json.loads(rooms)) or "–")
        page.field("Note", note or "–")
        row_x, row_started = 0.0, False

        def place(w, draw):
            nonlocal row_x, row_started
            if row_started and row_x + w > page.width + 0.01:
                page.y += 156
                row_x, row_started = 0.0, False
            if not row_started:
                page.ensure(156)
                row_started = True
            draw(row_x)
            row_x += w + 6

        x0, y0 = max(0, int(x - 300)), max(0, int(y - 300))
        x1, y1 = min(width, int(x + 300 + 0.999)), min(height, int(y + 300 + 0.999))
        if x1 > x0 and y1 > y0:
            crop = image.crop(x0, y0, x1 - x0, y1 - y0).resize(0.8)
            crop_surface, crop_keep = surface_from_vips(crop)
            draw_overlay(crop_surface, regions, pins, (x0, y0), crop.width / (x1 - x0), shorter * 0.8)
            w = 150 * crop.width / crop.height
            place(w, lambda at: page.picture(crop_surface, at, w, 150, crop.width, crop.height))
        for (data,) in db.execute("SELECT b.bytes FROM attachment a JOIN attachmentBlob b ON b.sha256 = a.sha256 "
                                  "WHERE a.drawingId = ? AND a.number = ? AND a.contentType = 'image/jpeg' ORDER BY a.id",
                                  (drawing_id, number)):
            header = pyvips.Image.new_from_buffer(data, "")  # reads the header only
            photo = cairo.ImageSurface(cairo.FORMAT_RGB24, header.width, header.height)
            photo.set_mime_data(cairo.MIME_TYPE_JPEG, data)
            k = min(page.width / header.width, 150 / header.height)
            w, h = header.width * k, header.height * k
            place(w, lambda at, photo=photo, w=w, h=h, pw=header.width, ph=header.height: page.picture(photo, at, w, h, pw, ph))
        if row_started:
            page.y += 156
        history = db.execute("SELECT at, action, author FROM history WHERE drawingId = ? AND (number = ? OR (lastNumber IS NOT NULL "
                             "AND number <= ? AND lastNumber >= ?)) ORDER BY id DESC LIMIT 3",
                             (drawing_id, number, number, number)).fetchall()
        if history:
            page.text("History", 9, True)
            for at, action, author in reversed(history):
                page.text(time.strftime("%Y-%m-%d %H:%M", time.gmtime(at / 1000)) + " " + action + (f" by {author}" if author else ""),
                          8.5, indent=10)
        page.y += 4
        cr.set_line_width(0.5)
        cr.move_to(MARGIN, page.y)
        cr.line_to(A4[0] - MARGIN, page.y)
        cr.stroke()
        page.y += 4
    page.foot()
    cr.show_page()
    pdf.finish()
    print(f"peer: {page.number} pages, {time.monotonic() - started:.3f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
