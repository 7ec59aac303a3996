/*
 * Pixel kernels: Lanczos-3 resample, EXIF orientation, compositing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "CPickerCodecs.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void pk_free(void *p) { free(p); }

/* ---------------------------------------------------------------- resample */

/* Filter taps for one axis: output pixel i reads in[start[i] .. start[i]+count[i]-1]
 * with weights weights[i*max_taps ...], normalised to sum 1. */
typedef struct pk_taps {
    int *start;
    int *count;
    float *weights;
    int max_taps;
} pk_taps;

static double pk_sinc(double x) {
    if (x == 0.0) return 1.0;
    x *= M_PI;
    return sin(x) / x;
}

static double pk_lanczos3(double x) {
    if (x <= -3.0 || x >= 3.0) return 0.0;
    return pk_sinc(x) * pk_sinc(x / 3.0);
}

static void pk_taps_free(pk_taps *t) {
    free(t->start);
    free(t->count);
    free(t->weights);
    t->start = NULL;
    t->count = NULL;
    t->weights = NULL;
}

/* in_size samples -> out_size outputs. `ratio` is input samples per output
 * pixel. When the input came from a box pre-reduce whose last box was
 * partial, that sample sits at `last_pos` (in sample units) and stands for
 * `last_weight` (< 1) of a full sample; otherwise pass last_pos = in_size - 1
 * and last_weight = 1. */
static int pk_taps_make(pk_taps *t, int in_size, int out_size, double ratio,
                        double last_pos, double last_weight) {
    double stretch = ratio > 1.0 ? ratio : 1.0; /* widen the filter when reducing */
    double support = 3.0 * stretch;
    int max_taps = (int)ceil(support) * 2 + 2;
    t->max_taps = max_taps;
    t->start = malloc(sizeof(int) * (size_t)out_size);
    t->count = malloc(sizeof(int) * (size_t)out_size);
    t->weights = malloc(sizeof(float) * (size_t)out_size * (size_t)max_taps);
    if (!t->start || !t->count || !t->weights) {
        pk_taps_free(t);
        return 0;
    }
    for (int i = 0; i < out_size; i++) {
        double center = ((double)i + 0.5) * ratio - 0.5;
        int left = (int)ceil(center - support);
        int right = (int)floor(center + support) + 1; /* +1: the last sample may sit left of its index */
        if (left < 0) left = 0;
        if (right > in_size - 1) right = in_size - 1;
        if (right - left + 1 > max_taps) right = left + max_taps - 1;
        float *w = t->weights + (size_t)i * (size_t)max_taps;
        double sum = 0.0;
        int n = 0;
        for (int j = left; j <= right; j++, n++) {
            int last = j == in_size - 1;
            double pos = last ? last_pos : (double)j;
            double v = pk_lanczos3((pos - center) / stretch) * (last ? last_weight : 1.0);
            w[n] = (float)v;
            sum += v;
        }
        if (n == 0 || fabs(sum) < 1e-9) {
            /* Degenerate window: take the nearest sample. */
            left = (int)fmin(fmax(floor(center + 0.5), 0), in_size - 1);
            w[0] = 1.0f;
            n = 1;
            sum = 1.0;
        }
        /* Renormalise over the taps that exist: edges keep full brightness. */
        for (int k = 0; k < n; k++) w[k] = (float)(w[k] / sum);
        t->start[i] = left;
        t->count[i] = n;
    }
    return 1;
}

/* Copies (and, for k > 1, box-averages by kx x ky) the crop into floats with
 * premultiplied alpha. Boxes at the right/bottom edge may be partial. */
