// CPNG: libpng's low-level API behind error codes. See include/cpng.h for the contract.
//
// Every exported function that calls into libpng does its own setjmp(png_jmpbuf(...)); the error
// callback records the message and longjmps back there, so control never unwinds through Swift.
// State that must survive a longjmp lives in heap structs reached through pointers, never in
// automatic variables modified after setjmp.

#define _GNU_SOURCE  // madvise
#include "cpng.h"

#include <errno.h>
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

// MARK: - Shared error and warning collection

enum { CPNG_MESSAGE_SIZE = 512, CPNG_WARNINGS_SIZE = 1024, CPNG_MAX_WARNINGS = 8 };

typedef struct cpng_diagnostics {
    char message[CPNG_MESSAGE_SIZE];
    char warnings[CPNG_WARNINGS_SIZE];
    int warning_count;
} cpng_diagnostics;

static void cpng_error_fn(png_structp png, png_const_charp text) {
    cpng_diagnostics *diag = (cpng_diagnostics *)png_get_error_ptr(png);
    // Keep the first message: an I/O callback may already have set a more precise one.
    if (diag->message[0] == '\0') snprintf(diag->message, sizeof diag->message, "%s", text ? text : "libpng error");
    png_longjmp(png, 1);
}

static void cpng_warning_fn(png_structp png, png_const_charp text) {
    cpng_diagnostics *diag = (cpng_diagnostics *)png_get_error_ptr(png);
    if (diag->warning_count >= CPNG_MAX_WARNINGS || text == NULL) return;
    size_t used = strlen(diag->warnings);
    if (used + 2 >= sizeof diag->warnings) return;
    snprintf(diag->warnings + used, sizeof diag->warnings - used, "%s%s", used ? "\n" : "", text);
    diag->warning_count += 1;
}

static int cpng_is_out_of_memory(const char *message) {
    return strstr(message, "ut of memory") != NULL || strstr(message, "ut of Memory") != NULL;
}

// MARK: - Reader

enum cpng_reader_state { READER_CREATED, READER_OPEN, READER_HEADER, READER_ROWS, READER_DONE, READER_FAILED };

struct cpng_reader {
    png_structp png;
    png_infop info;
    FILE *file;
    const uint8_t *memory;
    size_t memory_size;
    size_t memory_position;
    uint32_t max_width;
    uint32_t max_height;
    size_t chunk_malloc_max;
    enum cpng_reader_state state;
    int io_errno;            // errno of a failed read, 0 otherwise
    uint8_t sniff[24];       // the first 24 bytes seen: signature, IHDR length, type, width, height
    size_t sniffed;
    cpng_header header;
    cpng_diagnostics diag;
    uint8_t *row;            // READER_ROWS: one row as libpng delivers it (grey/RGB fast path), else NULL
    int row_expand;          // READER_ROWS: 1 grey, 3 RGB (expanded here), 0 libpng's RGBA transforms
    uint32_t rows_read;      // READER_ROWS: rows delivered so far
};

// Ancillary chunks the renderer never uses: skipped unread (no allocation, no decompression).
// gAMA/cHRM/sRGB/iCCP are among them because the gamma rule is "values as stored, treated as sRGB".
static const png_byte cpng_ignored_chunks[] =
    "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0sCAL\0sBIT\0sPLT\0sRGB\0sTER\0tEXt\0tIME\0zTXt";

static size_t cpng_raw_read(cpng_reader *r, uint8_t *out, size_t length) {
    size_t got;
    if (r->file != NULL) {
        got = fread(out, 1, length, r->file);
        if (got < length && ferror(r->file)) r->io_errno = errno ? errno : EIO;
    } else {
        size_t available = r->memory_size - r->memory_position;
        got = length < available ? length : available;
        if (got > 0) memcpy(out, r->memory + r->memory_position, got);
        r->memory_position += got;
    }
    if (r->sniffed < sizeof r->sniff) {
        size_t take = sizeof r->sniff - r->sniffed;
        if (take > got) take = got;
        memcpy(r->sniff + r->sniffed, out, take);
        r->sniffed += take;
    }
    return got;
}

static void cpng_read_fn(png_structp png, png_bytep out, size_t length) {
    cpng_reader *r = (cpng_reader *)png_get_io_ptr(png);
    if (cpng_raw_read(r, out, length) == length) return;
    if (r->io_errno != 0) {
        snprintf(r->diag.message, sizeof r->diag.message, "read error: %s", strerror(r->io_errno));
    } else {
        snprintf(r->diag.message, sizeof r->diag.message, "unexpected end of file (truncated PNG)");
    }
    png_error(png, r->diag.message);
}

static uint32_t cpng_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

// Classifies a failure after libpng longjmp'd back (or a direct failure), marking the reader failed.
static cpng_status cpng_reader_fail(cpng_reader *r) {
    r->state = READER_FAILED;
    if (r->io_errno != 0) return CPNG_ERR_READ;
    if (r->sniffed >= 24 && memcmp(r->sniff + 12, "IHDR", 4) == 0) {
        uint32_t width = cpng_be32(r->sniff + 16), height = cpng_be32(r->sniff + 20);
        if (width > r->max_width || height > r->max_height) {
            r->header.width = width;
            r->header.height = height;
            return CPNG_ERR_TOO_LARGE;
        }
    }
    if (cpng_is_out_of_memory(r->diag.message)) return CPNG_ERR_NO_MEMORY;
    return CPNG_ERR_CORRUPT;
}

