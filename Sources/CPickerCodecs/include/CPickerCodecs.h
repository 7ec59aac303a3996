/*
 * CPickerCodecs: libjpeg / libpng / libwebp calls and pixel kernels for pickerd.
 *
 * Every call that can longjmp (classic libjpeg, classic libpng) does its own
 * setjmp inside C, so no Swift frame is ever unwound. Each function returns a
 * pk_status and, on failure, writes a NUL-terminated message into the
 * caller's `msg` buffer (PK_MSG_LEN bytes).
 *
 * Memory handed back to the caller (pk_image.pixels, encoded buffers) comes
 * from malloc and must be released with pk_free. On failure nothing needs to
 * be freed: outputs are left NULL.
 *
 * Pixel layout everywhere: 8-bit, interleaved, rows tightly packed unless a
 * stride is given; 3 channels = RGB, 4 channels = RGBA (straight alpha).
 */
#ifndef CPICKERCODECS_H
#define CPICKERCODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PK_MSG_LEN 256

typedef enum pk_status {
    PK_OK = 0,
    PK_CORRUPT = 1,      /* damaged, truncated or not the claimed format */
    PK_UNSUPPORTED = 2,  /* valid, but a variant we cannot decode (12-bit, lossless JPEG) */
    PK_TOO_LARGE = 3,    /* declared size above the caller's pixel cap */
    PK_NO_MEMORY = 4,    /* malloc failed */
    PK_INVALID = 5,      /* bad arguments from the caller (a bug in us) */
    PK_CANCELLED = 6,    /* the job's cancel flag was raised (pk_work.h) */
    PK_UNREADABLE = 7    /* the caller's row source had no row (pk_png_row_fn) */
} pk_status;

/* A decoded image. pixels is malloc'd: release with pk_free. */
typedef struct pk_image {
    uint8_t *pixels;
    int width;
    int height;
    int channels; /* 3 or 4 */
    int colour;   /* a pk_colour_outcome: what became of an embedded ICC profile */
} pk_image;

/* Release memory returned by any pk_ function. NULL is fine. */
void pk_free(void *p);

/* Makes glibc malloc serve blocks of at least `threshold` bytes with their own
 * mmap, returned to the system on free (mallopt M_MMAP_THRESHOLD; this also
 * stops glibc raising the threshold by itself). Process-wide. Without it,
 * freed pixel buffers and evicted cache entries stay in per-thread arenas
 * and the RSS creeps far above the cache's byte bound. */
void pk_map_large_blocks(size_t threshold);

/* ---- Header probes (no pixel allocation) ---- */

/* Reads the JPEG header only: stored size. */
int pk_jpeg_read_size(const uint8_t *data, size_t len, int *width, int *height,
                      char *msg);

/* The JPEG's ICC profile (APP2 chunks joined), malloc'd (release with pk_free), or NULL with
 * *icc_len 0 when it has none. Reads the header only. */
int pk_jpeg_read_icc(const uint8_t *data, size_t len, uint8_t **icc, size_t *icc_len, char *msg);

/* ---- Decoders ---- */

/* JPEG at DCT scale 1/scale_denom (1, 2, 4 or 8) to RGB.
 * Declared width*height is checked against max_pixels right after the
 * header is read, before anything is allocated for pixels.
 * Warnings that mean lost image data (truncation, bad entropy data, ...)
 * are errors; see pk_jpeg.c for the policy. */
int pk_jpeg_decode(const uint8_t *data, size_t len, int scale_denom,
                   uint64_t max_pixels, pk_image *out, char *msg);

/* The same decode, resampled (Lanczos-3, exactly as pk_resample) to
 * dst_w x dst_h while it decodes, so the decoded picture is never held
 * whole. Stored orientation, RGB. */
int pk_jpeg_decode_fit(const uint8_t *data, size_t len, int scale_denom,
                       uint64_t max_pixels, int dst_w, int dst_h, pk_image *out,
                       char *msg);

/* PNG of any colour type / bit depth / interlace to RGB (no alpha) or RGBA. */
int pk_png_decode(const uint8_t *data, size_t len, uint64_t max_pixels,
                  pk_image *out, char *msg);

/* The same decode, resampled (Lanczos-3, as pk_resample) to dst_w x dst_h;
 * a non-interlaced file streams row by row into the resampler, so the
 * full-size picture is never held. Channels as pk_png_decode. */
