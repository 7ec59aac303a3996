/*
 * The primary item's grid descriptor read from the HEIF boxes (ISO/IEC 23008-12 6.6.2.3),
 * before libheif decodes anything (issue 21 #3): libheif composes a grid at the grid's own
 * output size and decodes every referenced tile, while the cap and the memory budget were
 * judged on the declared `ispe` size. Only the boxes on the path are read; every length and
 * offset is checked against its parent.
 */
#include <stdint.h>
#include <string.h>

#include "pk_heif_grid.h"

typedef struct pk_span { const uint8_t *p; uint64_t len; } pk_span;

static uint64_t pk_rd(const uint8_t *p, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v = v << 8 | p[i];
    return v;
}

/* The first child box of `parent` (from `skip` bytes in) with type `type`; its payload. */
static int pk_box_find(pk_span parent, uint64_t skip, const char *type, pk_span *out) {
    uint64_t at = skip;
    while (at + 8 <= parent.len) {
        uint64_t size = pk_rd(parent.p + at, 4), head = 8;
        if (size == 1) {
            if (at + 16 > parent.len) return 0;
            size = pk_rd(parent.p + at + 8, 8);
            head = 16;
        } else if (size == 0) {
            size = parent.len - at;
        }
        if (size < head || size > parent.len - at) return 0;
        if (memcmp(parent.p + at + 4, type, 4) == 0) {
            out->p = parent.p + at + head;
            out->len = size - head;
            return 1;
        }
        at += size;
    }
    return 0;
}

static int pk_primary_id(pk_span meta, uint32_t *id) {
    pk_span pitm;
    if (!pk_box_find(meta, 4, "pitm", &pitm) || pitm.len < 6) return 0;
    *id = (uint32_t)(pitm.p[0] == 0 ? pk_rd(pitm.p + 4, 2) : (pitm.len >= 8 ? pk_rd(pitm.p + 4, 4) : 0));
    return 1;
}

/* 1 when item `id`'s infe says 'grid'. */
static int pk_item_is_grid(pk_span meta, uint32_t id) {
    pk_span iinf, infe;
    if (!pk_box_find(meta, 4, "iinf", &iinf) || iinf.len < 6) return 0;
    uint64_t at = iinf.p[0] == 0 ? 6 : 8;
    pk_span rest = {iinf.p + at, iinf.len > at ? iinf.len - at : 0};
    while (pk_box_find(rest, 0, "infe", &infe)) {
        int version = infe.len > 0 ? infe.p[0] : 0;
        int idlen = version >= 3 ? 4 : 2;
        if (version >= 2 && infe.len >= (uint64_t)(4 + idlen + 2 + 4) && pk_rd(infe.p + 4, idlen) == id)
            return memcmp(infe.p + 4 + idlen + 2, "grid", 4) == 0;
        uint64_t used = (uint64_t)(infe.p - rest.p) + infe.len;
        rest.p += used;
        rest.len -= used;
    }
    return 0;
}

/* The first extent of item `id` (file or idat), as a span of the file. */
static int pk_item_data(pk_span file, pk_span meta, uint32_t id, pk_span *out) {
    pk_span iloc;
    if (!pk_box_find(meta, 4, "iloc", &iloc) || iloc.len < 8) return 0;
    int version = iloc.p[0];
    int off_size = iloc.p[4] >> 4, len_size = iloc.p[4] & 15, base_size = iloc.p[5] >> 4;
    int index_size = version >= 1 ? (iloc.p[5] & 15) : 0;
    uint64_t at = 6, count;
    int idlen = version >= 2 ? 4 : 2;
    if (at + idlen > iloc.len) return 0;
    count = pk_rd(iloc.p + at, idlen);
    at += idlen;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t need = idlen + (version >= 1 ? 2 : 0) + 2 + base_size + 2;
        if (at + need > iloc.len) return 0;
        uint64_t item = pk_rd(iloc.p + at, idlen);
        at += idlen;
        int method = 0;
        if (version >= 1) { method = iloc.p[at + 1] & 15; at += 2; }
        at += 2; /* data_reference_index */
        uint64_t base = pk_rd(iloc.p + at, base_size);
        at += base_size;
        uint64_t extents = pk_rd(iloc.p + at, 2);
        at += 2;
        uint64_t each = (uint64_t)index_size + off_size + len_size;
        if (extents > (iloc.len - at) / (each ? each : 1)) return 0;
        if (item == id && extents >= 1) {
            uint64_t off = base + pk_rd(iloc.p + at + index_size, off_size);
            uint64_t len = pk_rd(iloc.p + at + index_size + off_size, len_size);
            pk_span src = file;
            if (method == 1 && !pk_box_find(meta, 4, "idat", &src)) return 0;
            if (method > 1 || off > src.len) return 0;
            if (len == 0 || len > src.len - off) len = src.len - off;
            out->p = src.p + off;
            out->len = len;
            return 1;
        }
        at += extents * each;
    }
    return 0;
}

