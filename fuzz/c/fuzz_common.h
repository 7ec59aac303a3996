/*
 * Shared by the C image fuzz targets: after a successful decode, push the
 * pixels through the same kernels pickerd runs next (orientation, Lanczos
 * resample, flatten, draw onto a canvas), so odd sizes (1xN, huge aspect
 * ratios) coming out of a decoder reach them too.
 */
#ifndef PK_FUZZ_COMMON_H
#define PK_FUZZ_COMMON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "CPickerCodecs.h"

/* The daemon allows 200 Mpx; fuzzing with that bound spends its time in
 * memset-sized allocations of absurd declared images. The check is the same
 * code path with a smaller number. */
#define PK_FUZZ_MAX_PIXELS (4u * 1024u * 1024u)

static inline void pk_fuzz_check_message(const char *msg) {
    /* The message must be NUL-terminated inside its buffer. */
    if (memchr(msg, 0, PK_MSG_LEN) == NULL) abort();
}

/* A fit target for a stored w x h picture decoded at 1/scale: a half, a
 * third or an odd fraction of it (never zero), sometimes wider than tall;
 * unknown sizes get a small fixed target. */
static inline void pk_fuzz_fit_size(int w, int h, int scale, size_t len, int *dw, int *dh) {
    if (w <= 0 || h <= 0 || w > 1000000 || h > 1000000) {
        *dw = 7;
        *dh = 5;
        return;
    }
    int sw = (w + scale - 1) / scale, sh = (h + scale - 1) / scale;
    int div = 2 + (int)(len % 5);
    *dw = sw / div > 0 ? sw / div : 1;
    *dh = sh / (div + (int)(len & 1)) > 0 ? sh / (div + (int)(len & 1)) : 1;
}

static inline void pk_fuzz_pipeline(const pk_image *img, const uint8_t *data, size_t len) {
    if (!img->pixels) abort(); /* PK_OK must hand back pixels */
    if (img->width <= 0 || img->height <= 0) abort();
    if (img->channels != 3 && img->channels != 4) abort();
    /* Touch the first and the last pixel byte: ASan reports a short buffer. */
    size_t bytes = (size_t)img->width * (size_t)img->height * (size_t)img->channels;
    volatile uint8_t sink = img->pixels[0] ^ img->pixels[bytes - 1];
    (void)sink;

    int orientation = 1 + (int)(len % 8);
    uint8_t *upright = NULL;
    int uw = 0, uh = 0;
    if (pk_orient(img->pixels, bytes, img->width, img->height, img->channels, orientation,
                  &upright, &uw, &uh) != PK_OK)
        abort();
    if ((size_t)uw * (size_t)uh != (size_t)img->width * (size_t)img->height) abort();

    /* Downscale to about a third, never to zero; crop a corner sometimes. */
    int dw = uw / 3 > 0 ? uw / 3 : 1, dh = uh / 3 > 0 ? uh / 3 : 1;
    int cx = 0, cy = 0, cw = uw, ch = uh;
    if (len > 0 && (data[len / 2] & 1) && uw > 1 && uh > 1) {
        cx = uw / 4; cy = uh / 4; cw = uw - cx; ch = uh - cy;
    }
    uint8_t *scaled = NULL;
    if (pk_resample(upright, bytes, uw, uh, img->channels, cx, cy, cw, ch, dw, dh, &scaled) != PK_OK)
        abort();
    if (img->channels == 4) {
        uint8_t *flat = NULL;
        if (pk_flatten(scaled, (size_t)dw * (size_t)dh * 4, dw, dh, 0, 0, 0, &flat) != PK_OK) abort();
        pk_free(flat);
    }
    uint8_t canvas[32 * 32 * 3];
    pk_fill_rgb(canvas, sizeof canvas, 32, 32, 0, 0, 0);
    pk_draw_onto(canvas, sizeof canvas, 32, 32, scaled, (size_t)dw * (size_t)dh * (size_t)img->channels, dw, dh, img->channels,
                 (int)(len % 40) - 20, (int)(len % 37) - 18);
    pk_free(scaled);
    pk_free(upright);
}

/* A decoder's outcome judged the same way by every target: PK_OK hands back pixels, which go
 * through the kernels and are freed; a failure hands back none and a well-formed message. */
static inline void pk_fuzz_outcome(int status, pk_image *img, const uint8_t *data, size_t len, const char *msg) {
    if (status == PK_OK) {
        pk_fuzz_pipeline(img, data, len);
        pk_free(img->pixels);
    } else {
        if (img->pixels) abort();
        pk_fuzz_check_message(msg);
    }
}

/* The whole input served through a pk_read_fn, as the header readers' HeaderBytes serves a file. */
typedef struct { const uint8_t *data; size_t len; } pk_fuzz_source;

static inline int pk_fuzz_read(void *context, int64_t offset, void *dst, size_t count) {
    const pk_fuzz_source *s = context;
    if (offset < 0 || (uint64_t)offset > s->len || count > s->len - (size_t)offset) return -1;
    memcpy(dst, s->data + offset, count);
    return 0;
}

#endif
