/*
 * Pixel kernels that move or mix whole pixels: EXIF orientation and compositing.
 */
#include <stdlib.h>
#include <string.h>

#include "CPickerCodecs.h"
#include "pk_internal.h"
#include "pk_size.h"

/* ------------------------------------------------------------- orientation */

int pk_orient(const uint8_t *src, size_t src_len, int width, int height, int channels,
              int orientation, uint8_t **out, int *out_w, int *out_h) {
    if (!out || !out_w || !out_h) return PK_INVALID;
    *out = NULL;
    if (!src || channels < 1 || channels > 4 || !pk_buffer_holds(src_len, width, height, channels))
        return PK_INVALID;
    if (orientation < 1 || orientation > 8) orientation = 1;
    const ptrdiff_t C = channels, W = width, H = height;
    /* Source offset of output (ox, oy) = base + ox*dx + oy*dy. */
    ptrdiff_t base = 0, dx = C, dy = W * C;
    int ow = width, oh = height;
    switch (orientation) {
    case 1: base = 0; dx = C; dy = W * C; break;
    case 2: base = (W - 1) * C; dx = -C; dy = W * C; break;
    case 3: base = ((H - 1) * W + (W - 1)) * C; dx = -C; dy = -W * C; break;
    case 4: base = (H - 1) * W * C; dx = C; dy = -W * C; break;
    case 5: base = 0; dx = W * C; dy = C; break;
    case 6: base = (H - 1) * W * C; dx = -W * C; dy = C; break;
    case 7: base = ((H - 1) * W + (W - 1)) * C; dx = -W * C; dy = -C; break;
    case 8: base = (W - 1) * C; dx = W * C; dy = -C; break;
    }
    if (orientation >= 5) {
        ow = height;
        oh = width;
    }
    size_t bytes = pk_size_pixels(width, height, channels);
    uint8_t *dst = bytes ? malloc(bytes) : NULL;
    if (!dst) return PK_NO_MEMORY;
    uint8_t *o = dst;
    for (int y = 0; y < oh; y++) {
        const uint8_t *p = src + base + (ptrdiff_t)y * dy;
        if (dx == C) {
            memcpy(o, p, (size_t)ow * (size_t)C);
            o += (size_t)ow * (size_t)C;
            continue;
        }
        if (C == 3) {
            for (int x = 0; x < ow; x++, p += dx, o += 3) {
                o[0] = p[0]; o[1] = p[1]; o[2] = p[2];
            }
        } else if (C == 4) {
            for (int x = 0; x < ow; x++, p += dx, o += 4) memcpy(o, p, 4);
        } else {
            for (int x = 0; x < ow; x++, p += dx, o += C) memcpy(o, p, (size_t)C);
        }
    }
    *out = dst;
    *out_w = ow;
    *out_h = oh;
    return PK_OK;
}

/* -------------------------------------------------------------- composite */

static inline uint8_t pk_blend(unsigned fg, unsigned bg, unsigned a) {
    return (uint8_t)((fg * a + bg * (255 - a) + 127) / 255);
}

int pk_flatten(const uint8_t *rgba, size_t rgba_len, int width, int height, uint8_t r, uint8_t g,
               uint8_t b, uint8_t **out) {
    if (!out) return PK_INVALID;
    *out = NULL;
    if (!rgba || !pk_buffer_holds(rgba_len, width, height, 4)) return PK_INVALID;
    size_t n = (size_t)width * (size_t)height;
    uint8_t *dst = malloc(n * 3);
    if (!dst) return PK_NO_MEMORY;
    for (size_t i = 0; i < n; i++) {
        unsigned a = rgba[4 * i + 3];
        dst[3 * i] = pk_blend(rgba[4 * i], r, a);
        dst[3 * i + 1] = pk_blend(rgba[4 * i + 1], g, a);
        dst[3 * i + 2] = pk_blend(rgba[4 * i + 2], b, a);
    }
    *out = dst;
    return PK_OK;
}

void pk_fill_rgb(uint8_t *canvas, size_t canvas_len, int width, int height, uint8_t r, uint8_t g,
                 uint8_t b) {
    if (!canvas || !pk_buffer_holds(canvas_len, width, height, 3)) return;
    size_t n = (size_t)width * (size_t)height;
    for (size_t i = 0; i < n; i++) {
        canvas[3 * i] = r;
        canvas[3 * i + 1] = g;
        canvas[3 * i + 2] = b;
    }
}

void pk_draw_onto(uint8_t *canvas, size_t canvas_len, int canvas_w, int canvas_h,
                  const uint8_t *src, size_t src_len, int src_w, int src_h, int src_channels,
                  int x, int y) {
    if (!canvas || !src || (src_channels != 3 && src_channels != 4)) return;
    if (!pk_buffer_holds(canvas_len, canvas_w, canvas_h, 3) ||
        !pk_buffer_holds(src_len, src_w, src_h, src_channels))
        return;
    int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    int x1 = x + src_w > canvas_w ? canvas_w : x + src_w;
    int y1 = y + src_h > canvas_h ? canvas_h : y + src_h;
    if (x1 <= x0 || y1 <= y0) return;
    for (int cy = y0; cy < y1; cy++) {
        uint8_t *o = canvas + ((size_t)cy * (size_t)canvas_w + (size_t)x0) * 3;
        const uint8_t *p = src + ((size_t)(cy - y) * (size_t)src_w + (size_t)(x0 - x)) *
                                     (size_t)src_channels;
        if (src_channels == 3) {
            memcpy(o, p, (size_t)(x1 - x0) * 3);
            continue;
        }
        for (int cx = x0; cx < x1; cx++, o += 3, p += 4) {
            unsigned a = p[3];
            o[0] = pk_blend(p[0], o[0], a);
            o[1] = pk_blend(p[1], o[1], a);
            o[2] = pk_blend(p[2], o[2], a);
        }
    }
}
