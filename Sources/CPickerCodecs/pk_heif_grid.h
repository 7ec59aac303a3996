/* The primary item's grid descriptor, read from the boxes (pk_heif_grid.c). */
#ifndef PK_HEIF_GRID_H
#define PK_HEIF_GRID_H

#include <stddef.h>
#include <stdint.h>

typedef struct pk_heif_grid {
    int is_grid;        /* the primary item is a 'grid' */
    uint32_t rows, columns;
    uint32_t width, height; /* the grid's output size (what libheif allocates and composes) */
    uint64_t tile_refs; /* 'dimg' references from the primary item (tiles libheif decodes) */
} pk_heif_grid;

/* 0: not a grid (or no meta box found: libheif judges it); 1: a grid, read; -1: a grid whose
 * descriptor cannot be read. */
int pk_heif_grid_read(const uint8_t *data, size_t len, pk_heif_grid *out);

/* The primary item's anticlockwise quarter turns (its `irot`, 0 without one) when that is
 * its only transform, so a decoder may rotate after shrinking; -1 when it has a mirror or a
 * crop (imir, clap), two rotations, or boxes that cannot be read: libheif applies those. */
int pk_heif_primary_rotation(const uint8_t *data, size_t len);

#endif
