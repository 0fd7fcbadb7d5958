#!/usr/bin/env python3
"""The fair libvips peer of `planmark tiles` on a PDF: the page drawn at DPI by libvips's pdfload (poppler-glib on
cairo, as planmark-pdf draws it), its alpha dropped (pdfload paints white paper but keeps 4 bands, so every tile
would be an RGBA PNG; planmark's opaque tiles are RGB), then dzsave's google layout with planmark's PNG settings
(256 px tiles, zlib level 3, no row filter, every tile written). One pipeline in one process, as fast as libvips
goes: the vips command line cannot drop the band without an intermediate file.

Usage: python Benchmarks/pdf/vips_rgb.py PLAN.pdf DPI OUT        (needs pyvips: run.sh installs it in a venv)
"""
import sys

import pyvips

pdf, dpi, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
page = pyvips.Image.new_from_file(pdf, dpi=dpi, access="sequential")
page.extract_band(0, n=3).dzsave(out, layout="google", tile_size=256, skip_blanks=-1,
                                 suffix=".png[compression=3,filter=none]")
