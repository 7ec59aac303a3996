#ifndef PK_SIZE_H
#define PK_SIZE_H
/* Overflow-checked byte counts for canvases and buffers (the C side of PixelCount.swift):
 * a product that does not fit size_t, or a non-positive factor, gives 0, which callers treat as
 * "refuse" (malloc(0) is never asked for a picture). Shared with the decoders' limit checks. */
#include <stddef.h>
#include <stdint.h>

/* w × h × channels bytes, or 0 when a factor is <= 0 or the product overflows size_t. */
static inline size_t pk_size_pixels(int w, int h, int channels) {
    size_t bytes;
    if (w <= 0 || h <= 0 || channels <= 0) return 0;
    if (__builtin_mul_overflow((size_t)w, (size_t)h, &bytes)) return 0;
    if (__builtin_mul_overflow(bytes, (size_t)channels, &bytes)) return 0;
    return bytes;
}
#endif
