/*
 * Pixel kernels: the Lanczos-3 resampler (streaming and whole-picture). The decoder-to-
 * resampler feed is in pk_feed.c; orientation and compositing in pk_compose.c.
 */
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "CPickerCodecs.h"
#include "pk_internal.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void pk_free(void *p) { free(p); }

void pk_map_large_blocks(size_t threshold) {
    if (threshold > 0) mallopt(M_MMAP_THRESHOLD, (int)(threshold > (1u << 30) ? (1u << 30) : threshold));
}

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

static inline uint8_t pk_clamp_u8(float v) {
    if (!(v > 0.0f)) return 0; /* also NaN */
    if (v >= 255.0f) return 255;
    return (uint8_t)(v + 0.5f);
}

/* ------------------------------------------------------- streaming resampler
 *
 * Source rows are pushed top to bottom, so a decoder can feed scanlines as
 * they come and the full-size picture is never held. Each row is
 * box-averaged (kx columns; ky rows are summed first) into premultiplied
 * floats, four per pixel (RGB rows leave the fourth at 0), and added at once
 * into the accumulators of every output row whose vertical window covers it:
 * the vertical pass runs first, over whole rows, which the compiler turns
 * into SIMD. An output row whose window is complete gets its horizontal pass
 * (one 4-float vector multiply-add per tap) and is written out. Only the
 * accumulators of the rows in flight are held (a few rows of source width).
 */
typedef float pk_v4 __attribute__((vector_size(16)));

struct pk_resampler {
    int channels, crop_x, crop_w, crop_h;
    int dst_w, dst_h;
    int kx, ky, iw, ih;
    int rows_in;     /* source rows consumed (of crop_h) */
    int box_rows;    /* source rows summed into boxacc for the current box row */
    int iy;          /* next (box) row index for the vertical stage, 0..ih */
    int opened;      /* output rows opened so far (their accumulator zeroed) */
    int first_live;  /* lowest output row not yet written */
    int ring;        /* accumulator rows */
    unsigned char *done; /* dst_h flags: row written */
    pk_v4 *boxacc;   /* iw: sums for the current box row */
    pk_v4 *inrow;    /* iw: one averaged, premultiplied row */
    pk_v4 *acc;      /* ring * iw */
    uint8_t *dst;    /* dst_w * dst_h * channels */
    pk_taps hx, vy;
};

void pk_resampler_free(pk_resampler *r) {
    if (!r) return;
    free(r->done);
    free(r->boxacc);
    free(r->inrow);
    free(r->acc);
    free(r->dst);
    pk_taps_free(&r->hx);
    pk_taps_free(&r->vy);
    free(r);
}

pk_resampler *pk_resampler_new(int src_w, int src_h, int channels, int crop_x, int crop_y,
                               int crop_w, int crop_h, int dst_w, int dst_h) {
    if ((channels != 3 && channels != 4) || src_w <= 0 || src_h <= 0 || dst_w <= 0 ||
        dst_h <= 0 || crop_x < 0 || crop_y < 0 || crop_w <= 0 || crop_h <= 0 ||
        crop_x + crop_w > src_w || crop_y + crop_h > src_h)
        return NULL;
    pk_resampler *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->channels = channels;
    r->crop_x = crop_x;
    r->crop_w = crop_w;
    r->crop_h = crop_h;
    r->dst_w = dst_w;
    r->dst_h = dst_h;
    /* Integer box pre-reduce for big reductions, leaving >= 2x for Lanczos. */
    r->kx = crop_w / (2 * dst_w);
    r->ky = crop_h / (2 * dst_h);
    if (r->kx < 1) r->kx = 1;
    if (r->ky < 1) r->ky = 1;
    r->iw = (crop_w + r->kx - 1) / r->kx;
    r->ih = (crop_h + r->ky - 1) / r->ky;
    /* Geometry of the (possibly partial) last box on each axis. */
    int rem_x = crop_w - (r->iw - 1) * r->kx, rem_y = crop_h - (r->ih - 1) * r->ky;
    double last_x = (double)(r->iw - 1) + ((double)rem_x / r->kx - 1.0) * 0.5;
    double last_y = (double)(r->ih - 1) + ((double)rem_y / r->ky - 1.0) * 0.5;
    double ratio_x = (double)crop_w / ((double)r->kx * dst_w);
    double ratio_y = (double)crop_h / ((double)r->ky * dst_h);
    if (!pk_taps_make(&r->hx, r->iw, dst_w, ratio_x, last_x, (double)rem_x / r->kx) ||
        !pk_taps_make(&r->vy, r->ih, dst_h, ratio_y, last_y, (double)rem_y / r->ky)) {
        pk_resampler_free(r);
        return NULL;
    }
    /* Rows in flight: output i is open from start_i to its last tap; its
     * slot (i % ring) is reused by output i + ring, which must start later. */
    int ring = 1;
    for (int i = 0; i < dst_h; i++) {
        int end = r->vy.start[i] + r->vy.count[i] - 1, live = 1;
        for (int j = i + 1; j < dst_h && r->vy.start[j] <= end; j++) live++;
        if (live > ring) ring = live;
    }
    r->ring = ring + 1;
    size_t iw = (size_t)r->iw;
    r->done = calloc((size_t)dst_h, 1);
    r->boxacc = calloc(iw, sizeof(pk_v4));
    r->inrow = calloc(iw, sizeof(pk_v4));
    r->acc = malloc(sizeof(pk_v4) * iw * (size_t)r->ring);
    r->dst = malloc((size_t)dst_w * (size_t)dst_h * (size_t)channels);
    if (!r->done || !r->boxacc || !r->inrow || !r->acc || !r->dst) {
        pk_resampler_free(r);
        return NULL;
    }
    return r;
}