static float *pk_to_float(const uint8_t *src, int src_w, int channels, int cx, int cy,
                          int cw, int chh, int kx, int ky, int *out_w, int *out_h) {
    int bw = (cw + kx - 1) / kx, bh = (chh + ky - 1) / ky;
    float *dst = malloc(sizeof(float) * (size_t)bw * (size_t)bh * (size_t)channels);
    if (!dst) return NULL;
    size_t sstride = (size_t)src_w * (size_t)channels;
    float acc[4];
    for (int by = 0; by < bh; by++) {
        int y0 = cy + by * ky, y1 = y0 + ky;
        if (y1 > cy + chh) y1 = cy + chh;
        for (int bx = 0; bx < bw; bx++) {
            int x0 = cx + bx * kx, x1 = x0 + kx;
            if (x1 > cx + cw) x1 = cx + cw;
            acc[0] = acc[1] = acc[2] = acc[3] = 0.0f;
            for (int y = y0; y < y1; y++) {
                const uint8_t *p = src + (size_t)y * sstride + (size_t)x0 * (size_t)channels;
                if (channels == 4) {
                    for (int x = x0; x < x1; x++, p += 4) {
                        float a = p[3];
                        acc[0] += p[0] * a;
                        acc[1] += p[1] * a;
                        acc[2] += p[2] * a;
                        acc[3] += a;
                    }
                } else {
                    for (int x = x0; x < x1; x++, p += 3) {
                        acc[0] += p[0];
                        acc[1] += p[1];
                        acc[2] += p[2];
                    }
                }
            }
            float inv = 1.0f / (float)((y1 - y0) * (x1 - x0));
            float *d = dst + ((size_t)by * (size_t)bw + (size_t)bx) * (size_t)channels;
            if (channels == 4) {
                /* premultiplied, colour on a 0..255 scale */
                d[0] = acc[0] * inv / 255.0f;
                d[1] = acc[1] * inv / 255.0f;
                d[2] = acc[2] * inv / 255.0f;
                d[3] = acc[3] * inv;
            } else {
                d[0] = acc[0] * inv;
                d[1] = acc[1] * inv;
                d[2] = acc[2] * inv;
            }
        }
    }
    *out_w = bw;
    *out_h = bh;
    return dst;
}

static inline uint8_t pk_clamp_u8(float v) {
    if (!(v > 0.0f)) return 0; /* also NaN */
    if (v >= 255.0f) return 255;
    return (uint8_t)(v + 0.5f);
}