/* How many 'dimg' references item `id` has (all its dimg boxes summed). */
static uint64_t pk_item_tiles(pk_span meta, uint32_t id) {
    pk_span iref, ref;
    if (!pk_box_find(meta, 4, "iref", &iref) || iref.len < 4) return 0;
    int idlen = iref.p[0] == 0 ? 2 : 4;
    pk_span rest = {iref.p + 4, iref.len - 4};
    uint64_t total = 0;
    while (pk_box_find(rest, 0, "dimg", &ref)) {
        if (ref.len >= (uint64_t)idlen + 2 && pk_rd(ref.p, idlen) == id) total += pk_rd(ref.p + idlen, 2);
        uint64_t used = (uint64_t)(ref.p - rest.p) + ref.len;
        rest.p += used;
        rest.len -= used;
    }
    return total;
}

int pk_heif_grid_read(const uint8_t *data, size_t len, pk_heif_grid *out) {
    memset(out, 0, sizeof *out);
    pk_span file = {data, len}, meta, grid;
    uint32_t id;
    if (!pk_box_find(file, 0, "meta", &meta) || !pk_primary_id(meta, &id) || !pk_item_is_grid(meta, id)) return 0;
    out->is_grid = 1;
    out->tile_refs = pk_item_tiles(meta, id);
    if (!pk_item_data(file, meta, id, &grid) || grid.len < 8) return -1;
    int wide = grid.p[1] & 1;
    if (grid.len < (uint64_t)(wide ? 12 : 8)) return -1;
    out->rows = grid.p[2] + 1u;
    out->columns = grid.p[3] + 1u;
    out->width = (uint32_t)pk_rd(grid.p + 4, wide ? 4 : 2);
    out->height = (uint32_t)pk_rd(grid.p + (wide ? 8 : 6), wide ? 4 : 2);
    return 1;
}

/* The property boxes (in ipco order) associated with item `id` in the first ipma: their
 * 1-based indexes into `index`, at most `max`; the count, or -1 when ipma cannot be read. */
static int pk_item_properties(pk_span iprp, uint32_t id, int *index, int max) {
    pk_span ipma;
    if (!pk_box_find(iprp, 0, "ipma", &ipma) || ipma.len < 8) return -1;
    int version = ipma.p[0], wide_index = ipma.p[3] & 1, idlen = version < 1 ? 2 : 4;
    uint64_t count = pk_rd(ipma.p + 4, 4), at = 8;
    for (uint64_t i = 0; i < count; i++) {
        if (at + idlen + 1 > ipma.len) return -1;
        uint64_t item = pk_rd(ipma.p + at, idlen);
        int n = ipma.p[at + idlen];
        at += idlen + 1;
        uint64_t each = wide_index ? 2 : 1;
        if (at + each * n > ipma.len) return -1;
        if (item == id) {
            int found = 0;
            for (int k = 0; k < n && found < max; k++) {
                uint64_t v = pk_rd(ipma.p + at + each * k, (int)each);
                index[found++] = (int)(v & (wide_index ? 0x7fff : 0x7f));
            }
            return found;
        }
        at += each * n;
    }
    return 0;
}

/* The `index`-th (1-based) child box of ipco: its type and payload. */
static int pk_ipco_child(pk_span ipco, int index, char type[4], pk_span *out) {
    uint64_t at = 0;
    for (int i = 1; at + 8 <= ipco.len; i++) {
        uint64_t size = pk_rd(ipco.p + at, 4);
        if (size < 8 || size > ipco.len - at) return 0;
        if (i == index) {
            memcpy(type, ipco.p + at + 4, 4);
            out->p = ipco.p + at + 8;
            out->len = size - 8;
            return 1;
        }
        at += size;
    }
    return 0;
}

int pk_heif_primary_rotation(const uint8_t *data, size_t len) {
    pk_span file = {data, len}, meta, iprp, ipco, prop;
    uint32_t id;
    int index[32];
    if (!pk_box_find(file, 0, "meta", &meta) || !pk_primary_id(meta, &id)) return -1;
    if (!pk_box_find(meta, 4, "iprp", &iprp) || !pk_box_find(iprp, 0, "ipco", &ipco)) return -1;
    int n = pk_item_properties(iprp, id, index, 32), quarter_turns = 0;
    if (n < 0 || n >= 32) return -1;
    for (int k = 0; k < n; k++) {
        char type[4];
        if (index[k] == 0) continue; /* index 0: no property */
        if (!pk_ipco_child(ipco, index[k], type, &prop)) return -1;
        if (memcmp(type, "imir", 4) == 0 || memcmp(type, "clap", 4) == 0) return -1;
        if (memcmp(type, "irot", 4) == 0) {
            if (prop.len < 1 || quarter_turns != 0) return -1;
            quarter_turns = prop.p[0] & 3;
        }
    }
    return quarter_turns;
}