int pk_png_decode_fit(const uint8_t *data, size_t len, uint64_t max_pixels, int dst_w,
                      int dst_h, pk_image *out, char *msg);

/* Reads the WebP header: canvas size, alpha and animation flags. */
int pk_webp_info(const uint8_t *data, size_t len, int *width, int *height,
                 int *has_alpha, int *has_animation, char *msg);

/* WebP to RGB (no alpha) or RGBA. If scaled_width and scaled_height are both
 * > 0, libwebp's scaler produces that size (still images only; animations
 * return their first frame at full canvas size). */
int pk_webp_decode(const uint8_t *data, size_t len, int scaled_width,
                   int scaled_height, uint64_t max_pixels, pk_image *out,
                   char *msg);

/* ---- HEIF / AVIF (libheif; pk_heif.c) ---- */

/* Reads `count` bytes at `offset` into dst; 0 on success. Lets header probes read
 * only the boxes they need instead of the whole file. */
typedef int (*pk_read_fn)(void *context, int64_t offset, void *dst, size_t count);

/* What a HEIF file's primary image declares. Sizes are after the HEIF transforms
 * (irot, imir, clap), i.e. upright. exif (malloc'd, release with pk_free) is the
 * TIFF block of the file's Exif item, or NULL. */
typedef struct pk_heif_header {
    int width;
    int height;
    int has_alpha;
    int bit_depth;
    int thumbnails;
    uint8_t *exif;
    size_t exif_len;
} pk_heif_header;

/* Parses the container through `read` (libheif 1.15 reads most of the file: see pk_heif.c).
 * Reads that fail give zeros (libheif aborts on a failed read). An Exif item larger than
 * max_exif is left out. */
int pk_heif_info(pk_read_fn read, void *context, int64_t file_size, uint64_t max_pixels,
                 size_t max_exif, pk_heif_header *out, char *msg);

/* The primary image, upright (libheif applies irot/imir/clap), 8-bit RGB or RGBA.
 * Its declared size is checked against max_pixels before decoding. When thumb_min_w
 * and thumb_min_h are > 0 and an embedded thumbnail covers them with the primary
 * image's aspect ratio (within 1 %), that thumbnail is decoded instead. Else the primary
 * image is box-shrunk by scale_denom (1 = stored size; each side divided, rounded up) before
 * its colours are converted. */
int pk_heif_decode(const uint8_t *data, size_t len, uint64_t max_pixels, int thumb_min_w,
                   int thumb_min_h, int scale_denom, pk_image *out, char *msg);

/* ---- GIF (giflib; pk_gif.c) ---- */

/* The first frame composited onto the logical screen (8-bit RGB, or RGBA when the frame has a
 * transparent index or does not cover the screen: outside it is transparent). The screen's
 * size is checked against max_pixels before anything is allocated; a frame outside the
 * screen, a missing colour table or image data that ends early is PK_CORRUPT. */
int pk_gif_decode(const uint8_t *data, size_t len, uint64_t max_pixels, pk_image *out, char *msg);
/* ---- JPEG XL (libjxl 0.7; pk_jxl.c) ---- */

/* What a JPEG XL file's basic info declares. width/height are as stored in the codestream
 * (before orientation); orientation is the codestream's (1-8, EXIF numbering), which the
 * caller applies: pk_jxl_decode keeps the stored orientation. */
typedef struct pk_jxl_header {
    int width;
    int height;
    int orientation;
    int has_alpha;
    int has_animation;
    int bits;
} pk_jxl_header;

/* Feeds libjxl the file through `read`, 16 KiB at a time, until the basic info (a file that
 * ends first, or whose codestream header is not within its first 16 MiB, is corrupt). */
int pk_jxl_info(pk_read_fn read, void *context, int64_t file_size, pk_jxl_header *out, char *msg);

/* The first frame (animations: composited), stored orientation, 8-bit RGB or RGBA (straight
 * alpha), converted to sRGB through its data colour profile. The declared size is checked
 * against max_pixels before any buffer. When min_w and min_h are > 0, decoding stops at the
 * first progressive pass (DC, 1/8) whose resolution covers twice min_w x min_h, in files of at
 * least 0.5 bytes a pixel (where that is cheaper than finishing: pk_jxl.c): the picture is full
 * size, only that detailed. A file that ends before the frame is complete is corrupt. */
int pk_jxl_decode(const uint8_t *data, size_t len, uint64_t max_pixels, int min_w, int min_h, pk_image *out,
                  char *msg);