int pk_resample(const uint8_t *src, int src_w, int src_h, int channels,
                int crop_x, int crop_y, int crop_w, int crop_h,
                int dst_w, int dst_h, uint8_t **out) {
    if (!out) return PK_INVALID;
    *out = NULL;
    if (!src || (channels != 3 && channels != 4) || src_w <= 0 || src_h <= 0 ||
        dst_w <= 0 || dst_h <= 0 || crop_x < 0 || crop_y < 0 || crop_w <= 0 ||
        crop_h <= 0 || crop_x + crop_w > src_w || crop_y + crop_h > src_h)
        return PK_INVALID;

    /* Integer box pre-reduce for big reductions, leaving >= 2x for Lanczos. */
    int kx = crop_w / (2 * dst_w), ky = crop_h / (2 * dst_h);
    if (kx < 1) kx = 1;
    if (ky < 1) ky = 1;
    int iw = 0, ih = 0;
    float *in = pk_to_float(src, src_w, channels, crop_x, crop_y, crop_w, crop_h, kx, ky,
                            &iw, &ih);
    if (!in) return PK_NO_MEMORY;

    pk_taps hx = {0}, vy = {0};
    float *mid = malloc(sizeof(float) * (size_t)dst_w * (size_t)ih * (size_t)channels);
    float *rowacc = malloc(sizeof(float) * (size_t)dst_w * (size_t)channels);
    uint8_t *dst = malloc((size_t)dst_w * (size_t)dst_h * (size_t)channels);
    /* Geometry of the (possibly partial) last box on each axis. */
    int rem_x = crop_w - (iw - 1) * kx, rem_y = crop_h - (ih - 1) * ky;
    double last_x = (double)(iw - 1) + ((double)rem_x / kx - 1.0) * 0.5;
    double last_y = (double)(ih - 1) + ((double)rem_y / ky - 1.0) * 0.5;
    double ratio_x = (double)crop_w / ((double)kx * dst_w);
    double ratio_y = (double)crop_h / ((double)ky * dst_h);
    if (!mid || !rowacc || !dst ||
        !pk_taps_make(&hx, iw, dst_w, ratio_x, last_x, (double)rem_x / kx) ||
        !pk_taps_make(&vy, ih, dst_h, ratio_y, last_y, (double)rem_y / ky)) {
        free(in); free(mid); free(rowacc); free(dst);
        pk_taps_free(&hx);
        pk_taps_free(&vy);
        return PK_NO_MEMORY;
    }

    /* Horizontal pass: iw x ih -> dst_w x ih */
    const int C = channels;
    for (int y = 0; y < ih; y++) {
        const float *row = in + (size_t)y * (size_t)iw * (size_t)C;
        float *o = mid + (size_t)y * (size_t)dst_w * (size_t)C;
        for (int x = 0; x < dst_w; x++) {
            const float *w = hx.weights + (size_t)x * (size_t)hx.max_taps;
            const float *p = row + (size_t)hx.start[x] * (size_t)C;
            int n = hx.count[x];
            float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
            if (C == 4) {
                for (int k = 0; k < n; k++, p += 4) {
                    a0 += w[k] * p[0]; a1 += w[k] * p[1];
                    a2 += w[k] * p[2]; a3 += w[k] * p[3];
                }
                o[4 * x] = a0; o[4 * x + 1] = a1; o[4 * x + 2] = a2; o[4 * x + 3] = a3;
            } else {
                for (int k = 0; k < n; k++, p += 3) {
                    a0 += w[k] * p[0]; a1 += w[k] * p[1]; a2 += w[k] * p[2];
                }
                o[3 * x] = a0; o[3 * x + 1] = a1; o[3 * x + 2] = a2;
            }
        }
    }

    /* Vertical pass: dst_w x ih -> dst_w x dst_h, whole rows at a time. */
    size_t rowlen = (size_t)dst_w * (size_t)C;
    for (int y = 0; y < dst_h; y++) {
        const float *w = vy.weights + (size_t)y * (size_t)vy.max_taps;
        int n = vy.count[y];
        memset(rowacc, 0, sizeof(float) * rowlen);
        for (int k = 0; k < n; k++) {
            const float *r = mid + (size_t)(vy.start[y] + k) * rowlen;
            float wk = w[k];
            for (size_t i = 0; i < rowlen; i++) rowacc[i] += wk * r[i];
        }
        uint8_t *o = dst + (size_t)y * rowlen;
        if (C == 4) {
            for (int x = 0; x < dst_w; x++) {
                float a = rowacc[4 * x + 3];
                uint8_t a8 = pk_clamp_u8(a);
                if (a8 == 0) {
                    o[4 * x] = o[4 * x + 1] = o[4 * x + 2] = o[4 * x + 3] = 0;
                } else {
                    float f = 255.0f / a; /* un-premultiply */
                    o[4 * x] = pk_clamp_u8(rowacc[4 * x] * f);
                    o[4 * x + 1] = pk_clamp_u8(rowacc[4 * x + 1] * f);
                    o[4 * x + 2] = pk_clamp_u8(rowacc[4 * x + 2] * f);
                    o[4 * x + 3] = a8;
                }
            }
        } else {
            for (size_t i = 0; i < rowlen; i++) o[i] = pk_clamp_u8(rowacc[i]);
        }
    }

    free(in);
    free(mid);
    free(rowacc);
    pk_taps_free(&hx);
    pk_taps_free(&vy);
    *out = dst;
    return PK_OK;
}

/* ------------------------------------------------------------- orientation */

int pk_orient(const uint8_t *src, int width, int height, int channels,
              int orientation, uint8_t **out, int *out_w, int *out_h) {
    if (!out || !out_w || !out_h) return PK_INVALID;
    *out = NULL;
    if (!src || width <= 0 || height <= 0 || channels < 1 || channels > 4)
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
    uint8_t *dst = malloc((size_t)width * (size_t)height * (size_t)channels);
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

int pk_flatten(const uint8_t *rgba, int width, int height, uint8_t r, uint8_t g,
               uint8_t b, uint8_t **out) {
    if (!out) return PK_INVALID;
    *out = NULL;
    if (!rgba || width <= 0 || height <= 0) return PK_INVALID;
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

void pk_fill_rgb(uint8_t *canvas, int width, int height, uint8_t r, uint8_t g,
                 uint8_t b) {
    if (!canvas || width <= 0 || height <= 0) return;
    size_t n = (size_t)width * (size_t)height;
    for (size_t i = 0; i < n; i++) {
        canvas[3 * i] = r;
        canvas[3 * i + 1] = g;
        canvas[3 * i + 2] = b;
    }
}

void pk_draw_onto(uint8_t *canvas, int canvas_w, int canvas_h,
                  const uint8_t *src, int src_w, int src_h, int src_channels,
                  int x, int y) {
    if (!canvas || !src || (src_channels != 3 && src_channels != 4)) return;
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
