"""Writes the PDF fixtures of PlanMarkPDFTests into the folder given as the one argument (run with /usr/bin/python3).

sheets.pdf, four pages, every size and position in points (1/72 in), origin top-left:
  1. 612 x 792: black rectangle x 100..300, y 200..260; black line 4 pt wide along y = 400 from x 50 to 550.
     Outline: "A-101 - Ground floor" (top level), its child "A-101 detail" (also page 1). Page label "A-101".
  2. 842 x 595: black rectangle x 400..700, y 100..500. Outline: the nested entry "A-102 – First floor" (an en dash)
     through the named destination "sheet-a102"; a later top-level entry "A-102 again" to the same page. Page
     label "A-102".
  3. 1224 x 792: black line 6 pt wide along x = 612 from y 0 to 792. No outline entry; page label "S-1".
  4. 300 x 200: nothing drawn, no outline entry, page label "4" (its own number).
Page 1 has a label of its own: cairo 1.16 writes no label for a page 1 labelled "1", leaving a page-label tree that
does not start at page index 0 (which PDF requires), and poppler then gives page 1 the first range's labels.
huge.pdf: one page 20000 x 300 (over PDF's 14400 limit).
encrypted.pdf: sheets.pdf encrypted (RC4-128) with the user password "secret" (pypdf; qpdf when pypdf is missing;
  not written when neither is there).
no-pages.pdf: a hand-written PDF whose page tree has no pages.
truncated.pdf: the first half of sheets.pdf (a header, no cross-reference table or trailer).
corrupt.pdf: sheets.pdf's first line (its %PDF-1.x header), then its other bytes each XORed with a byte of Python's
  random.Random(29): a header and nothing a PDF reader can recover.
enormous.pdf: one page 14400 x 14400 pt (PDF's largest): within the side limit, 60000 x 60000 pixels at 300 dpi.
spin.pdf: one 200 x 200 pt page that draws Form XObject level 9 once; level k (9..1) draws level k - 1 ten times and
  level 0 fills a 1 pt square: 10^9 fills (pdftoppm takes over an hour), while opening and measuring it is instant.
text.pdf: one 600 x 400 pt page: a black frame 2 pt wide around x 50..550, y 50..350, a black line 2 pt wide along
  x = 300 from y 50 to 350, and in DejaVu Sans 18 pt (cairo embeds it as a TrueType subset) "ROOM 2.01" with its
  baseline starting at (100, 200) and "KITCHEN 2.02" at (350, 200).
type3.pdf: a hand-written PDF, one 300 x 200 pt page showing "ABBA" at 20 pt from (50, 100) (PDF's origin, bottom
  left) in a Type 3 font whose glyph A is a filled 0.8 em square and B a filled triangle, with a ToUnicode map.
softmask.pdf: one 400 x 300 pt page: a linear gradient red to blue over x 10..390, y 10..90, then black painted through
  a soft mask that fades from opaque at y = 150 to clear at y = 250 (cairo writes it as an SMask of a shading).
"""
import os
import random
import subprocess
import sys

import cairo

out = sys.argv[1]
sheets = os.path.join(out, "sheets.pdf")

surface = cairo.PDFSurface(sheets, 612, 792)
ctx = cairo.Context(surface)
ctx.set_source_rgb(0, 0, 0)

# Page 1
ctx.rectangle(100, 200, 200, 60)
ctx.fill()
ctx.set_line_width(4)
ctx.move_to(50, 400)
ctx.line_to(550, 400)
ctx.stroke()
ground = surface.add_outline(cairo.PDF_OUTLINE_ROOT, "A-101 - Ground floor", "page=1", cairo.PDFOutlineFlags.OPEN)
surface.add_outline(ground, "A-101 detail", "page=1", 0)
surface.add_outline(ground, "A-102 – First floor", "dest='sheet-a102'", 0)
surface.add_outline(cairo.PDF_OUTLINE_ROOT, "A-102 again", "page=2", 0)
surface.set_page_label("A-101")
ctx.show_page()

# Page 2
surface.set_size(842, 595)
ctx.tag_begin(cairo.TAG_DEST, "name='sheet-a102'")
ctx.tag_end(cairo.TAG_DEST)
ctx.rectangle(400, 100, 300, 400)
ctx.fill()
surface.set_page_label("A-102")
ctx.show_page()

# Page 3
surface.set_size(1224, 792)
ctx.set_line_width(6)
ctx.move_to(612, 0)
ctx.line_to(612, 792)
ctx.stroke()
surface.set_page_label("S-1")
ctx.show_page()

# Page 4
surface.set_size(300, 200)
surface.set_page_label("4")
ctx.show_page()
surface.finish()

huge = cairo.PDFSurface(os.path.join(out, "huge.pdf"), 20000, 300)
cairo.Context(huge).show_page()
huge.finish()

