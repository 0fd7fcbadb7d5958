// cairo's image, PDF, FreeType font and CairoScript surface APIs (Debian: libcairo2-dev), for the punch-list report and
// for planmark-pdf (a page drawn as pixels, or written as CairoScript: its vectors).
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-ft.h>
#include <cairo-script.h>
