/* Shrink-on-load for decoders that can only decode whole (pk_shrink.c): a box average by an
 * integer factor, and quarter turns, on small enough pictures that later steps (the colour
 * transform, the resampler) work on the shrunk copy instead of the stored size. */
#ifndef PK_SHRINK_H
#define PK_SHRINK_H

#include "CPickerCodecs.h"

/* Replaces img's pixels by their box average over factor x factor blocks (the last row and
 * column of blocks average what they have): each side divided and rounded up. factor 1 is a
 * no-op. PK_OK, or PK_NO_MEMORY with img unchanged. */
int pk_shrink_box(pk_image *img, int factor);

/* Turns img anticlockwise by quarter_turns x 90 degrees (0..3; HEIF `irot`). */
int pk_shrink_rotate(pk_image *img, int quarter_turns);

#endif
