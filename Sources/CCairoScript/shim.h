// cairo's CairoScript interpreter (Debian: libcairo2-dev ships the header and libcairo-script-interpreter.so), for
// replaying the CairoScript that `planmark-pdf script` writes into a cairo recording surface: the report's vector
// sheet, and planmark-pdf's own trial replay of what it is about to answer.
#include <cairo.h>
#include <cairo-script-interpreter.h>

/// What one replay keeps: the first surface the script makes (the page), and how many it made.
typedef struct {
    cairo_surface_t *page;
    double width;
    double height;
    int surfaces;
} planmark_script_replay_t;

/// The interpreter's surface hook: every surface the script makes is a recording surface of its size (no pixels), and
/// the first is kept (a reference of its own) as the page.
static inline cairo_surface_t *planmark_script_surface_create(void *closure, cairo_content_t content, double width, double height,
                                                              long uid) {
    planmark_script_replay_t *replay = (planmark_script_replay_t *)closure;
    cairo_rectangle_t extents = {0, 0, width, height};
    cairo_surface_t *surface = cairo_recording_surface_create(content, &extents);
    (void)uid;
    replay->surfaces += 1;
    if (replay->page == NULL) {
        replay->page = cairo_surface_reference(surface);
        replay->width = width;
        replay->height = height;
    }
    return surface;
}

/// An interpreter whose surfaces are recording surfaces noted in `replay` (which must outlive it).
static inline cairo_script_interpreter_t *planmark_script_interpreter_create(planmark_script_replay_t *replay) {
    cairo_script_interpreter_t *interpreter = cairo_script_interpreter_create();
    cairo_script_interpreter_hooks_t hooks = {0};
    hooks.closure = replay;
    hooks.surface_create = planmark_script_surface_create;
    cairo_script_interpreter_install_hooks(interpreter, &hooks);
    return interpreter;
}