/* Horizontal pass of a finished accumulator row into output row y. */
static void pk_resampler_emit(pk_resampler *r, const pk_v4 *row, int y) {
    const int C = r->channels, dst_w = r->dst_w;
    const pk_taps *hx = &r->hx;
    uint8_t *o = r->dst + (size_t)y * (size_t)dst_w * (size_t)C;
    for (int x = 0; x < dst_w; x++, o += C) {
        const float *w = hx->weights + (size_t)x * (size_t)hx->max_taps;
        const pk_v4 *p = row + hx->start[x];
        int n = hx->count[x];
        pk_v4 a = {0, 0, 0, 0};
        for (int k = 0; k < n; k++) a += w[k] * p[k];
        if (C == 4) {
            uint8_t a8 = pk_clamp_u8(a[3]);
            if (a8 == 0) {
                o[0] = o[1] = o[2] = o[3] = 0;
            } else {
                float f = 255.0f / a[3]; /* un-premultiply */
                o[0] = pk_clamp_u8(a[0] * f);
                o[1] = pk_clamp_u8(a[1] * f);
                o[2] = pk_clamp_u8(a[2] * f);
                o[3] = a8;
            }
        } else {
            o[0] = pk_clamp_u8(a[0]);
            o[1] = pk_clamp_u8(a[1]);
            o[2] = pk_clamp_u8(a[2]);
        }
    }
    r->done[y] = 1;
}

/* Vertical stage: adds r->inrow (box row r->iy) into every open output row. */
static void pk_resampler_vstage(pk_resampler *r) {
    const int iy = r->iy;
    const size_t iw = (size_t)r->iw;
    const pk_taps *vy = &r->vy;
    while (r->opened < r->dst_h && vy->start[r->opened] <= iy) {
        memset(r->acc + (size_t)(r->opened % r->ring) * iw, 0, sizeof(pk_v4) * iw);
        r->opened++;
    }
    for (int i = r->first_live; i < r->opened; i++) {
        if (r->done[i]) continue;
        int k = iy - vy->start[i];
        if (k < 0 || k >= vy->count[i]) continue;
        float w = vy->weights[(size_t)i * (size_t)vy->max_taps + (size_t)k];
        pk_v4 *a = r->acc + (size_t)(i % r->ring) * iw;
        const pk_v4 *in = r->inrow;
        for (size_t x = 0; x < iw; x++) a[x] += w * in[x];
        if (k == vy->count[i] - 1) pk_resampler_emit(r, a, i);
    }
    while (r->first_live < r->dst_h && r->done[r->first_live]) r->first_live++;
    r->iy++;
}

/* One source row (starting at crop_x) straight into r->inrow (no box). */
static void pk_resampler_direct_row(pk_resampler *r, const uint8_t *p) {
    pk_v4 *d = r->inrow;
    const int n = r->crop_w;
    if (r->channels == 3) {
        for (int x = 0; x < n; x++, p += 3) d[x] = (pk_v4){p[0], p[1], p[2], 0};
    } else {
        for (int x = 0; x < n; x++, p += 4) {
            float a = p[3], f = a / 255.0f;
            d[x] = (pk_v4){p[0] * f, p[1] * f, p[2] * f, a};
        }
    }
}

