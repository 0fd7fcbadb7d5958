// CPNG: a small C layer over libpng's low-level API.
//
// libpng reports errors by longjmp. Every function here that calls into libpng sets its own setjmp
// point and turns an error into a cpng_status plus a message, so no longjmp ever crosses a Swift frame.
//
// Decoding is two-step so the caller can apply its limits before any pixel memory is allocated:
//   cpng_reader_create -> cpng_reader_open_{file,memory} -> cpng_reader_read_header (check limits)
//   -> allocate width*height*4 bytes -> cpng_reader_read_rgba -> cpng_reader_destroy.
// Every colour type and bit depth is normalised to 8-bit RGBA (straight alpha). Gamma rule: none
// applied. Sample values are delivered as stored and the file is treated as sRGB; gAMA, cHRM, sRGB,
// iCCP (and text, time, histogram and other chunks the renderer does not use) are skipped unread.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Outcome of a CPNG call; details are in the reader's message or the caller's message buffer.
typedef enum cpng_status {
    CPNG_OK = 0,
    CPNG_ERR_NOT_FOUND = 1,  ///< the input file does not exist
    CPNG_ERR_OPEN = 2,       ///< the input exists but cannot be opened (permission, a directory, ...)
    CPNG_ERR_NOT_PNG = 3,    ///< no PNG signature
    CPNG_ERR_CORRUPT = 4,    ///< libpng refused the data (bad header, CRC, zlib stream, truncation, ...)
    CPNG_ERR_TOO_LARGE = 5,  ///< a side exceeds the reader's side limit (header still filled in)
    CPNG_ERR_NO_MEMORY = 6,  ///< an allocation failed
    CPNG_ERR_READ = 7,       ///< an I/O error while reading
    CPNG_ERR_CREATE = 8,     ///< the output file cannot be created or put in place
    CPNG_ERR_WRITE = 9,      ///< an I/O error while writing
    CPNG_ERR_USAGE = 10      ///< the call was made out of order or with a wrong buffer size
} cpng_status;

/// What the IHDR (and pHYs) chunk says about an image, before any transformation.
typedef struct cpng_header {
    uint32_t width;
    uint32_t height;
    int bit_depth;          ///< 1, 2, 4, 8 or 16
    int color_type;         ///< PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA
    int interlaced;         ///< 1 for Adam7
    int has_trns;           ///< 1 when a tRNS chunk is present
    int has_phys;           ///< 1 when a pHYs chunk is present
    uint32_t phys_x;        ///< pixels per unit, x
    uint32_t phys_y;        ///< pixels per unit, y
    int phys_unit_metre;    ///< 1 when the unit is the metre
} cpng_header;

/// An open PNG input; owned by the caller, released with cpng_reader_destroy.
typedef struct cpng_reader cpng_reader;

/// Creates a reader refusing images wider than max_width or taller than max_height (libpng's user
/// limits) and ancillary chunks larger than chunk_malloc_max bytes. Returns NULL when out of memory.
cpng_reader *cpng_reader_create(uint32_t max_width, uint32_t max_height, size_t chunk_malloc_max);

/// Opens a file for reading. CPNG_ERR_NOT_FOUND when it does not exist, CPNG_ERR_OPEN otherwise.
cpng_status cpng_reader_open_file(cpng_reader *reader, const char *path);

/// Reads from memory; the bytes must stay valid until cpng_reader_destroy.
cpng_status cpng_reader_open_memory(cpng_reader *reader, const uint8_t *data, size_t size);

/// Reads the signature and every chunk up to the first IDAT, fills *header. Allocates no pixel memory.
cpng_status cpng_reader_read_header(cpng_reader *reader, cpng_header *header);

/// Decodes the image into `pixels` (exactly width*height*4 bytes, rows top to bottom, RGBA 8-bit).
cpng_status cpng_reader_read_rgba(cpng_reader *reader, uint8_t *pixels, size_t size);

/// Reads every row (after cpng_reader_read_header) without keeping the pixels: checks the whole image
/// data stream with memory for one row. The reader is done afterwards.
cpng_status cpng_reader_check_rows(cpng_reader *reader);

/// Prepares to deliver the rows of a non-interlaced image in bands (after cpng_reader_read_header):
/// CPNG_ERR_USAGE for an interlaced image (decode it whole with cpng_reader_read_rgba instead).
cpng_status cpng_reader_begin_rows(cpng_reader *reader);

/// Decodes the next `count` rows into `pixels` (count*width*4 bytes, RGBA 8-bit as cpng_reader_read_rgba
/// gives them); after the last row the rest of the file is read and checked. Memory: one row.
cpng_status cpng_reader_read_rows(cpng_reader *reader, uint8_t *pixels, uint32_t count);

/// The header as far as known: complete after cpng_reader_read_header; after CPNG_ERR_TOO_LARGE,
/// width and height as the IHDR chunk stated them.
void cpng_reader_get_header(const cpng_reader *reader, cpng_header *header);

/// The last error message (never NULL; empty when there was none).
const char *cpng_reader_message(const cpng_reader *reader);

/// Warnings libpng reported so far, one per line (never NULL; at most a few, truncated).
const char *cpng_reader_warnings(const cpng_reader *reader);

/// Closes the input and frees the reader (NULL is allowed).
void cpng_reader_destroy(cpng_reader *reader);

/// What to encode: an 8-bit RGBA buffer, written as RGB when every alpha is 255, else as RGBA.
typedef struct cpng_write_params {
    const uint8_t *rgba;    ///< width*height*4 bytes
    uint32_t width;
    uint32_t height;
    int has_phys;
    uint32_t phys_x;
    uint32_t phys_y;
    int phys_unit_metre;
    int compression_level;  ///< zlib level 0-9
    int filters;            ///< libpng filter mask (PNG_FILTER_NONE 0x08, SUB 0x10, UP 0x20, AVG 0x40, PAETH 0x80)
    int strategy;           ///< zlib strategy (0 default, 1 filtered, 2 Huffman only, 3 RLE) through libpng; -1 lets
                            ///< CPNG choose: unfiltered images are then deflated on every core (see cpng.c)
} cpng_write_params;

/// Writes the PNG to a temporary file beside `path`, flushes it to disk and renames it over `path`.
/// On any failure the temporary file is removed and nothing is left at `path`.
cpng_status cpng_write_file_atomic(const char *path, const cpng_write_params *params, char *message,
                                   size_t message_size);

/// Encodes into a malloc'd buffer returned through *out / *out_size; free it with cpng_free_buffer.
cpng_status cpng_write_memory(const cpng_write_params *params, uint8_t **out, size_t *out_size, char *message,
                              size_t message_size);

/// Frees a buffer returned by cpng_write_memory.
void cpng_free_buffer(uint8_t *buffer);

/// 1 when every alpha byte of an RGBA buffer of pixel_count pixels is 255.
int cpng_rgba_is_opaque(const uint8_t *rgba, size_t pixel_count);

#ifdef __cplusplus
}
#endif
