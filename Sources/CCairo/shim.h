// cairo's image, PDF and FreeType font APIs (Debian: libcairo2-dev), for the punch-list report.
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-ft.h>