cpng_reader *cpng_reader_create(uint32_t max_width, uint32_t max_height, size_t chunk_malloc_max) {
    cpng_reader *r = (cpng_reader *)calloc(1, sizeof *r);
    if (r == NULL) return NULL;
    const uint32_t limit = 0x7fffffffU;  // PNG_UINT_31_MAX
    r->max_width = max_width == 0 || max_width > limit ? limit : max_width;
    r->max_height = max_height == 0 || max_height > limit ? limit : max_height;
    r->chunk_malloc_max = chunk_malloc_max;
    r->state = READER_CREATED;
    return r;
}

static cpng_status cpng_reader_start(cpng_reader *r) {
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r->diag, cpng_error_fn, cpng_warning_fn);
    if (r->png == NULL) {
        snprintf(r->diag.message, sizeof r->diag.message, "out of memory");
        r->state = READER_FAILED;
        return CPNG_ERR_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(r->png))) return cpng_reader_fail(r);
    r->info = png_create_info_struct(r->png);
    if (r->info == NULL) png_error(r->png, "Out of memory");
    png_set_read_fn(r->png, r, cpng_read_fn);
    png_set_user_limits(r->png, r->max_width, r->max_height);
    png_set_chunk_cache_max(r->png, 100);
    png_set_chunk_malloc_max(r->png, r->chunk_malloc_max);
    png_set_benign_errors(r->png, 1);
    png_set_keep_unknown_chunks(r->png, PNG_HANDLE_CHUNK_NEVER, cpng_ignored_chunks,
                                (int)(sizeof cpng_ignored_chunks / 5));
    r->state = READER_OPEN;
    return CPNG_OK;
}

cpng_status cpng_reader_open_file(cpng_reader *r, const char *path) {
    if (r == NULL || path == NULL || r->state != READER_CREATED) return CPNG_ERR_USAGE;
    r->file = fopen(path, "rb");
    if (r->file == NULL) {
        int error = errno;
        snprintf(r->diag.message, sizeof r->diag.message, "%s", strerror(error));
        r->state = READER_FAILED;
        return error == ENOENT ? CPNG_ERR_NOT_FOUND : CPNG_ERR_OPEN;
    }
    struct stat info;
    if (fstat(fileno(r->file), &info) == 0 && S_ISDIR(info.st_mode)) {
        snprintf(r->diag.message, sizeof r->diag.message, "%s", strerror(EISDIR));
        r->state = READER_FAILED;
        return CPNG_ERR_OPEN;
    }
    return cpng_reader_start(r);
}

cpng_status cpng_reader_open_memory(cpng_reader *r, const uint8_t *data, size_t size) {
    if (r == NULL || (data == NULL && size > 0) || r->state != READER_CREATED) return CPNG_ERR_USAGE;
    r->memory = data;
    r->memory_size = size;
    return cpng_reader_start(r);
}