/* ---- Encoders (to a malloc'd buffer; release with pk_free) ----
 * pixels_len is the buffer's length: shorter than the sizes say is PK_INVALID. */

/* PNG; compression_level 0-9 (1-2 recommended for speed). */
int pk_png_encode(const uint8_t *pixels, size_t pixels_len, int width, int height, int channels,
                  int compression_level, uint8_t **out, size_t *out_len,
                  char *msg);

/* As pk_png_encode, into the caller's dst of dst_cap bytes, which it never reallocates or frees:
 * the caller's buffer is the result, so a big picture is not held twice. pk_png_encode_bound
 * gives a capacity that always suffices (0 for sizes it cannot hold); a smaller one may fail
 * with PK_NO_MEMORY "output larger than its bound". */
size_t pk_png_encode_bound(int width, int height, int channels);
int pk_png_encode_into(const uint8_t *pixels, size_t pixels_len, int width, int height, int channels,
                       int compression_level, uint8_t *dst, size_t dst_cap, size_t *out_len, char *msg);

/* Row y (0 to height-1, asked for in order, each once) of a picture that is not in memory as a
 * whole; valid until the next call. NULL when it cannot be had: the encoder stops with PK_UNREADABLE. */
typedef const uint8_t *(*pk_png_row_fn)(void *ctx, int y);

/* As pk_png_encode_into, reading the picture a row at a time from `row` (width * channels bytes). */
int pk_png_encode_rows_into(pk_png_row_fn row, void *ctx, int width, int height, int channels,
                            int compression_level, uint8_t *dst, size_t dst_cap, size_t *out_len, char *msg);

/* JPEG baseline, 4:2:0, quality 1-100. channels must be 3. */
int pk_jpeg_encode(const uint8_t *pixels, size_t pixels_len, int width, int height, int channels,
                   int quality, uint8_t **out, size_t *out_len, char *msg);

/* Lossy WebP, quality 1-100, RGB or RGBA. */
int pk_webp_encode(const uint8_t *pixels, size_t pixels_len, int width, int height, int channels,
                   int quality, uint8_t **out, size_t *out_len, char *msg);

/* ---- Pixel kernels ----
 * Every buffer comes with its length in bytes; a kernel whose buffer is shorter than
 * its sizes say returns PK_INVALID (the void ones do nothing). */

/* Lanczos-3 resample of the rectangle (crop_x, crop_y, crop_w, crop_h) of src
 * (src_w x src_h, channels 3/4, row stride src_w*channels) to dst_w x dst_h.
 * Alpha is premultiplied during filtering. Large reductions are first
 * box-reduced by an integer factor that leaves at least 2x for Lanczos.
 * Output is tightly packed with the same channel count. */
int pk_resample(const uint8_t *src, size_t src_len, int src_w, int src_h, int channels,
                int crop_x, int crop_y, int crop_w, int crop_h,
                int dst_w, int dst_h, uint8_t **out);

/* Applies EXIF orientation 1-8 (to make a stored image upright) into a new
 * buffer; out_w/out_h receive the upright size. Orientation 1 copies. */
int pk_orient(const uint8_t *src, size_t src_len, int width, int height, int channels,
              int orientation, uint8_t **out, int *out_w, int *out_h);

/* Flattens RGBA over the solid colour (r,g,b) into a new RGB buffer. */
int pk_flatten(const uint8_t *rgba, size_t rgba_len, int width, int height, uint8_t r,
               uint8_t g, uint8_t b, uint8_t **out);

/* Draws src (RGB or RGBA, alpha blended) onto an RGB canvas at (x, y),
 * clipping at the canvas edges. */
void pk_draw_onto(uint8_t *canvas, size_t canvas_len, int canvas_w, int canvas_h,
                  const uint8_t *src, size_t src_len, int src_w, int src_h, int src_channels,
                  int x, int y);

/* Fills an RGB canvas with one colour. */
void pk_fill_rgb(uint8_t *canvas, size_t canvas_len, int width, int height, uint8_t r, uint8_t g,
                 uint8_t b);

#ifdef __cplusplus
}
#endif

/* Further parts of the module (SwiftPM's umbrella header must include them). */
#include "pk_colour.h"
#include "pk_md5.h"
#include "pk_png_text.h"
#include "pk_raw.h"
#include "pk_work.h"

#endif
