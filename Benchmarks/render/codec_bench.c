// The PNG codec's choices measured in isolation (the figures in Sources/CPNG/cpng.c come from this):
//   encode: CPNG's unfiltered writer (row segments deflated on every core) against libpng, same settings
//           (zlib level 3, no filter, default strategy), on an image read from a PNG;
//   decode: CPNG's 8-bit grey/RGB path against libpng's gray_to_rgb + add_alpha transforms.
//
//   cc -O2 -o /tmp/codec_bench Benchmarks/render/codec_bench.c -I Sources/CPNG/include -lpng16 -lz -lpthread
//   /tmp/codec_bench encode|decode IMAGE.png [RUNS]      # prints the median of RUNS interleaved runs of each
#include "../../Sources/CPNG/cpng.c"

#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static uint8_t *read_rgba(const char *path, cpng_header *h, int use_libpng_transforms, double *seconds) {
    cpng_reader *r = cpng_reader_create(0, 0, 8000000);
    if (cpng_reader_open_file(r, path) != CPNG_OK || cpng_reader_read_header(r, h) != CPNG_OK) exit(66);
    size_t n = (size_t)h->width * h->height * 4;
    uint8_t *px = malloc(n);
    double t0 = now();
    if (use_libpng_transforms) {
        if (setjmp(png_jmpbuf(r->png))) exit(65);
        int passes = cpng_reader_set_rgba(r);
        for (int pass = 0; pass < passes; pass++)
            for (uint32_t y = 0; y < h->height; y++) png_read_row(r->png, px + (size_t)y * h->width * 4, NULL);
        png_read_end(r->png, NULL);
    } else if (cpng_reader_read_rgba(r, px, n) != CPNG_OK) {
        exit(65);
    }
    *seconds = now() - t0;
    cpng_reader_destroy(r);
    return px;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s encode|decode IMAGE.png [RUNS]\n", argv[0]); return 64; }
    const int runs = argc > 3 ? atoi(argv[3]) : 5;
    double a[100], b[100];
    cpng_header h;
    double unused;
    if (strcmp(argv[1], "encode") == 0) {
        uint8_t *px = read_rgba(argv[2], &h, 0, &unused);
        size_t size_a = 0, size_b = 0;
        for (int i = 0; i < runs && i < 100; i++) {
            for (int which = 0; which < 2; which++) {
                cpng_write_params p = {.rgba = px, .width = h.width, .height = h.height, .compression_level = 3,
                                       .filters = PNG_FILTER_NONE, .strategy = which == 0 ? -1 : 0};
                uint8_t *out = NULL;
                size_t size = 0;
                char message[512];
                double t0 = now();
                if (cpng_write_memory(&p, &out, &size, message, sizeof message) != CPNG_OK) { puts(message); return 1; }
                (which == 0 ? a : b)[i] = now() - t0;
                *(which == 0 ? &size_a : &size_b) = size;
                cpng_free_buffer(out);
            }
        }
        qsort(a, runs, sizeof *a, compare);
        qsort(b, runs, sizeof *b, compare);
        printf("%ux%u encode, median of %d: every core %.3f s (%zu bytes), libpng %.3f s (%zu bytes)\n", h.width,
               h.height, runs, a[runs / 2], size_a, b[runs / 2], size_b);
    } else {
        for (int i = 0; i < runs && i < 100; i++) {
            free(read_rgba(argv[2], &h, 0, &a[i]));
            free(read_rgba(argv[2], &h, 1, &b[i]));
        }
        qsort(a, runs, sizeof *a, compare);
        qsort(b, runs, sizeof *b, compare);
        printf("%ux%u decode (colour type %d), median of %d: CPNG %.3f s, libpng transforms %.3f s\n", h.width,
               h.height, h.color_type, runs, a[runs / 2], b[runs / 2]);
    }
    return 0;
}