/* Adds one source row into the box sums (kx columns per box). */
static void pk_resampler_accumulate(pk_resampler *r, const uint8_t *p) {
    const int kx = r->kx, cw = r->crop_w;
    pk_v4 *acc = r->boxacc;
    if (r->channels == 3) {
        for (int x0 = 0; x0 < cw; x0 += kx, acc++) {
            int x1 = x0 + kx > cw ? cw : x0 + kx;
            pk_v4 s = {0, 0, 0, 0};
            for (int x = x0; x < x1; x++, p += 3) s += (pk_v4){p[0], p[1], p[2], 0};
            *acc += s;
        }
    } else {
        for (int x0 = 0; x0 < cw; x0 += kx, acc++) {
            int x1 = x0 + kx > cw ? cw : x0 + kx;
            pk_v4 s = {0, 0, 0, 0};
            for (int x = x0; x < x1; x++, p += 4) {
                float a = p[3];
                s += (pk_v4){p[0] * a, p[1] * a, p[2] * a, a};
            }
            *acc += s;
        }
    }
}

/* Averages the box sums into r->inrow and clears them. */
static void pk_resampler_flush_box(pk_resampler *r) {
    const int kx = r->kx, cw = r->crop_w;
    const pk_v4 scale = r->channels == 4 ? (pk_v4){1 / 255.0f, 1 / 255.0f, 1 / 255.0f, 1}
                                         : (pk_v4){1, 1, 1, 1};
    for (int bx = 0; bx < r->iw; bx++) {
        int x0 = bx * kx, x1 = x0 + kx > cw ? cw : x0 + kx;
        float inv = 1.0f / (float)(r->box_rows * (x1 - x0));
        r->inrow[bx] = r->boxacc[bx] * inv * scale;
    }
    memset(r->boxacc, 0, sizeof(pk_v4) * (size_t)r->iw);
    r->box_rows = 0;
}

void pk_resampler_push(pk_resampler *r, const uint8_t *const *rows, int count) {
    const size_t xoff = (size_t)r->crop_x * (size_t)r->channels;
    for (int i = 0; i < count && r->rows_in < r->crop_h; i++) {
        const uint8_t *p = rows[i] + xoff;
        r->rows_in++;
        if (r->kx == 1 && r->ky == 1) {
            pk_resampler_direct_row(r, p);
            pk_resampler_vstage(r);
            continue;
        }
        pk_resampler_accumulate(r, p);
        r->box_rows++;
        if (r->box_rows == r->ky || r->rows_in == r->crop_h) {
            pk_resampler_flush_box(r);
            pk_resampler_vstage(r);
        }
    }
}

int pk_resampler_finish(pk_resampler *r, uint8_t **out) {
    *out = NULL;
    if (r->iy != r->ih || r->first_live != r->dst_h) return PK_INVALID; /* rows missing */
    *out = r->dst;
    r->dst = NULL;
    return PK_OK;
}

int pk_resample(const uint8_t *src, size_t src_len, int src_w, int src_h, int channels,
                int crop_x, int crop_y, int crop_w, int crop_h,
                int dst_w, int dst_h, uint8_t **out) {
    if (!out) return PK_INVALID;
    *out = NULL;
    if (!src || (channels != 3 && channels != 4) || !pk_buffer_holds(src_len, src_w, src_h, channels) ||
        dst_w <= 0 || dst_h <= 0 || crop_x < 0 || crop_y < 0 || crop_w <= 0 ||
        crop_h <= 0 || crop_x + crop_w > src_w || crop_y + crop_h > src_h)
        return PK_INVALID;
    pk_resampler *r = pk_resampler_new(src_w, src_h, channels, crop_x, crop_y, crop_w, crop_h,
                                       dst_w, dst_h);
    if (!r) return PK_NO_MEMORY;
    size_t stride = (size_t)src_w * (size_t)channels;
    const uint8_t *rows[16];
    for (int y = 0; y < crop_h;) {
        int n = 0;
        for (; n < 16 && y + n < crop_h; n++) rows[n] = src + (size_t)(crop_y + y + n) * stride;
        pk_resampler_push(r, rows, n);
        y += n;
    }
    int status = pk_resampler_finish(r, out);
    pk_resampler_free(r);
    return status;
}
