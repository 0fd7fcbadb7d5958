"""CairoDraw: the part of Pillow's ImageDraw.Draw that the project's drawing generators use, drawn as vectors with
pycairo, keeping Pillow's meaning of the arguments. A generator draws its plan once, with ImageDraw's calls on a
draw object `d`: Pillow's ImageDraw.Draw for a PNG, CairoDraw(ctx) for a PDF (ctx a cairo context on a PDF surface,
scaled so that its unit is one pixel of the plan).

Used by Drawings/sample/make_sample.py (the sample plan.pdf) and Benchmarks/render/generate.py (the A0 plan as a
vector PDF). Import it with Drawings/ on sys.path. Requires pycairo (Debian: python3-cairo) and DejaVu Sans
(fonts-dejavu-core) through fontconfig.
"""

import math
import os

import cairo


class CairoDraw:
    """The part of Pillow's ImageDraw.Draw that draw_plan_on uses, drawn as vectors on a cairo context whose unit is
    one pixel of the plan, with Pillow's meaning of the arguments:

    - coordinates name pixels, and a pixel x covers [x, x + 1): a box (x0, y0, x1, y1) includes its last pixels, so
      it covers [x0, x1 + 1] x [y0, y1 + 1]; a line or polygon runs through the pixels' centres (x + 0.5) and covers
      the pixels it touches (a line's ends reach half a pixel past its end points);
    - outlines lie inside the box, `width` pixels wide; fills are drawn first, the outline over them unless both have
      the same ink;
    - arcs are in degrees clockwise from 3 o'clock (y points down);
    - inks are grey levels 0..255 (mode "L");
    - text is in the face of the Pillow font it is given (DejaVuSans.ttf or DejaVuSans-Bold.ttf, which cairo finds
      through fontconfig as DejaVu Sans, normal or bold) at the font's pixel size, placed by Pillow's two-letter
      anchors (horizontal l, m, r; vertical a, t, m, s, b, d) measured with cairo's metrics of that face.
    """

    FACES = {"DejaVuSans.ttf": ("DejaVu Sans", cairo.FONT_WEIGHT_NORMAL),
             "DejaVuSans-Bold.ttf": ("DejaVu Sans", cairo.FONT_WEIGHT_BOLD)}

    def __init__(self, ctx):
        self.ctx = ctx

    def _ink(self, ink):
        self.ctx.set_source_rgb(ink / 255, ink / 255, ink / 255)

    def _fill(self, ink, even_odd=False):
        self._ink(ink)
        self.ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD if even_odd else cairo.FILL_RULE_WINDING)
        self.ctx.fill()

    @staticmethod
    def _box(xy):
        x0, y0, x1, y1 = xy
        return x0, y0, x1 + 1, y1 + 1

    def _ring(self, xy, width, path):
        """Fills the outline of a shape `width` pixels wide inside its box: the shape, less the shape inset by width."""
        x0, y0, x1, y1 = self._box(xy)
        path(x0, y0, x1, y1, 0)
        if x1 - x0 > 2 * width and y1 - y0 > 2 * width:
            path(x0 + width, y0 + width, x1 - width, y1 - width, width)

    def _paint(self, xy, fill, outline, width, path):
        if fill is not None:
            path(*self._box(xy), 0)
            self._fill(fill)
        if outline is not None and outline != fill and width:
            self._ring(xy, width, path)
            self._fill(outline, even_odd=True)

    def rectangle(self, xy, fill=None, outline=None, width=1):
        self._paint(xy, fill, outline, width, lambda x0, y0, x1, y1, _: self.ctx.rectangle(x0, y0, x1 - x0, y1 - y0))

    def rounded_rectangle(self, xy, radius=0, fill=None, outline=None, width=1):
        def path(x0, y0, x1, y1, inset):
            r = radius + 0.5 - inset  # the corner's box is 2 * radius + 1 pixels
            c = self.ctx
            c.new_sub_path()
            c.arc(x1 - r, y0 + r, r, -math.pi / 2, 0)
            c.arc(x1 - r, y1 - r, r, 0, math.pi / 2)
            c.arc(x0 + r, y1 - r, r, math.pi / 2, math.pi)
            c.arc(x0 + r, y0 + r, r, math.pi, 3 * math.pi / 2)
            c.close_path()
        self._paint(xy, fill, outline, width, path)

    def _ellipse_path(self, x0, y0, x1, y1, start=0.0, end=360.0, negative=False):
        c = self.ctx
        c.save()
        c.translate((x0 + x1) / 2, (y0 + y1) / 2)
        c.scale((x1 - x0) / 2, (y1 - y0) / 2)
        (c.arc_negative if negative else c.arc)(0, 0, 1, math.radians(start), math.radians(end))
        c.restore()

    def ellipse(self, xy, fill=None, outline=None, width=1):
        def path(x0, y0, x1, y1, _):
            self.ctx.new_sub_path()
            self._ellipse_path(x0, y0, x1, y1)
            self.ctx.close_path()
        self._paint(xy, fill, outline, width, path)

    def arc(self, xy, start, end, fill=None, width=1):
        """The part of the ellipse's outline from `start` to `end` degrees: the ring sector between the two."""
        x0, y0, x1, y1 = self._box(xy)
        self.ctx.new_sub_path()
        self._ellipse_path(x0, y0, x1, y1, start, end)
        self._ellipse_path(x0 + width, y0 + width, x1 - width, y1 - width, end, start, negative=True)
        self.ctx.close_path()
        self._fill(fill)

    def line(self, xy, fill=None, width=1):
        """Each segment of the polyline on its own, `width` pixels wide, through the end pixels' centres and half a
        pixel past them."""
        points = list(zip(xy[0::2], xy[1::2])) if not isinstance(xy[0], (tuple, list)) else list(xy)
        c = self.ctx
        for (ax, ay), (bx, by) in zip(points, points[1:]):
            length = math.hypot(bx - ax, by - ay)
            ux, uy = ((bx - ax) / length, (by - ay) / length) if length else (1.0, 0.0)
            c.move_to(ax + 0.5 - ux / 2, ay + 0.5 - uy / 2)
            c.line_to(bx + 0.5 + ux / 2, by + 0.5 + uy / 2)
        c.set_line_width(width)
        c.set_line_cap(cairo.LINE_CAP_BUTT)
        self._ink(fill)
        c.stroke()

    def polygon(self, xy, fill=None, outline=None, width=1):
        """The polygon through its vertices' pixel centres, the pixels on its edges included."""
        c = self.ctx

        def path():
            for k, (x, y) in enumerate(xy):
                (c.line_to if k else c.move_to)(x + 0.5, y + 0.5)
            c.close_path()
        if fill is not None:
            path()
            self._ink(fill)
            c.set_fill_rule(cairo.FILL_RULE_WINDING)
            c.fill_preserve()
            c.set_line_width(1)
            c.set_line_join(cairo.LINE_JOIN_MITER)
            c.stroke()
        if outline is not None and outline != fill:
            path()
            c.set_line_width(width)
            self._ink(outline)
            c.stroke()

    def text(self, xy, text, font, fill=None, anchor="la"):
        family, weight = self.FACES[os.path.basename(font.path)]
        c = self.ctx
        c.select_font_face(family, cairo.FONT_SLANT_NORMAL, weight)
        c.set_font_size(font.size)
        ascent, descent = c.font_extents()[:2]
        ink_x, ink_y, ink_w, ink_h, advance = c.text_extents(text)[:5]
        dx = {"l": 0, "m": -advance / 2, "r": -advance}[anchor[0]]
        dy = {"a": ascent, "t": -ink_y, "m": (ascent - descent) / 2, "s": 0, "b": -(ink_y + ink_h), "d": -descent}[anchor[1]]
        x, y = xy
        c.move_to(x + dx, y + dy)
        self._ink(fill)
        c.show_text(text)
        c.new_path()
