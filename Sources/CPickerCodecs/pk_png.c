/*
 * PNG decode/encode with the classic libpng API.
 *
 * libpng's error callback must not return: ours longjmps to the setjmp in the
 * calling C function. Warnings (bad ancillary chunks, CRC errors in ancillary
 * chunks, extra compressed data) are ignored: libpng has already skipped the
 * damaged chunk and the pixels are complete. Errors in critical chunks
 * (IHDR, PLTE, IDAT, IEND), zlib errors and truncation fail the decode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <png.h>
#include <zlib.h>

#include "CPickerCodecs.h"
#include "pk_internal.h"

/* Decompressed ancillary chunks (zTXt, iCCP, ...) are capped so text-chunk
 * bombs stay bounded; the number of cached unknown/text chunks too. */
#define PK_PNG_CHUNK_MALLOC_MAX (8u * 1024u * 1024u)
#define PK_PNG_CHUNK_CACHE_MAX 256u
/* No single allocation by libpng may exceed this. libpng reports an ancillary
 * chunk longer than the chunk malloc limit only as a benign error (a warning
 * in release builds) and then mallocs its declared length, up to 2 GiB, before
 * reading a byte of it: a 41-byte file asked for 1.9 GB (fuzzing, see
 * Tests/Regressions/png-text-chunk-length-2gb.png). Row buffers stay far below
 * this (1000000 px x 8 bytes); the image buffer is ours, allocated with malloc. */
#define PK_PNG_LIBPNG_ALLOC_MAX (32u * 1024u * 1024u)

typedef struct pk_png_err {
    jmp_buf jump;
    char *msg;
    int status;
} pk_png_err;

typedef struct pk_png_src {
    const uint8_t *data;
    size_t len;
    size_t pos;
} pk_png_src;

static void pk_png_error(png_structp png, png_const_charp text) {
    pk_png_err *err = (pk_png_err *)png_get_error_ptr(png);
    if (err->msg) snprintf(err->msg, PK_MSG_LEN, "%s", text ? text : "PNG error");
    if (err->status == PK_OK) err->status = PK_CORRUPT;
    longjmp(err->jump, 1);
}

static void pk_png_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static png_voidp pk_png_malloc(png_structp png, png_alloc_size_t size) {
    (void)png;
    return size > PK_PNG_LIBPNG_ALLOC_MAX ? NULL : malloc(size);
}

static void pk_png_free_fn(png_structp png, png_voidp p) {
    (void)png;
    free(p);
}

static void pk_png_read(png_structp png, png_bytep out, size_t count) {
    pk_png_src *src = (pk_png_src *)png_get_io_ptr(png);
    if (count > src->len - src->pos) {
        png_error(png, "unexpected end of file (truncated PNG)");
    }
    memcpy(out, src->data + src->pos, count);
    src->pos += count;
}

/* Decodes; with dst_w, dst_h > 0, a non-interlaced picture of another size
 * goes row by row through the streaming resampler (never held whole), and
 * an interlaced one is decoded whole and then resampled. */
/* A copy of the iCCP profile (malloc'd; it must outlive the read struct), or NULL. */
static uint8_t *pk_png_copy_iccp(png_structp png, png_infop info, size_t *len) {
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 profile_len = 0;
    *len = 0;
    if (!png_get_iCCP(png, info, &name, &compression, &profile, &profile_len) || !profile ||
        profile_len == 0)
        return NULL;
    uint8_t *copy = malloc(profile_len);
    if (!copy) return NULL; /* shown unmanaged rather than not at all */
    memcpy(copy, profile, profile_len);
    *len = profile_len;
    return copy;
}

/* Hands the picture out, converted to sRGB when it carries a profile (after any resample:
 * on the fitted pixels only). Frees icc. */
static int pk_png_finish(uint8_t *pixels, int w, int h, int channels, uint8_t *icc, size_t icc_len,
                         pk_image *out) {
    out->colour = pk_colour_to_srgb(icc, icc_len, pixels, (size_t)w * (size_t)h * (size_t)channels, w, h,
                                    channels);
    free(icc);
    out->pixels = pixels;
    out->width = w;
    out->height = h;
    out->channels = channels;
    return PK_OK;
}