encrypted = os.path.join(out, "encrypted.pdf")
try:
    import pypdf

    reader = pypdf.PdfReader(sheets)
    writer = pypdf.PdfWriter()
    for page in reader.pages:
        writer.add_page(page)
    writer.encrypt("secret", "owner")
    with open(encrypted, "wb") as f:
        writer.write(f)
except ImportError:
    try:
        subprocess.run(["qpdf", "--encrypt", "secret", "owner", "128", "--use-aes=n", "--", sheets, encrypted],
                       check=True)
    except (OSError, subprocess.CalledProcessError):
        pass



def write_pdf(name, objects):
    """Writes a PDF of the given objects (numbered from 1; object 1 the catalog) with a correct xref table."""
    body = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, text in enumerate(objects, start=1):
        offsets.append(len(body))
        body += b"%d 0 obj\n" % number + text + b"\nendobj\n"
    xref = len(body)
    body += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        body += b"%010d 00000 n \n" % offset
    body += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    with open(os.path.join(out, name), "wb") as f:
        f.write(body)


def stream(dictionary, data):
    """A stream object's text."""
    return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


write_pdf("no-pages.pdf", [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [] /Count 0 >>",
])

with open(sheets, "rb") as f:
    whole = f.read()
with open(os.path.join(out, "truncated.pdf"), "wb") as f:
    f.write(whole[: len(whole) // 2])

header = whole.index(b"\n") + 1
noise = random.Random(29)
with open(os.path.join(out, "corrupt.pdf"), "wb") as f:
    f.write(whole[:header] + bytes(byte ^ noise.randrange(256) for byte in whole[header:]))

enormous = cairo.PDFSurface(os.path.join(out, "enormous.pdf"), 14400, 14400)
cairo.Context(enormous).show_page()
enormous.finish()

# Objects 1-4: catalog, pages, the page, its content; 5 + i: level 9 - i (level 0 last).
spin = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>",
    stream(b"", b"/X Do"),
]
for level in range(9, 0, -1):
    below = len(spin) + 2
    form = b"/Type /XObject /Subtype /Form /BBox [0 0 200 200] /Resources << /XObject << /X %d 0 R >> >>" % below
    spin.append(stream(form, b"/X Do " * 10))
spin.append(stream(b"/Type /XObject /Subtype /Form /BBox [0 0 200 200]", b"0 0 1 1 re f"))
write_pdf("spin.pdf", spin)

text = cairo.PDFSurface(os.path.join(out, "text.pdf"), 600, 400)
ctx = cairo.Context(text)
ctx.set_source_rgb(0, 0, 0)
ctx.set_line_width(2)
ctx.rectangle(50, 50, 500, 300)
ctx.stroke()
ctx.move_to(300, 50)
ctx.line_to(300, 350)
ctx.stroke()
ctx.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL)
ctx.set_font_size(18)
ctx.move_to(100, 200)
ctx.show_text("ROOM 2.01")
ctx.move_to(350, 200)
ctx.show_text("KITCHEN 2.02")
text.finish()

square = b"1000 0 0 0 800 800 d1 0 0 800 800 re f"
triangle = b"1000 0 0 0 800 800 d1 0 0 m 800 0 l 400 800 l f"
to_unicode = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T3 def /CMapType 2 def\n"
              b"1 begincodespacerange <00> <FF> endcodespacerange\n2 beginbfchar <41> <0041> <42> <0042> endbfchar\n"
              b"endcmap CMapName currentdict /CMap defineresource pop end end")
write_pdf("type3.pdf", [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    stream(b"", b"BT /F1 20 Tf 50 100 Td (ABBA) Tj ET"),
    b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
    b"/CharProcs << /a 6 0 R /b 7 0 R >> /Encoding << /Type /Encoding /Differences [65 /a /b] >> "
    b"/FirstChar 65 /LastChar 66 /Widths [1000 1000] /ToUnicode 8 0 R >>",
    stream(b"", square),
    stream(b"", triangle),
    stream(b"", to_unicode),
])

softmask = cairo.PDFSurface(os.path.join(out, "softmask.pdf"), 400, 300)
ctx = cairo.Context(softmask)
ramp = cairo.LinearGradient(0, 0, 400, 0)
ramp.add_color_stop_rgb(0, 1, 0, 0)
ramp.add_color_stop_rgb(1, 0, 0, 1)
ctx.set_source(ramp)
ctx.rectangle(10, 10, 380, 80)
ctx.fill()
fade = cairo.LinearGradient(0, 150, 0, 250)
fade.add_color_stop_rgba(0, 0, 0, 0, 1)
fade.add_color_stop_rgba(1, 0, 0, 0, 0)
ctx.set_source_rgb(0, 0, 0)
ctx.mask(fade)
softmask.finish()
