"""Writes two issues of a three-page sheet set for the sheets command tests (run with /usr/bin/python3 OUT).

OUT/issue-1/set.pdf and OUT/issue-2/set.pdf, sizes in points (1/72 in):
  1. 612 x 792, outline entry "A-101 - Ground floor"; issue 1 a black rectangle x 100..300, y 200..260, issue 2 the
     rectangle moved to x 150..350 (a revised sheet of the same paper).
  2. 612 x 792, outline entry "A-102 - First floor"; a black line 4 pt wide along y = 400 from x 50 to 550 (issue 2:
     y = 420).
  3. Issue 1 792 x 612, issue 2 842 x 595 (the paper changed), no outline entry and no page label of its own, so
     its name is the file's: "set p3".
"""
import os
import sys

import cairo

out = sys.argv[1]


def write(issue, rectangle_x, line_y, third):
    folder = os.path.join(out, "issue-%d" % issue)
    os.makedirs(folder, exist_ok=True)
    surface = cairo.PDFSurface(os.path.join(folder, "set.pdf"), 612, 792)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(0, 0, 0)
    surface.add_outline(cairo.PDF_OUTLINE_ROOT, "A-101 - Ground floor", "page=1", 0)
    surface.add_outline(cairo.PDF_OUTLINE_ROOT, "A-102 - First floor", "page=2", 0)
    ctx.rectangle(rectangle_x, 200, 200, 60)
    ctx.fill()
    ctx.show_page()
    ctx.set_line_width(4)
    ctx.move_to(50, line_y)
    ctx.line_to(550, line_y)
    ctx.stroke()
    ctx.show_page()
    surface.set_size(*third)
    ctx.rectangle(10, 10, 50, 50)
    ctx.fill()
    ctx.show_page()
    surface.finish()


write(1, 100, 400, (792, 612))
write(2, 150, 420, (842, 595))