static int pk_png_decode_impl(const uint8_t *data, size_t len, uint64_t max_pixels,
                              int dst_w, int dst_h, pk_image *out, char *msg) {
    if (!out) return PK_INVALID;
    out->pixels = NULL;
    out->width = out->height = out->channels = out->colour = 0;
    if (!data || len < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        if (msg) snprintf(msg, PK_MSG_LEN, "not a PNG file (bad signature)");
        return PK_CORRUPT;
    }

    pk_png_err err = {.msg = msg, .status = PK_OK};
    pk_png_src src = {.data = data, .len = len, .pos = 0};
    png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &err,
                                               pk_png_error, pk_png_warning, NULL,
                                               pk_png_malloc, pk_png_free_fn);
    if (!png) {
        if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    pk_feed *volatile feed = NULL;
    uint8_t *volatile icc = NULL;
    size_t icc_len = 0;

    if (setjmp(err.jump)) {
        free(pixels);
        free(icc);
        free(rows);
        pk_feed_free(feed);
        png_destroy_read_struct(&png, &info, NULL);
        return err.status == PK_OK ? PK_CORRUPT : err.status;
    }
    png_set_read_fn(png, &src, pk_png_read);
    /* libpng's own per-side limit (its default, stated here); the pixel cap
     * below is the real bound. */
    png_set_user_limits(png, 1000000, 1000000);
    png_set_chunk_malloc_max(png, PK_PNG_CHUNK_MALLOC_MAX);
    png_set_chunk_cache_max(png, PK_PNG_CHUNK_CACHE_MAX);
    png_read_info(png, info);

    png_uint_32 w = 0, h = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &w, &h, &bit_depth, &color_type, &interlace, NULL, NULL);
    uint64_t declared = (uint64_t)w * (uint64_t)h;
    if (declared > max_pixels) {
        if (msg)
            snprintf(msg, PK_MSG_LEN,
                     "image too large: %ux%u (%.1f Mpx) exceeds the limit of %.1f Mpx",
                     (unsigned)w, (unsigned)h, declared / 1e6, max_pixels / 1e6);
        png_destroy_read_struct(&png, &info, NULL);
        return PK_TOO_LARGE;
    }

    icc = pk_png_copy_iccp(png, info, &icc_len);
    png_set_expand(png); /* palette -> RGB, gray < 8 bit -> 8 bit, tRNS -> alpha */
    png_set_scale_16(png); /* 16 -> 8 bit with rounding */
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    int channels = png_get_channels(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if ((channels != 3 && channels != 4) || rowbytes != (size_t)w * (size_t)channels) {
        if (msg) snprintf(msg, PK_MSG_LEN, "unexpected PNG pixel layout");
        free(icc);
        png_destroy_read_struct(&png, &info, NULL);
        return PK_UNSUPPORTED;
    }
    int resample = dst_w > 0 && dst_h > 0 && ((png_uint_32)dst_w != w || (png_uint_32)dst_h != h);
    if (resample && interlace == PNG_INTERLACE_NONE) {
        feed = pk_feed_new(pk_resampler_new((int)w, (int)h, channels, 0, 0, (int)w, (int)h,
                                            dst_w, dst_h), rowbytes, (int)h);
        if (!feed) {
            free(icc);
            png_destroy_read_struct(&png, &info, NULL);
            if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
            return PK_NO_MEMORY;
        }
        for (png_uint_32 y = 0; y < h;) {
            if (pk_cancelled()) { /* pk_work.h: a cancelled job stops within one batch */
                pk_feed_free(feed);
                png_destroy_read_struct(&png, &info, NULL);
                if (msg) snprintf(msg, PK_MSG_LEN, "cancelled");
                return PK_CANCELLED;
            }
            uint8_t *slot = pk_feed_slot(feed);
            png_bytep batch[PK_FEED_BATCH];
            png_uint_32 n = 0;
            for (; n < PK_FEED_BATCH && y + n < h; n++) batch[n] = slot + (size_t)n * rowbytes;
            png_read_rows(png, batch, NULL, n);
            pk_feed_commit(feed, (int)n);
            y += n;
        }
        png_read_end(png, NULL);
        png_destroy_read_struct(&png, &info, NULL);
        uint8_t *fitted = NULL;
        pk_feed *done = feed;
        feed = NULL;
        int status = pk_feed_finish(done, &fitted);
        if (status != PK_OK) {
            free(icc);
            if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
            return status;
        }
        return pk_png_finish(fitted, dst_w, dst_h, channels, icc, icc_len, out);
    }
    pixels = malloc(rowbytes * h);
    rows = malloc(sizeof(png_bytep) * h);
    if (!pixels || !rows) {
        free(pixels);
        free(rows);
        free(icc);
        png_destroy_read_struct(&png, &info, NULL);
        if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * rowbytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);

    if (resample) {
        uint8_t *fitted = NULL;
        int status = pk_resample(pixels, rowbytes * h, (int)w, (int)h, channels, 0, 0, (int)w, (int)h, dst_w,
                                 dst_h, &fitted);
        free(pixels);
        if (status != PK_OK) {
            free(icc);
            if (msg) snprintf(msg, PK_MSG_LEN, "resampling failed");
            return status;
        }
        return pk_png_finish(fitted, dst_w, dst_h, channels, icc, icc_len, out);
    }
    return pk_png_finish(pixels, (int)w, (int)h, channels, icc, icc_len, out);
}

