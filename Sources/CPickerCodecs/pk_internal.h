/*
 * Private to CPickerCodecs (not exported to Swift): the streaming resampler
 * shared by pk_resample (pk_pixels.c) and the fused JPEG decode-and-fit
 * (pk_jpeg.c).
 */
#ifndef PK_INTERNAL_H
#define PK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* True when a buffer of `len` bytes holds a w x h picture of `channels` channels
 * (sides > 0; the product checked without overflow). Every kernel checks its buffers. */
static inline int pk_buffer_holds(size_t len, int w, int h, int channels) {
    if (w <= 0 || h <= 0 || channels <= 0) return 0;
    size_t row = (size_t)w * (size_t)channels;
    return row / (size_t)channels == (size_t)w && (size_t)h <= len / row;
}

/* Lanczos-3 resampler fed one source row at a time, top to bottom: the
 * source picture is never held whole. Same filter, box pre-reduce and
 * premultiplied alpha as pk_resample (which is built on it). */
typedef struct pk_resampler pk_resampler;

/* NULL on bad arguments or no memory. Rows pushed later are full source rows
 * (src_w * channels bytes); only columns crop_x .. crop_x+crop_w-1 are read,
 * and the caller pushes only rows crop_y .. crop_y+crop_h-1. */
pk_resampler *pk_resampler_new(int src_w, int src_h, int channels, int crop_x, int crop_y,
                               int crop_w, int crop_h, int dst_w, int dst_h);
/* Pushes the next `count` rows; rows beyond crop_h are ignored. */
void pk_resampler_push(pk_resampler *r, const uint8_t *const *rows, int count);
/* After all crop_h rows: the dst_w x dst_h result (malloc'd) in *out. */
int pk_resampler_finish(pk_resampler *r, uint8_t **out);
void pk_resampler_free(pk_resampler *r);

/* Rows per batch handed from a decoder to a feed. */
#define PK_FEED_BATCH 16

/* A decoder-to-resampler hand-over; with rows_total >= 256 the resampler
 * runs on a helper thread, overlapping the decode. Takes ownership of r
 * (freed even when creation fails, which returns NULL). */
typedef struct pk_feed pk_feed;
pk_feed *pk_feed_new(pk_resampler *r, size_t row_bytes, int rows_total);
/* A buffer for up to PK_FEED_BATCH rows of row_bytes (waits for a free one). */
uint8_t *pk_feed_slot(pk_feed *f);
/* Hands over the slot last returned, holding `rows` rows. */
void pk_feed_commit(pk_feed *f, int rows);
/* Waits for all rows, frees the feed; the result as pk_resampler_finish. */
int pk_feed_finish(pk_feed *f, uint8_t **out);
/* Abandons the work (error paths) and frees everything. NULL is fine. */
void pk_feed_free(pk_feed *f);

/* The one PNG writer: RGB/RGBA 8-bit to a malloc'd buffer, SUB filter + Z_RLE at
 * `compression_level`, with `text_count` tEXt chunks (libpng png_text) before IDAT.
 * Used by pk_png_encode (no text) and pk_png_encode_text. */
struct png_text_struct;
int pk_png_write_image(const uint8_t *pixels, size_t pixels_len, int width, int height, int channels,
                       int compression_level, struct png_text_struct *texts, int text_count,
                       uint8_t **out, size_t *out_len, char *msg);

#endif
