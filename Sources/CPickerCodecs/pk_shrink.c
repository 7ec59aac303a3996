/*
 * Box shrink and quarter turns (pk_shrink.h): plain loops over tightly packed 8-bit pixels.
 */
#include <stdlib.h>
#include <string.h>

#include "pk_shrink.h"
#include "pk_size.h"

/* One output row: each pixel the mean of the block's (rows x up to factor) source pixels. */
static void pk_shrink_row(const uint8_t *src, int w, int rows, int channels, int factor, int out_w,
                          uint32_t *sums, uint8_t *dst) {
    size_t stride = (size_t)w * (size_t)channels;
    memset(sums, 0, sizeof *sums * (size_t)out_w * (size_t)channels);
    for (int y = 0; y < rows; y++) {
        const uint8_t *p = src + stride * (size_t)y;
        for (int ox = 0; ox < out_w; ox++) {
            uint32_t *sum = sums + (size_t)ox * channels;
            int x1 = (ox + 1) * factor < w ? (ox + 1) * factor : w;
            for (const uint8_t *q = p + (size_t)ox * factor * channels, *end = p + (size_t)x1 * channels; q < end;
                 q += channels)
                for (int c = 0; c < channels; c++) sum[c] += q[c];
        }
    }
    for (int ox = 0; ox < out_w; ox++) {
        int cols = w - ox * factor < factor ? w - ox * factor : factor;
        uint32_t n = (uint32_t)cols * (uint32_t)rows;
        for (int c = 0; c < channels; c++) {
            size_t i = (size_t)ox * channels + c;
            dst[i] = (uint8_t)((sums[i] + n / 2) / n);
        }
    }
}

int pk_shrink_box(pk_image *img, int factor) {
    if (factor <= 1) return PK_OK;
    int w = img->width, h = img->height, ch = img->channels;
    int out_w = (w + factor - 1) / factor, out_h = (h + factor - 1) / factor;
    size_t bytes = pk_size_pixels(out_w, out_h, ch);
    uint8_t *out = bytes ? malloc(bytes) : NULL;
    uint32_t *sums = calloc((size_t)out_w * (size_t)ch, sizeof *sums);
    if (!out || !sums) {
        free(out);
        free(sums);
        return PK_NO_MEMORY;
    }
    size_t src_row = (size_t)w * (size_t)ch, dst_row = (size_t)out_w * (size_t)ch;
    for (int oy = 0; oy < out_h; oy++) {
        int rows = h - oy * factor < factor ? h - oy * factor : factor;
        pk_shrink_row(img->pixels + src_row * (size_t)oy * (size_t)factor, w, rows, ch, factor, out_w, sums,
                      out + dst_row * (size_t)oy);
    }
    free(sums);
    free(img->pixels);
    img->pixels = out;
    img->width = out_w;
    img->height = out_h;
    return PK_OK;
}

int pk_shrink_rotate(pk_image *img, int quarter_turns) {
    quarter_turns &= 3;
    if (quarter_turns == 0) return PK_OK;
    int w = img->width, h = img->height, ch = img->channels;
    int out_w = quarter_turns == 2 ? w : h, out_h = quarter_turns == 2 ? h : w;
    uint8_t *out = malloc(pk_size_pixels(w, h, ch));
    if (!out) return PK_NO_MEMORY;
    for (int y = 0; y < out_h; y++) {
        for (int x = 0; x < out_w; x++) {
            /* The source pixel shown at (x, y) after the anticlockwise turn. */
            int sx = quarter_turns == 1 ? w - 1 - y : quarter_turns == 2 ? w - 1 - x : y;
            int sy = quarter_turns == 1 ? x : quarter_turns == 2 ? h - 1 - y : h - 1 - x;
            memcpy(out + ((size_t)y * out_w + x) * ch, img->pixels + ((size_t)sy * w + sx) * ch, (size_t)ch);
        }
    }
    free(img->pixels);
    img->pixels = out;
    img->width = out_w;
    img->height = out_h;
    return PK_OK;
}