int pk_png_decode(const uint8_t *data, size_t len, uint64_t max_pixels,
                  pk_image *out, char *msg) {
    return pk_png_decode_impl(data, len, max_pixels, 0, 0, out, msg);
}

int pk_png_decode_fit(const uint8_t *data, size_t len, uint64_t max_pixels, int dst_w,
                      int dst_h, pk_image *out, char *msg) {
    if (dst_w <= 0 || dst_h <= 0) {
        if (msg) snprintf(msg, PK_MSG_LEN, "invalid target size");
        if (out) out->pixels = NULL;
        return PK_INVALID;
    }
    return pk_png_decode_impl(data, len, max_pixels, dst_w, dst_h, out, msg);
}

/* Where the encoder writes: a buffer it grows (and owns until handed out), or the caller's of a
 * fixed capacity (pk_png_encode_into), which it never reallocates or frees. */
typedef struct pk_buffer {
    uint8_t *data;
    size_t len;
    size_t cap;
    int fixed;
} pk_buffer;

static void pk_png_write(png_structp png, png_bytep bytes, size_t count) {
    pk_buffer *buf = (pk_buffer *)png_get_io_ptr(png);
    if (count > SIZE_MAX - buf->len) png_error(png, "output too large");
    if (buf->len + count > buf->cap) {
        if (buf->fixed) png_error(png, "output larger than its bound");
        size_t cap = buf->cap ? buf->cap : 65536;
        while (cap < buf->len + count) cap *= 2;
        uint8_t *grown = realloc(buf->data, cap);
        if (!grown) png_error(png, "out of memory");
        buf->data = grown;
        buf->cap = cap;
    }
    memcpy(buf->data + buf->len, bytes, count);
    buf->len += count;
}

static void pk_png_flush(png_structp png) { (void)png; }

static int pk_png_write_to(pk_buffer *buf, const uint8_t *pixels, size_t pixels_len, int width, int height,
                           int channels, int compression_level, struct png_text_struct *texts, int text_count,
                           char *msg);
static int pk_png_write_rows(pk_buffer *buf, pk_png_row_fn row, void *ctx, int width, int height, int channels,
                             int compression_level, struct png_text_struct *texts, int text_count, char *msg);

int pk_png_encode(const uint8_t *pixels, size_t pixels_len, int width, int height, int channels,
                  int compression_level, uint8_t **out, size_t *out_len,
                  char *msg) {
    return pk_png_write_image(pixels, pixels_len, width, height, channels, compression_level, NULL, 0,
                              out, out_len, msg);
}

size_t pk_png_encode_bound(int width, int height, int channels) {
    if (width <= 0 || height <= 0 || (channels != 3 && channels != 4)) return 0;
    size_t row = (size_t)width * (size_t)channels + 1; /* the filter byte */
    if ((size_t)height > (SIZE_MAX / 2) / row) return 0;
    size_t raw = row * (size_t)height;
    /* Stored deflate blocks add 5 bytes a 64 KiB, the zlib wrapper 6, IDAT chunks of libpng's
     * 8 KiB buffer 12 bytes each (0.15 %): raw/256 (0.39 %) plus 1 KiB for the signature,
     * IHDR and IEND covers incompressible pixels with room to spare. */
    return raw + raw / 256 + 1024;
}

int pk_png_encode_into(const uint8_t *pixels, size_t pixels_len, int width, int height, int channels,
                       int compression_level, uint8_t *dst, size_t dst_cap, size_t *out_len, char *msg) {
    if (!dst || !out_len) return PK_INVALID;
    *out_len = 0;
    pk_buffer buf = {dst, 0, dst_cap, 1};
    int status = pk_png_write_to(&buf, pixels, pixels_len, width, height, channels, compression_level, NULL, 0, msg);
    if (status == PK_OK) *out_len = buf.len;
    return status;
}

