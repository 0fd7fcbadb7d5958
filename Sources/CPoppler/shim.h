// poppler's GLib API (Debian: libpoppler-glib-dev): PDF pages opened, measured and drawn onto a cairo context, for
// PDF drawings (PlanMarkPDF). It includes glib, gobject and cairo.
#include <poppler.h>