cpng_status cpng_reader_read_header(cpng_reader *r, cpng_header *header) {
    if (r == NULL || header == NULL || r->state != READER_OPEN) return CPNG_ERR_USAGE;
    // The signature is checked here rather than by libpng, to tell "not a PNG" from corruption.
    uint8_t signature[8];
    size_t got = cpng_raw_read(r, signature, sizeof signature);
    if (r->io_errno != 0) {
        snprintf(r->diag.message, sizeof r->diag.message, "read error: %s", strerror(r->io_errno));
        return cpng_reader_fail(r);
    }
    if (got < 8 || png_sig_cmp(signature, 0, 8) != 0) {
        r->state = READER_FAILED;
        if (got >= 4 && png_sig_cmp(signature, 0, 4) == 0) {
            snprintf(r->diag.message, sizeof r->diag.message,
                     got < 8 ? "truncated PNG signature"
                             : "PNG signature damaged (file corrupted by a text-mode/ASCII transfer)");
            return CPNG_ERR_CORRUPT;
        }
        snprintf(r->diag.message, sizeof r->diag.message, got == 0 ? "not a PNG file (empty)" : "not a PNG file");
        return CPNG_ERR_NOT_PNG;
    }
    if (setjmp(png_jmpbuf(r->png))) return cpng_reader_fail(r);
    png_set_sig_bytes(r->png, 8);
    png_read_info(r->png, r->info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(r->png, r->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    cpng_header h;
    memset(&h, 0, sizeof h);
    h.width = width;
    h.height = height;
    h.bit_depth = bit_depth;
    h.color_type = color_type;
    h.interlaced = interlace != PNG_INTERLACE_NONE;
    h.has_trns = png_get_valid(r->png, r->info, PNG_INFO_tRNS) != 0;
    png_uint_32 res_x = 0, res_y = 0;
    int unit = 0;
    if (png_get_pHYs(r->png, r->info, &res_x, &res_y, &unit) != 0) {
        h.has_phys = 1;
        h.phys_x = res_x;
        h.phys_y = res_y;
        h.phys_unit_metre = unit == PNG_RESOLUTION_METER;
    }
    r->header = h;
    *header = h;
    r->state = READER_HEADER;
    return CPNG_OK;
}

/// Asks libpng to normalise every row to 8-bit RGBA; returns the number of interlace passes.
static int cpng_reader_set_rgba(cpng_reader *r) {
    png_structp png = r->png;
    const int color_type = r->header.color_type;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && r->header.bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (r->header.has_trns) png_set_tRNS_to_alpha(png);  // compared at full depth, before 16-bit scaling
    if (r->header.bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !r->header.has_trns) png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    const int passes = png_set_interlace_handling(png);
    png_read_update_info(png, r->info);
    return passes;
}

// 8-bit grey or RGB rows to RGBA with alpha 255: what png_set_gray_to_rgb / png_set_add_alpha do, in one
// loop the compiler vectorises (libpng's transforms take one generic pass per transform, per pixel).
static void cpng_grey_to_rgba(const uint8_t *restrict grey, uint8_t *restrict out, size_t count) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (size_t i = 0; i < count; i++) {
        const uint32_t pixel = (uint32_t)grey[i] * 0x010101u | 0xFF000000u;
        memcpy(out + 4 * i, &pixel, 4);
    }
#else
    for (size_t i = 0; i < count; i++) {
        out[4 * i] = out[4 * i + 1] = out[4 * i + 2] = grey[i];
        out[4 * i + 3] = 0xFF;
    }
#endif
}

static void cpng_rgb_to_rgba(const uint8_t *restrict rgb, uint8_t *restrict out, size_t count) {
    for (size_t i = 0; i < count; i++) {
        out[4 * i] = rgb[3 * i];
        out[4 * i + 1] = rgb[3 * i + 1];
        out[4 * i + 2] = rgb[3 * i + 2];
        out[4 * i + 3] = 0xFF;
    }
}

// The common drawing formats (8-bit grey or RGB, not interlaced, no tRNS) are read untransformed into one
// reused row and expanded by the loops above. Measured with Benchmarks/render/codec_bench.c on the render
// benchmark's A2 drawing (8-bit grey, 7016x4961; median of 5 interleaved runs, load average near 17 on 2
// cores, so only the ratio means much): this path 6.03 s, libpng's transforms 6.71 s (0.90x). Every other
// format goes through libpng's transforms (cpng_reader_set_rgba). Asking for transparent huge pages for
// the pixel buffer (MADV_HUGEPAGE) showed no gain in the same measurement; populating it from a second
// thread (below) did.
static cpng_status cpng_reader_read_expanding(cpng_reader *r, uint8_t *pixels, size_t stride) {
    uint8_t *volatile row = NULL;
    if (setjmp(png_jmpbuf(r->png))) {
        free(row);
        return cpng_reader_fail(r);
    }
    png_structp png = r->png;
    const int grey = r->header.color_type == PNG_COLOR_TYPE_GRAY;
    const size_t width = r->header.width;
    png_read_update_info(png, r->info);
    if (png_get_rowbytes(png, r->info) != width * (grey ? 1 : 3)) png_error(png, "unexpected row layout");
    row = (uint8_t *)malloc(width * 3);
    if (row == NULL) {
        snprintf(r->diag.message, sizeof r->diag.message, "out of memory for one row");
        return CPNG_ERR_NO_MEMORY;
    }
    for (uint32_t y = 0; y < r->header.height; y++) {
        png_read_row(png, row, NULL);
        if (grey) cpng_grey_to_rgba(row, pixels + (size_t)y * stride, width);
        else cpng_rgb_to_rgba(row, pixels + (size_t)y * stride, width);
    }
    png_read_end(png, NULL);
    free(row);
    row = NULL;
    r->state = READER_DONE;
    return CPNG_OK;
}

// MARK: - Faulting the pixel buffer in beside the decoder

// The pixel buffer is fresh memory: the first write to each 4 KiB page costs a page fault and the kernel's
// zeroing of the page, which was about 40% of decoding a grey A2 drawing (perf, Benchmarks/render). A
// second thread asks the kernel to map the whole buffer for writing (MADV_POPULATE_WRITE, Linux 5.14; it
// never changes bytes already written) while this thread inflates rows into it, so that work runs on
// the other core. Where the call is unsupported the thread ends at once and nothing changes.
// Measured with Benchmarks/render/codec_bench.c on the A2 drawing (5 interleaved single runs, load average
// near 20 on 2 cores): median 2.29 s with this thread, 3.30 s without (0.69x); libpng's own transforms 3.75 s.
#if defined(__linux__)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
typedef struct cpng_populate {
    uint8_t *start;
    size_t size;
    pthread_t thread;
    int started;
} cpng_populate;

static void *cpng_populate_worker(void *argument) {
    cpng_populate *job = (cpng_populate *)argument;
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t begin = ((uintptr_t)job->start + page - 1) & ~(page - 1);
    const uintptr_t end = ((uintptr_t)job->start + job->size) & ~(page - 1);
    const uintptr_t step = (uintptr_t)4 << 20;  // ahead of the decoder in 4 MiB steps
    while (begin < end) {
        const uintptr_t next = end - begin > step ? begin + step : end;
        if (madvise((void *)begin, next - begin, MADV_POPULATE_WRITE) != 0) break;
        begin = next;
    }
    return NULL;
}
#endif

/// Starts populating `pixels` on another thread when the buffer is large (at least 8 MiB).
static void cpng_populate_start(void *state, uint8_t *pixels, size_t size) {
#if defined(__linux__)
    cpng_populate *job = (cpng_populate *)state;
    job->start = pixels;
    job->size = size;
    job->started = size >= ((size_t)8 << 20) && pthread_create(&job->thread, NULL, cpng_populate_worker, job) == 0;
#else
    (void)state;
    (void)pixels;
    (void)size;
#endif
}

static void cpng_populate_finish(void *state) {
#if defined(__linux__)
    cpng_populate *job = (cpng_populate *)state;
    if (job->started) pthread_join(job->thread, NULL);
    job->started = 0;
#else
    (void)state;
#endif
}

static cpng_status cpng_reader_read_rgba_now(cpng_reader *r, uint8_t *pixels, size_t size);

cpng_status cpng_reader_read_rgba(cpng_reader *r, uint8_t *pixels, size_t size) {
    if (r == NULL || pixels == NULL || r->state != READER_HEADER) return CPNG_ERR_USAGE;
#if defined(__linux__)
    cpng_populate populate;
#else
    int populate;
#endif
    memset(&populate, 0, sizeof populate);
    if (r->header.height != 0 && size == (size_t)r->header.width * 4 * r->header.height) {
        cpng_populate_start(&populate, pixels, size);
    }
    cpng_status status = cpng_reader_read_rgba_now(r, pixels, size);
    cpng_populate_finish(&populate);
    return status;
}

static cpng_status cpng_reader_read_rgba_now(cpng_reader *r, uint8_t *pixels, size_t size) {
    if (r == NULL || pixels == NULL || r->state != READER_HEADER) return CPNG_ERR_USAGE;
    const size_t stride = (size_t)r->header.width * 4;
    if (r->header.height != 0 && stride > SIZE_MAX / r->header.height) return CPNG_ERR_USAGE;
    if (size != stride * r->header.height) {
        snprintf(r->diag.message, sizeof r->diag.message, "pixel buffer size mismatch");
        return CPNG_ERR_USAGE;
    }
    if (!r->header.interlaced && r->header.bit_depth == 8 && !r->header.has_trns &&
        (r->header.color_type == PNG_COLOR_TYPE_GRAY || r->header.color_type == PNG_COLOR_TYPE_RGB)) {
        return cpng_reader_read_expanding(r, pixels, stride);
    }
    if (setjmp(png_jmpbuf(r->png))) return cpng_reader_fail(r);
    png_structp png = r->png;
    const int passes = cpng_reader_set_rgba(r);
    if (png_get_rowbytes(png, r->info) != stride || png_get_bit_depth(png, r->info) != 8 ||
        png_get_channels(png, r->info) != 4) {
        png_error(png, "unexpected row layout after normalising to RGBA");
    }
    // With interlace handling each pass fills its own pixels of the same final rows in place.
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < r->header.height; y++) png_read_row(png, pixels + (size_t)y * stride, NULL);
    }
    png_read_end(png, NULL);
    r->state = READER_DONE;
    return CPNG_OK;
}