int pk_png_encode_rows_into(pk_png_row_fn row, void *ctx, int width, int height, int channels,
                            int compression_level, uint8_t *dst, size_t dst_cap, size_t *out_len, char *msg) {
    if (!row || !dst || !out_len) return PK_INVALID;
    *out_len = 0;
    pk_buffer buf = {dst, 0, dst_cap, 1};
    int status = pk_png_write_rows(&buf, row, ctx, width, height, channels, compression_level, NULL, 0, msg);
    if (status == PK_OK) *out_len = buf.len;
    return status;
}

int pk_png_write_image(const uint8_t *pixels, size_t pixels_len, int width, int height, int channels,
                       int compression_level, struct png_text_struct *texts, int text_count,
                       uint8_t **out, size_t *out_len, char *msg) {
    if (!out || !out_len) return PK_INVALID;
    *out = NULL;
    *out_len = 0;
    pk_buffer buf = {NULL, 0, 0, 0};
    int status = pk_png_write_to(&buf, pixels, pixels_len, width, height, channels, compression_level, texts,
                                 text_count, msg);
    if (status != PK_OK) {
        free(buf.data);
        return status;
    }
    *out = buf.data;
    *out_len = buf.len;
    return PK_OK;
}

/* Rows of a picture in memory, for pk_png_write_rows. */
typedef struct pk_memory_rows {
    const uint8_t *pixels;
    size_t stride;
} pk_memory_rows;

static const uint8_t *pk_memory_row(void *ctx, int y) {
    const pk_memory_rows *rows = ctx;
    return rows->pixels + (size_t)y * rows->stride;
}

/* Encodes into buf; on failure what it holds is left for the caller to free (if it owns it). */
static int pk_png_write_to(pk_buffer *buf, const uint8_t *pixels, size_t pixels_len, int width, int height,
                           int channels, int compression_level, struct png_text_struct *texts, int text_count,
                           char *msg) {
    if (!pixels || (channels != 3 && channels != 4) || !pk_buffer_holds(pixels_len, width, height, channels)) {
        if (msg) snprintf(msg, PK_MSG_LEN, "PNG encoder needs an RGB or RGBA image");
        return PK_INVALID;
    }
    pk_memory_rows rows = {pixels, (size_t)width * (size_t)channels};
    return pk_png_write_rows(buf, pk_memory_row, &rows, width, height, channels, compression_level, texts,
                             text_count, msg);
}

/* Encodes the rows `row` hands out, top to bottom, each once; a NULL row stops with PK_UNREADABLE. */
static int pk_png_write_rows(pk_buffer *buf, pk_png_row_fn row, void *ctx, int width, int height, int channels,
                             int compression_level, struct png_text_struct *texts, int text_count, char *msg) {
    if (width <= 0 || height <= 0 || (channels != 3 && channels != 4)) {
        if (msg) snprintf(msg, PK_MSG_LEN, "PNG encoder needs an RGB or RGBA image");
        return PK_INVALID;
    }
    const int level = compression_level < 0 ? 0 : (compression_level > 9 ? 9 : compression_level);

    pk_png_err err = {.msg = msg, .status = PK_OK};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &err,
                                              pk_png_error, pk_png_warning);
    if (!png) {
        if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    if (setjmp(err.jump)) {
        png_destroy_write_struct(&png, &info);
        return PK_NO_MEMORY;
    }
    png_set_write_fn(png, buf, pk_png_write, pk_png_flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 channels == 4 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (text_count > 0) png_set_text(png, info, texts, text_count);
    png_set_compression_level(png, level);
    /* SUB filter + run-length matches only (Z_RLE): on a 600x400 photo 7.7 ms
     * and 303 KB, against 8.8 ms and 341 KB for plain level 1 and 91 ms at
     * level 6 with adaptive filters; flat graphics still shrink (runs). */
    png_set_compression_strategy(png, Z_RLE);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_write_info(png, info); /* IHDR, then any tEXt chunks: before IDAT */
    for (int y = 0; y < height; y++) {
        /* A cancelled job stops encoding too, once per batch of rows (pk_work.h). */
        if ((y & (PK_FEED_BATCH - 1)) == 0 && pk_cancelled()) {
            png_destroy_write_struct(&png, &info);
            if (msg) snprintf(msg, PK_MSG_LEN, "cancelled");
            return PK_CANCELLED;
        }
        const uint8_t *pixels = row(ctx, y);
        if (!pixels) {
            png_destroy_write_struct(&png, &info);
            if (msg) snprintf(msg, PK_MSG_LEN, "row %d of the picture could not be read", y);
            return PK_UNREADABLE;
        }
        png_write_row(png, (png_const_bytep)pixels);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return PK_OK;
}