cpng_status cpng_reader_check_rows(cpng_reader *r) {
    if (r == NULL || r->state != READER_HEADER) return CPNG_ERR_USAGE;
    // Rows are normalised exactly as cpng_reader_read_rgba does, into one reused row buffer, so the
    // whole IDAT stream, its CRCs, filters and palette indices are checked with memory for one row only.
    uint8_t *volatile row = NULL;
    if (setjmp(png_jmpbuf(r->png))) {
        free(row);
        return cpng_reader_fail(r);
    }
    png_structp png = r->png;
    const int passes = cpng_reader_set_rgba(r);
    const size_t rowbytes = png_get_rowbytes(png, r->info);
    row = malloc(rowbytes > 0 ? rowbytes : 1);
    if (row == NULL) {
        snprintf(r->diag.message, sizeof r->diag.message, "out of memory for one row");
        return CPNG_ERR_NO_MEMORY;
    }
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < r->header.height; y++) png_read_row(png, row, NULL);
    }
    png_read_end(png, NULL);
    free(row);
    row = NULL;
    r->state = READER_DONE;
    return CPNG_OK;
}

// MARK: - Rows in bands (the tile pyramid)

cpng_status cpng_reader_begin_rows(cpng_reader *r) {
    if (r == NULL || r->state != READER_HEADER) return CPNG_ERR_USAGE;
    if (r->header.interlaced) {
        snprintf(r->diag.message, sizeof r->diag.message, "interlaced images are read whole");
        return CPNG_ERR_USAGE;
    }
    if (setjmp(png_jmpbuf(r->png))) return cpng_reader_fail(r);
    const size_t width = r->header.width;
#if defined(PNG_IGNORE_ADLER32)
    // Every compressed byte is already checked by its IDAT chunk's CRC; zlib's Adler-32 of the inflated
    // rows (420 MB for an A0 sheet) would check zlib itself, on the one serial part of making a tile pyramid.
    png_set_option(r->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    if (r->header.bit_depth == 8 && !r->header.has_trns &&
        (r->header.color_type == PNG_COLOR_TYPE_GRAY || r->header.color_type == PNG_COLOR_TYPE_RGB)) {
        r->row_expand = r->header.color_type == PNG_COLOR_TYPE_GRAY ? 1 : 3;
        png_read_update_info(r->png, r->info);
        if (png_get_rowbytes(r->png, r->info) != width * (size_t)r->row_expand) png_error(r->png, "unexpected row layout");
        r->row = (uint8_t *)malloc(width * 3);
        if (r->row == NULL) {
            snprintf(r->diag.message, sizeof r->diag.message, "out of memory for one row");
            r->state = READER_FAILED;
            return CPNG_ERR_NO_MEMORY;
        }
    } else {
        r->row_expand = 0;
        (void)cpng_reader_set_rgba(r);
        if (png_get_rowbytes(r->png, r->info) != width * 4 || png_get_bit_depth(r->png, r->info) != 8 ||
            png_get_channels(r->png, r->info) != 4) {
            png_error(r->png, "unexpected row layout after normalising to RGBA");
        }
    }
    r->rows_read = 0;
    r->state = READER_ROWS;
    return CPNG_OK;
}

cpng_status cpng_reader_read_rows(cpng_reader *r, uint8_t *pixels, uint32_t count) {
    if (r == NULL || pixels == NULL || r->state != READER_ROWS || count > r->header.height - r->rows_read) {
        return CPNG_ERR_USAGE;
    }
    if (setjmp(png_jmpbuf(r->png))) return cpng_reader_fail(r);
    const size_t width = r->header.width, stride = width * 4;
    for (uint32_t i = 0; i < count; i++) {
        uint8_t *out = pixels + (size_t)i * stride;
        if (r->row_expand == 0) {
            png_read_row(r->png, out, NULL);
        } else {
            png_read_row(r->png, r->row, NULL);
            if (r->row_expand == 1) cpng_grey_to_rgba(r->row, out, width);
            else cpng_rgb_to_rgba(r->row, out, width);
        }
        r->rows_read += 1;
    }
    if (r->rows_read == r->header.height) {
        png_read_end(r->png, NULL);
        free(r->row);
        r->row = NULL;
        r->state = READER_DONE;
    }
    return CPNG_OK;
}

void cpng_reader_get_header(const cpng_reader *r, cpng_header *header) {
    if (r != NULL && header != NULL) *header = r->header;
}

const char *cpng_reader_message(const cpng_reader *r) { return r ? r->diag.message : ""; }

const char *cpng_reader_warnings(const cpng_reader *r) { return r ? r->diag.warnings : ""; }

void cpng_reader_destroy(cpng_reader *r) {
    if (r == NULL) return;
    if (r->png != NULL) png_destroy_read_struct(&r->png, r->info ? &r->info : NULL, NULL);
    if (r->file != NULL) fclose(r->file);
    free(r->row);
    free(r);
}

// MARK: - Writer

typedef struct cpng_write_target {
    FILE *file;        // file output when non-NULL
    uint8_t *buffer;   // memory output otherwise
    size_t size;
    size_t capacity;
    int io_errno;
    int out_of_memory;
    cpng_diagnostics diag;
} cpng_write_target;

static void cpng_write_fn(png_structp png, png_bytep data, size_t length) {
    cpng_write_target *t = (cpng_write_target *)png_get_io_ptr(png);
    if (t->file != NULL) {
        if (fwrite(data, 1, length, t->file) != length) {
            t->io_errno = errno ? errno : EIO;
            snprintf(t->diag.message, sizeof t->diag.message, "%s", strerror(t->io_errno));
            png_error(png, t->diag.message);
        }
        return;
    }
    if (length > t->capacity - t->size) {
        size_t capacity = t->capacity ? t->capacity : 65536;
        while (capacity - t->size < length) {
            if (capacity > SIZE_MAX / 2) capacity = SIZE_MAX;
            else capacity *= 2;
            if (capacity == SIZE_MAX) break;
        }
        uint8_t *grown = capacity - t->size >= length ? (uint8_t *)realloc(t->buffer, capacity) : NULL;
        if (grown == NULL) {
            t->out_of_memory = 1;
            png_error(png, "Out of memory");
        }
        t->buffer = grown;
        t->capacity = capacity;
    }
    memcpy(t->buffer + t->size, data, length);
    t->size += length;
}

static void cpng_flush_fn(png_structp png) {
    cpng_write_target *t = (cpng_write_target *)png_get_io_ptr(png);
    if (t->file != NULL && fflush(t->file) != 0) {
        t->io_errno = errno ? errno : EIO;
        snprintf(t->diag.message, sizeof t->diag.message, "%s", strerror(t->io_errno));
        png_error(png, t->diag.message);
    }
}

int cpng_rgba_is_opaque(const uint8_t *rgba, size_t pixel_count) {
    // Blocks of 1024 pixels ANDed without a branch (the compiler vectorises it), one test a block.
    size_t i = 0;
    while (i < pixel_count) {
        size_t end = pixel_count - i > 1024 ? i + 1024 : pixel_count;
        uint8_t all = 0xFF;
        for (size_t k = i; k < end; k++) all &= rgba[k * 4 + 3];
        if (all != 0xFF) return 0;
        i = end;
    }
    return 1;
}

// MARK: - Unfiltered writer: zlib on every core, one standard zlib stream

// PNG chunks written directly (signature, IHDR, sRGB, pHYs, IDAT..., IEND, each with its CRC) when no
// row filter is asked for, which is the default. The image data is cut into segments of whole rows;
// each segment is deflated on its own (raw deflate, fresh dictionary) by whichever thread takes it, and
// every segment but the last ends with Z_SYNC_FLUSH, which closes its last block without BFINAL and
// pads it to a byte boundary, so the segments concatenate into one valid deflate stream. A zlib header
// in front and the Adler-32 of all rows (per-segment checksums joined with adler32_combine) behind make
// it the one zlib stream a PNG holds: any decoder reads it as usual.
//
// Segments are a fixed function of the image size (about 4 megapixels each, at most 64), never of the
// number of cores, so the same image gives the same bytes on every machine. Each seam costs the
// dictionary of the segment before it: 8 seams on an A2 sheet add well under 0.1% to the file.
//
// Measured with Benchmarks/render/codec_bench.c (median of 5 interleaved runs, level 3, no filter) on the
// A2 review image of the render benchmark (7016x4961, RGB) on the project's 2-core machine while other
// builds kept its load average near 17, so only the ratio means much: every core 7.37 s, libpng alone
// 10.90 s (0.68x the time), 5,386,592 bytes against 5,385,667 (+0.02% for the seams). On an idle machine
// libpng took 0.27 s (A2) and 1.21 s (A0), so two free cores bring that towards half.
// libdeflate (Debian libdeflate 1.14) compresses a whole buffer faster than zlib at the same level, but it
// cannot end a stream without BFINAL, so its segments cannot be joined into one stream, and one buffer
// of all filtered rows would add 0.75x the RGBA size to peak memory; zlib-ng is not packaged in Debian 12.
// So: zlib, on every core.

enum { CPNG_SEGMENT_PIXELS = 1 << 22, CPNG_MAX_SEGMENTS = 64, CPNG_MAX_THREADS = 8, CPNG_IDAT_MAX = 1 << 20 };

typedef struct cpng_segment {
    uint32_t y0, y1;     // rows y0..<y1
    uint8_t *out;        // raw deflate bytes
    size_t size, capacity;
    uLong adler;         // Adler-32 of the segment's filtered rows
    size_t raw_size;     // bytes of filtered rows
    int failed;          // 1 out of memory, 2 zlib error
} cpng_segment;

typedef struct cpng_job {
    const cpng_write_params *params;
    int channels;
    cpng_segment *segments;
    int segment_count;
    int next;            // next segment to take (under lock)
    pthread_mutex_t lock;
} cpng_job;

static int cpng_segment_grow(cpng_segment *s, z_stream *z) {
    size_t capacity = s->capacity ? s->capacity * 2 : 1 << 20;
    uint8_t *grown = (uint8_t *)realloc(s->out, capacity);
    if (grown == NULL) return 0;
    s->out = grown;
    s->capacity = capacity;
    z->next_out = s->out + s->size;
    z->avail_out = (uInt)(capacity - s->size > 0x40000000 ? 0x40000000 : capacity - s->size);
    return 1;
}

/// Deflates rows y0..<y1 of the image into s->out; the last segment finishes the stream.
static void cpng_deflate_segment(const cpng_job *job, cpng_segment *s, int last) {
    const cpng_write_params *p = job->params;
    const int channels = job->channels;
    const size_t row_bytes = 1 + (size_t)p->width * channels;
    size_t rows_per_chunk = (256 * 1024) / row_bytes;
    if (rows_per_chunk == 0) rows_per_chunk = 1;
    uint8_t *chunk = (uint8_t *)malloc(rows_per_chunk * row_bytes);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (chunk == NULL || deflateInit2(&z, p->compression_level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(chunk);
        s->failed = 1;
        return;
    }
    s->adler = adler32(0L, Z_NULL, 0);
    s->size = 0;
    z.avail_out = 0;
    for (uint32_t y = s->y0; y < s->y1;) {
        uint32_t end = y + (uint32_t)rows_per_chunk < s->y1 ? y + (uint32_t)rows_per_chunk : s->y1;
        uint8_t *o = chunk;
        for (uint32_t row = y; row < end; row++) {
            const uint8_t *in = p->rgba + (size_t)row * p->width * 4;
            *o++ = 0;  // filter type None
            if (channels == 4) {
                memcpy(o, in, (size_t)p->width * 4);
                o += (size_t)p->width * 4;
            } else {
                for (uint32_t x = 0; x < p->width; x++, in += 4, o += 3) {
                    o[0] = in[0];
                    o[1] = in[1];
                    o[2] = in[2];
                }
            }
        }
        const size_t n = (size_t)(o - chunk);
        s->adler = adler32(s->adler, chunk, (uInt)n);
        s->raw_size += n;
        const int flush = end < s->y1 ? Z_NO_FLUSH : (last ? Z_FINISH : Z_SYNC_FLUSH);
        z.next_in = chunk;
        z.avail_in = (uInt)n;
        for (;;) {
            if (z.avail_out == 0 && !cpng_segment_grow(s, &z)) { s->failed = 1; goto done; }
            const uInt before = z.avail_out;
            int rc = deflate(&z, flush);
            s->size += before - z.avail_out;
            if (rc == Z_STREAM_ERROR) { s->failed = 2; goto done; }
            if (flush == Z_FINISH) {
                if (rc == Z_STREAM_END) break;
            } else if (z.avail_in == 0 && z.avail_out != 0) {
                break;
            }
        }
        y = end;
    }
done:
    deflateEnd(&z);
    free(chunk);
}

static void *cpng_deflate_worker(void *argument) {
    cpng_job *job = (cpng_job *)argument;
    for (;;) {
        pthread_mutex_lock(&job->lock);
        int index = job->next < job->segment_count ? job->next++ : -1;
        pthread_mutex_unlock(&job->lock);
        if (index < 0) return NULL;
        cpng_deflate_segment(job, &job->segments[index], index == job->segment_count - 1);
    }
}

static uint32_t cpng_crc_chunk(const char *type, const uint8_t *data, size_t length) {
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (length > 0) crc = crc32(crc, data, (uInt)length);
    return (uint32_t)crc;
}

static void cpng_put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/// Appends bytes to the output (file or memory); 0 on failure with the target's message set.
static int cpng_emit(cpng_write_target *t, const uint8_t *data, size_t length) {
    if (t->file != NULL) {
        if (fwrite(data, 1, length, t->file) != length) {
            t->io_errno = errno ? errno : EIO;
            snprintf(t->diag.message, sizeof t->diag.message, "%s", strerror(t->io_errno));
            return 0;
        }
        return 1;
    }
    if (length > t->capacity - t->size) {
        size_t capacity = t->capacity ? t->capacity : 65536;
        while (capacity - t->size < length) {
            if (capacity > SIZE_MAX / 2) { capacity = SIZE_MAX; break; }
            capacity *= 2;
        }
        uint8_t *grown = capacity - t->size >= length ? (uint8_t *)realloc(t->buffer, capacity) : NULL;
        if (grown == NULL) {
            t->out_of_memory = 1;
            snprintf(t->diag.message, sizeof t->diag.message, "out of memory");
            return 0;
        }
        t->buffer = grown;
        t->capacity = capacity;
    }
    memcpy(t->buffer + t->size, data, length);
    t->size += length;
    return 1;
}

static int cpng_emit_chunk(cpng_write_target *t, const char *type, const uint8_t *data, size_t length) {
    uint8_t head[8], tail[4];
    cpng_put32(head, (uint32_t)length);
    memcpy(head + 4, type, 4);
    cpng_put32(tail, cpng_crc_chunk(type, data, length));
    return cpng_emit(t, head, 8) && (length == 0 || cpng_emit(t, data, length)) && cpng_emit(t, tail, 4);
}

/// IDAT chunks of at most CPNG_IDAT_MAX bytes, filled from a staging buffer.
typedef struct cpng_idat_writer {
    cpng_write_target *t;
    uint8_t *stage;
    size_t used;
} cpng_idat_writer;

static int cpng_idat_put(cpng_idat_writer *w, const uint8_t *data, size_t length) {
    while (length > 0) {
        size_t take = CPNG_IDAT_MAX - w->used < length ? CPNG_IDAT_MAX - w->used : length;
        memcpy(w->stage + w->used, data, take);
        w->used += take;
        data += take;
        length -= take;
        if (w->used == CPNG_IDAT_MAX) {
            if (!cpng_emit_chunk(w->t, "IDAT", w->stage, w->used)) return 0;
            w->used = 0;
        }
    }
    return 1;
}

static long cpng_thread_count(int segments) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    if (cores > CPNG_MAX_THREADS) cores = CPNG_MAX_THREADS;
    return cores < segments ? cores : segments;
}

/// The unfiltered PNG of p (see the MARK comment above). Errors leave the message in t->diag.
/// - Complexity: O(width × height) time over min(cores, segments) threads; memory: the compressed
///   output plus 256 KB of rows per thread.
static cpng_status cpng_encode_unfiltered(const cpng_write_params *p, cpng_write_target *t, int opaque) {
    const int channels = opaque ? 3 : 4;
    const uint64_t pixels = (uint64_t)p->width * p->height;
    uint64_t wanted = (pixels + CPNG_SEGMENT_PIXELS - 1) / CPNG_SEGMENT_PIXELS;
    if (wanted > CPNG_MAX_SEGMENTS) wanted = CPNG_MAX_SEGMENTS;
    if (wanted > p->height) wanted = p->height;
    if (wanted < 1) wanted = 1;
    const int count = (int)wanted;
    cpng_segment *segments = (cpng_segment *)calloc((size_t)count, sizeof *segments);
    uint8_t *stage = (uint8_t *)malloc(CPNG_IDAT_MAX);
    if (segments == NULL || stage == NULL) {
        free(segments);
        free(stage);
        snprintf(t->diag.message, sizeof t->diag.message, "out of memory");
        return CPNG_ERR_NO_MEMORY;
    }
    for (int i = 0; i < count; i++) {
        segments[i].y0 = (uint32_t)((uint64_t)p->height * i / count);
        segments[i].y1 = (uint32_t)((uint64_t)p->height * (i + 1) / count);
    }
    cpng_job job = {.params = p, .channels = channels, .segments = segments, .segment_count = count, .next = 0};
    pthread_mutex_init(&job.lock, NULL);
    pthread_t threads[CPNG_MAX_THREADS];
    int started = 0;
    const long thread_count = cpng_thread_count(count);
    for (long i = 1; i < thread_count; i++) {
        if (pthread_create(&threads[started], NULL, cpng_deflate_worker, &job) == 0) started++;
    }
    cpng_deflate_worker(&job);  // this thread works too; fewer threads only take longer
    for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
    pthread_mutex_destroy(&job.lock);

    cpng_status status = CPNG_OK;
    for (int i = 0; i < count && status == CPNG_OK; i++) {
        if (segments[i].failed == 1) {
            snprintf(t->diag.message, sizeof t->diag.message, "out of memory");
            status = CPNG_ERR_NO_MEMORY;
        } else if (segments[i].failed) {
            snprintf(t->diag.message, sizeof t->diag.message, "zlib stream error");
            status = CPNG_ERR_WRITE;
        }
    }
    if (status == CPNG_OK) {
        static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
        uint8_t ihdr[13];
        cpng_put32(ihdr, p->width);
        cpng_put32(ihdr + 4, p->height);
        ihdr[8] = 8;
        ihdr[9] = opaque ? 2 : 6;
        ihdr[10] = ihdr[11] = ihdr[12] = 0;
        const uint8_t srgb[1] = {0};  // perceptual
        uint8_t phys[9];
        cpng_put32(phys, p->phys_x);
        cpng_put32(phys + 4, p->phys_y);
        phys[8] = p->phys_unit_metre ? 1 : 0;
        // zlib header as deflateInit would write it: 32K window, FLEVEL from the level, check bits.
        const int level = p->compression_level;
        const unsigned flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
        unsigned header = (0x78u << 8) | (flevel << 6);
        header += 31 - header % 31;
        const uint8_t zhead[2] = {(uint8_t)(header >> 8), (uint8_t)header};
        uLong adler = segments[0].adler;
        for (int i = 1; i < count; i++) adler = adler32_combine(adler, segments[i].adler, (z_off_t)segments[i].raw_size);
        uint8_t ztail[4];
        cpng_put32(ztail, (uint32_t)adler);

        cpng_idat_writer w = {.t = t, .stage = stage, .used = 0};
        int ok = cpng_emit(t, signature, 8) && cpng_emit_chunk(t, "IHDR", ihdr, 13) &&
                 cpng_emit_chunk(t, "sRGB", srgb, 1) && (!p->has_phys || cpng_emit_chunk(t, "pHYs", phys, 9)) &&
                 cpng_idat_put(&w, zhead, 2);
        for (int i = 0; ok && i < count; i++) ok = cpng_idat_put(&w, segments[i].out, segments[i].size);
        ok = ok && cpng_idat_put(&w, ztail, 4) && (w.used == 0 || cpng_emit_chunk(t, "IDAT", stage, w.used)) &&
             cpng_emit_chunk(t, "IEND", NULL, 0);
        if (!ok) status = t->out_of_memory ? CPNG_ERR_NO_MEMORY : CPNG_ERR_WRITE;
    }
    for (int i = 0; i < count; i++) free(segments[i].out);
    free(segments);
    free(stage);
    return status;
}

static cpng_status cpng_encode(const cpng_write_params *p, cpng_write_target *t) {
    if (p == NULL || p->rgba == NULL || p->width == 0 || p->height == 0 || p->width > 0x7fffffffU ||
        p->height > 0x7fffffffU || p->compression_level < 0 || p->compression_level > 9 ||
        p->strategy < -1 || p->strategy > 3) {
        snprintf(t->diag.message, sizeof t->diag.message, "invalid image or settings for encoding");
        return CPNG_ERR_USAGE;
    }
    const size_t stride = (size_t)p->width * 4;
    const int opaque = cpng_rgba_is_opaque(p->rgba, (size_t)p->width * p->height);
    // zlib counts a call's input in 32 bits: rows of a gigabyte or more (never a drawing) stay with libpng.
    if (p->filters == PNG_FILTER_NONE && p->strategy == -1 && (size_t)p->width * 4 + 1 < ((size_t)1 << 30)) {
        return cpng_encode_unfiltered(p, t, opaque);
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &t->diag, cpng_error_fn, cpng_warning_fn);
    if (png == NULL) {
        snprintf(t->diag.message, sizeof t->diag.message, "out of memory");
        return CPNG_ERR_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        snprintf(t->diag.message, sizeof t->diag.message, "out of memory");
        return CPNG_ERR_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        if (t->io_errno != 0) return CPNG_ERR_WRITE;
        if (t->out_of_memory || cpng_is_out_of_memory(t->diag.message)) return CPNG_ERR_NO_MEMORY;
        return CPNG_ERR_WRITE;
    }
    png_set_write_fn(png, t, cpng_write_fn, cpng_flush_fn);
    png_set_user_limits(png, 0x7fffffffU, 0x7fffffffU);
    png_set_IHDR(png, info, p->width, p->height, 8, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    if (p->has_phys) {
        png_set_pHYs(png, info, p->phys_x, p->phys_y,
                     p->phys_unit_metre ? PNG_RESOLUTION_METER : PNG_RESOLUTION_UNKNOWN);
    }
    png_set_compression_level(png, p->compression_level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, p->filters);
    if (p->strategy >= 0) png_set_compression_strategy(png, p->strategy);
    png_set_compression_buffer_size(png, 256 * 1024);
    png_write_info(png, info);
    if (opaque) png_set_filler(png, 0, PNG_FILLER_AFTER);  // on write: strips the 4th byte
    for (uint32_t y = 0; y < p->height; y++) png_write_row(png, p->rgba + (size_t)y * stride);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return CPNG_OK;
}

static void cpng_copy_message(char *message, size_t message_size, const char *text) {
    if (message != NULL && message_size > 0) snprintf(message, message_size, "%s", text);
}

cpng_status cpng_write_memory(const cpng_write_params *params, uint8_t **out, size_t *out_size, char *message,
                              size_t message_size) {
    if (out == NULL || out_size == NULL) return CPNG_ERR_USAGE;
    *out = NULL;
    *out_size = 0;
    cpng_write_target *t = (cpng_write_target *)calloc(1, sizeof *t);
    if (t == NULL) {
        cpng_copy_message(message, message_size, "out of memory");
        return CPNG_ERR_NO_MEMORY;
    }
    cpng_status status = cpng_encode(params, t);
    if (status == CPNG_OK) {
        *out = t->buffer;
        *out_size = t->size;
    } else {
        free(t->buffer);
        cpng_copy_message(message, message_size, t->diag.message);
    }
    free(t);
    return status;
}

void cpng_free_buffer(uint8_t *buffer) { free(buffer); }

cpng_status cpng_write_file_atomic(const char *path, const cpng_write_params *params, char *message,
                                   size_t message_size) {
    if (path == NULL || path[0] == '\0') return CPNG_ERR_USAGE;
    const char suffix[] = ".tmp-XXXXXX";
    size_t length = strlen(path);
    char *temporary = (char *)malloc(length + sizeof suffix);
    cpng_write_target *t = (cpng_write_target *)calloc(1, sizeof *t);
    if (temporary == NULL || t == NULL) {
        free(temporary);
        free(t);
        cpng_copy_message(message, message_size, "out of memory");
        return CPNG_ERR_NO_MEMORY;
    }
    memcpy(temporary, path, length);
    memcpy(temporary + length, suffix, sizeof suffix);

    cpng_status status = CPNG_OK;
    int fd = mkstemp(temporary);  // same directory as the target, so rename is atomic
    if (fd < 0) {
        cpng_copy_message(message, message_size, strerror(errno));
        free(temporary);
        free(t);
        return CPNG_ERR_CREATE;
    }
    (void)fchmod(fd, 0644);
    t->file = fdopen(fd, "wb");
    if (t->file == NULL) {
        cpng_copy_message(message, message_size, strerror(errno));
        close(fd);
        status = CPNG_ERR_CREATE;
    } else {
        status = cpng_encode(params, t);
        if (status != CPNG_OK) cpng_copy_message(message, message_size, t->diag.message);
        if (status == CPNG_OK && (fflush(t->file) != 0 || fsync(fileno(t->file)) != 0)) {
            cpng_copy_message(message, message_size, strerror(errno));
            status = CPNG_ERR_WRITE;
        }
        if (fclose(t->file) != 0 && status == CPNG_OK) {
            cpng_copy_message(message, message_size, strerror(errno));
            status = CPNG_ERR_WRITE;
        }
        t->file = NULL;
    }
    if (status == CPNG_OK && rename(temporary, path) != 0) {
        cpng_copy_message(message, message_size, strerror(errno));
        status = CPNG_ERR_CREATE;
    }
    if (status != CPNG_OK) unlink(temporary);
    free(temporary);
    free(t);
    return status;
}
