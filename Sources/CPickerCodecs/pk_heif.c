/*
 * HEIF (HEIC) and AVIF through libheif (no longjmp; heif_error values only).
 *
 * libheif applies the HEIF transforms (irot, imir, clap) itself, so every size
 * and picture reported here is upright; the EXIF orientation in such files
 * must be ignored by the caller. Security: the context's image size limit is
 * set from the caller's pixel cap, and the primary image's declared size is
 * checked against that cap before anything is decoded; a grid's own output
 * size and tile count too (pk_heif_grid.c), since that is what libheif decodes.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>

#include "CPickerCodecs.h"
#include "pk_heif_grid.h"
#include "pk_shrink.h"

/* Tiles a grid may reference: an iPhone photo has 48 (8x6 of 512^2), the 200 Mpx cap needs
 * ~770 such tiles. Each reference is a tile libheif decodes (issue 21 #3: 40,000 of them). */
#define PK_HEIF_TILES_MAX 1024

/* libheif's own limit is on one side; a picture's sides each stay below this. */
#define PK_HEIF_MAX_SIDE 65535

static int pk_heif_fail(struct heif_error err, const char *what, char *msg) {
    int status;
    switch (err.code) {
    case heif_error_Memory_allocation_error: status = PK_NO_MEMORY; break;
    case heif_error_Unsupported_feature:
    case heif_error_Unsupported_filetype:
    case heif_error_Plugin_loading_error:
        status = PK_UNSUPPORTED; break;
    default: status = PK_CORRUPT; break;
    }
    if (msg) snprintf(msg, PK_MSG_LEN, "%s: %s", what, err.message ? err.message : "unknown error");
    return status;
}

static int pk_heif_too_large(int w, int h, uint64_t max_pixels, char *msg) {
    uint64_t declared = (uint64_t)(w > 0 ? w : 0) * (uint64_t)(h > 0 ? h : 0);
    if (declared <= max_pixels) return 0;
    if (msg)
        snprintf(msg, PK_MSG_LEN, "image too large: %dx%d (%.1f Mpx) exceeds the limit of %.1f Mpx",
                 w, h, declared / 1e6, max_pixels / 1e6);
    return 1;
}

/* Refuses a primary grid whose decode would exceed what its declared size promised: output
 * larger than `ispe` (the cap and the memory budget were judged on `ispe`), over the cap,
 * or more tiles than PK_HEIF_TILES_MAX. Read from the boxes before libheif decodes. */
static int pk_heif_grid_refused(const uint8_t *data, size_t len, int declared_w, int declared_h,
                                uint64_t max_pixels, char *msg) {
    pk_heif_grid grid;
    int found = pk_heif_grid_read(data, len, &grid);
    if (found == 0) return PK_OK;
    if (found < 0) {
        if (msg) snprintf(msg, PK_MSG_LEN, "damaged HEIF grid: its descriptor cannot be read");
        return PK_CORRUPT;
    }
    uint64_t tiles = (uint64_t)grid.rows * grid.columns;
    if (tiles > PK_HEIF_TILES_MAX || grid.tile_refs > PK_HEIF_TILES_MAX) {
        if (msg)
            snprintf(msg, PK_MSG_LEN, "image too large: a grid of %llu tiles (%llu references) exceeds %d tiles",
                     (unsigned long long)tiles, (unsigned long long)grid.tile_refs, PK_HEIF_TILES_MAX);
        return PK_TOO_LARGE;
    }
    if ((uint64_t)grid.width * grid.height > max_pixels) {
        if (msg)
            snprintf(msg, PK_MSG_LEN, "image too large: its grid composes %ux%u (%.1f Mpx), over the limit of %.1f Mpx",
                     grid.width, grid.height, (double)grid.width * grid.height / 1e6, max_pixels / 1e6);
        return PK_TOO_LARGE;
    }
    /* The declared size is after irot (sides swapped) and clap (a crop), so the grid may
     * compose a little more than it: at most twice its area, which the memory estimate's
     * per-pixel allowance absorbs. */
    uint64_t declared = (uint64_t)(declared_w > 0 ? declared_w : 0) * (uint64_t)(declared_h > 0 ? declared_h : 0);
    if ((uint64_t)grid.width * grid.height > 2 * declared + 65536) {
        if (msg)
            snprintf(msg, PK_MSG_LEN, "damaged HEIF grid: it composes %ux%u, larger than its declared %dx%d",
                     grid.width, grid.height, declared_w, declared_h);
        return PK_CORRUPT;
    }
    return PK_OK;
}

/* ---- Reading through the caller's callback (header probes read only what they need) ---- */

typedef struct pk_heif_source {
    pk_read_fn read;
    void *context;
    int64_t size;
    int64_t position;
} pk_heif_source;

static int64_t pk_src_position(void *userdata) { return ((pk_heif_source *)userdata)->position; }

static int pk_src_read(void *data, size_t size, void *userdata) {
    pk_heif_source *s = userdata;
    if (s->position < 0 || (int64_t)size > s->size - s->position) return -1;
    /* libheif asserts (aborts) when a read it was promised by wait_for_file_size fails, so a
     * failed read (an I/O error, a file cut short since its size was taken) gives zeros,
     * which libheif reports as damaged data. */
    if (size > 0 && s->read(s->context, s->position, data, size) != 0) memset(data, 0, size);
    s->position += (int64_t)size;
    return 0;
}

static int pk_src_seek(int64_t position, void *userdata) {
    pk_heif_source *s = userdata;
    if (position < 0 || position > s->size) return -1;
    s->position = position;
    return 0;
}

static enum heif_reader_grow_status pk_src_wait(int64_t target, void *userdata) {
    pk_heif_source *s = userdata;
    return target <= s->size ? heif_reader_grow_status_size_reached : heif_reader_grow_status_size_beyond_eof;
}

static const struct heif_reader pk_heif_reader = {
    .reader_api_version = 1,
    .get_position = pk_src_position,
    .read = pk_src_read,
    .seek = pk_src_seek,
    .wait_for_file_size = pk_src_wait,
};

static struct heif_context *pk_heif_context(uint64_t max_pixels) {
    struct heif_context *ctx = heif_context_alloc();
    if (!ctx) return NULL;
    /* One side of the largest picture the cap allows (a 1-px-high strip), bounded by libheif's type. */
    uint64_t side = max_pixels < PK_HEIF_MAX_SIDE ? max_pixels : PK_HEIF_MAX_SIDE;
    heif_context_set_maximum_image_size_limit(ctx, (int)(side > 0 ? side : 1));
    /* libheif decodes grid tiles on threads of its own (like libwebp's filter thread): threads
     * outside the worker pool, but an iPhone photo shows in 505 ms instead of 648 (1.07x of
     * vipsthumbnail instead of 1.48x on 2 cores). Set 0 here to keep every busy thread in the pool. */
    return ctx;
}

/* The EXIF block of the image (TIFF data, the 4-byte offset field skipped), malloc'd, or NULL. */
static uint8_t *pk_heif_exif(const struct heif_image_handle *handle, size_t max_len, size_t *out_len) {
    heif_item_id id;
    if (heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) != 1) return NULL;
    size_t size = heif_image_handle_get_metadata_size(handle, id);
    if (size < 4 || size > max_len) return NULL;
    uint8_t *raw = malloc(size);
    if (!raw) return NULL;
    if (heif_image_handle_get_metadata(handle, id, raw).code != heif_error_Ok) { free(raw); return NULL; }
    /* ISO/IEC 23008-12 A.2.1: a big-endian offset from after this field to the TIFF header. */
    uint32_t skip = (uint32_t)raw[0] << 24 | (uint32_t)raw[1] << 16 | (uint32_t)raw[2] << 8 | raw[3];
    if ((size_t)skip > size - 4) { free(raw); return NULL; }
    size_t len = size - 4 - skip;
    memmove(raw, raw + 4 + skip, len);
    *out_len = len;
    return raw;
}

int pk_heif_info(pk_read_fn read, void *context, int64_t file_size, uint64_t max_pixels,
                 size_t max_exif, pk_heif_header *out, char *msg) {
    if (!read || !out || file_size <= 0) {
        if (msg) snprintf(msg, PK_MSG_LEN, "empty file");
        return PK_CORRUPT;
    }
    memset(out, 0, sizeof *out);
    pk_heif_source source = {read, context, file_size, 0};
    struct heif_context *ctx = pk_heif_context(max_pixels);
    if (!ctx) return PK_NO_MEMORY;
    struct heif_image_handle *handle = NULL;
    /* libheif 1.15 reads every top-level box whole, and the pictures' bitstreams too when the
     * file has no colr box (for the colour description in the HEVC/AV1 headers): a header probe
     * reads most of the file. The library index keeps the result, so that is once per file. */
    struct heif_error err = heif_context_read_from_reader(ctx, &pk_heif_reader, &source, NULL);
    int status = PK_OK;
    if (err.code != heif_error_Ok) {
        status = pk_heif_fail(err, "cannot read the HEIF container", msg);
    } else if ((err = heif_context_get_primary_image_handle(ctx, &handle)).code != heif_error_Ok) {
        status = pk_heif_fail(err, "no primary image", msg);
    } else {
        out->width = heif_image_handle_get_width(handle);
        out->height = heif_image_handle_get_height(handle);
        out->has_alpha = heif_image_handle_has_alpha_channel(handle);
        out->bit_depth = heif_image_handle_get_luma_bits_per_pixel(handle);
        out->thumbnails = heif_image_handle_get_number_of_thumbnails(handle);
        out->exif = pk_heif_exif(handle, max_exif, &out->exif_len);
    }
    if (handle) heif_image_handle_release(handle);
    heif_context_free(ctx);
    return status;
}

/* ---- Decoding ---- */

/* The thumbnail of `primary` that covers min_w x min_h and has its aspect ratio within 1 %
 * (else it is stale or letterboxed), or NULL. */
static struct heif_image_handle *pk_heif_thumbnail(const struct heif_image_handle *primary, int min_w,
                                                   int min_h) {
    heif_item_id ids[8];
    int n = heif_image_handle_get_list_of_thumbnail_IDs(primary, ids, 8);
    double aspect = (double)heif_image_handle_get_width(primary) / heif_image_handle_get_height(primary);
    for (int i = 0; i < n; i++) {
        struct heif_image_handle *thumb = NULL;
        if (heif_image_handle_get_thumbnail(primary, ids[i], &thumb).code != heif_error_Ok || !thumb) continue;
        int w = heif_image_handle_get_width(thumb), h = heif_image_handle_get_height(thumb);
        double ratio = h > 0 ? ((double)w / h) / aspect : 0;
        if (w >= min_w && h >= min_h && ratio > 0.99 && ratio < 1.01) return thumb;
        heif_image_handle_release(thumb);
    }
    return NULL;
}

/* Copies an interleaved libheif picture into a tightly packed malloc'd buffer. */
static int pk_heif_copy(const struct heif_image *img, int channels, pk_image *out, char *msg) {
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(img, heif_channel_interleaved, &stride);
    int w = heif_image_get_primary_width(img), h = heif_image_get_primary_height(img);
    size_t row = (size_t)w * (size_t)channels;
    if (!plane || w <= 0 || h <= 0 || stride < 0 || (size_t)stride < row) {
        if (msg) snprintf(msg, PK_MSG_LEN, "libheif returned no interleaved pixels");
        return PK_CORRUPT;
    }
    uint8_t *pixels = malloc(row * (size_t)h);
    if (!pixels) return PK_NO_MEMORY;
    for (int y = 0; y < h; y++) memcpy(pixels + row * (size_t)y, plane + (size_t)stride * (size_t)y, row);
    out->pixels = pixels;
    out->width = w;
    out->height = h;
    out->channels = channels;
    return PK_OK;
}

/* Decodes `handle` whole; with `as_stored` set, without its transforms (the caller turns it). */
static int pk_heif_decode_handle(const struct heif_image_handle *handle, int as_stored, pk_image *out,
                                 char *msg) {
    int alpha = heif_image_handle_has_alpha_channel(handle);
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (!options) return PK_NO_MEMORY;
    options->convert_hdr_to_8bit = 1; /* 10/12-bit pictures come out 8-bit */
    options->ignore_transformations = as_stored ? 1 : 0;
    struct heif_image *img = NULL;
    struct heif_error err = heif_decode_image(handle, &img, heif_colorspace_RGB,
                                              alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                                              options);
    heif_decoding_options_free(options);
    if (err.code != heif_error_Ok || !img) {
        if (img) heif_image_release(img);
        return pk_heif_fail(err, "cannot decode the picture", msg);
    }
    /* libheif 1.15 trusts the bitstream over `ispe`: a 512x512 item whose HEVC picture is 8000x8000
     * decodes at 8000x8000 (the cap and the estimates were judged on 512x512). The decode is done
     * (in a worker its memory cap bounds it), but the picture is refused: as for grids, up to twice
     * the declared area (irot swaps sides, clap crops). */
    int w = heif_image_get_primary_width(img), h = heif_image_get_primary_height(img);
    int dw = heif_image_handle_get_width(handle), dh = heif_image_handle_get_height(handle);
    uint64_t declared = (uint64_t)(dw > 0 ? dw : 0) * (uint64_t)(dh > 0 ? dh : 0);
    if ((uint64_t)(w > 0 ? w : 0) * (uint64_t)(h > 0 ? h : 0) > 2 * declared + 65536) {
        heif_image_release(img);
        if (msg) snprintf(msg, PK_MSG_LEN, "image too large: its picture decodes to %dx%d, not the %dx%d it declares", w, h, dw, dh);
        return PK_TOO_LARGE;
    }
    int status = pk_heif_copy(img, alpha ? 4 : 3, out, msg);
    heif_image_release(img);
    return status;
}

/* The ICC profile that describes `handle`'s colours (malloc'd), or NULL for sRGB:
 * `colr` prof/rICC as stored; nclx with wider primaries (BT.2020, P3) as a profile built
 * from them with the sRGB tone curve (BT.709's curve is shown as sRGB's, as displays do);
 * nclx with BT.709 primaries or unknown ones, and HDR curves (PQ 16, HLG 18), as sRGB. */
static uint8_t *pk_heif_profile(const struct heif_image_handle *handle, size_t *len) {
    *len = 0;
    enum heif_color_profile_type type = heif_image_handle_get_color_profile_type(handle);
    if (type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC) {
        size_t size = heif_image_handle_get_raw_color_profile_size(handle);
        uint8_t *bytes = size > 0 ? malloc(size) : NULL;
        if (bytes && heif_image_handle_get_raw_color_profile(handle, bytes).code == heif_error_Ok) {
            *len = size;
            return bytes;
        }
        free(bytes);
        return NULL;
    }
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(handle, &nclx).code != heif_error_Ok || !nclx) return NULL;
    int primaries = (int)nclx->color_primaries, transfer = (int)nclx->transfer_characteristics;
    heif_nclx_color_profile_free(nclx);
    if (transfer == 16 || transfer == 18) return NULL;
    return pk_colour_nclx_profile(primaries, len);
}

/* The primary picture at 1/scale_denom, upright: libheif's turn of a 12 Mpx grid is a
 * byte-by-byte transposing copy (~10 % of the decode), so a picture whose only transform is
 * an irot is decoded as stored, shrunk, and turned small. Anything else libheif transforms. */
static int pk_heif_decode_primary(const uint8_t *data, size_t len, const struct heif_image_handle *primary,
                                  int scale_denom, pk_image *out, char *msg) {
    int turns = scale_denom > 1 ? pk_heif_primary_rotation(data, len) : -1;
    int status = pk_heif_decode_handle(primary, turns >= 0, out, msg);
    if (status == PK_OK) status = pk_shrink_box(out, scale_denom);
    if (status == PK_OK && turns > 0) status = pk_shrink_rotate(out, turns);
    if (status != PK_OK) {
        free(out->pixels);
        memset(out, 0, sizeof *out);
        if (msg && status == PK_NO_MEMORY) snprintf(msg, PK_MSG_LEN, "out of memory shrinking the picture");
    }
    return status;
}

int pk_heif_decode(const uint8_t *data, size_t len, uint64_t max_pixels, int thumb_min_w,
                   int thumb_min_h, int scale_denom, pk_image *out, char *msg) {
    if (!data || len == 0 || !out) {
        if (msg) snprintf(msg, PK_MSG_LEN, "empty file");
        return PK_CORRUPT;
    }
    memset(out, 0, sizeof *out);
    struct heif_context *ctx = pk_heif_context(max_pixels);
    if (!ctx) return PK_NO_MEMORY;
    struct heif_image_handle *primary = NULL, *thumb = NULL;
    int status;
    struct heif_error err = heif_context_read_from_memory_without_copy(ctx, data, len, NULL);
    if (err.code != heif_error_Ok) {
        status = pk_heif_fail(err, "cannot read the HEIF container", msg);
    } else if ((err = heif_context_get_primary_image_handle(ctx, &primary)).code != heif_error_Ok) {
        status = pk_heif_fail(err, "no primary image", msg);
    } else if (pk_heif_too_large(heif_image_handle_get_width(primary), heif_image_handle_get_height(primary),
                                 max_pixels, msg)) {
        status = PK_TOO_LARGE;
    } else if ((status = pk_heif_grid_refused(data, len, heif_image_handle_get_width(primary),
                                              heif_image_handle_get_height(primary), max_pixels, msg)) != PK_OK) {
        /* refused before any tile is decoded */
    } else {
        if (thumb_min_w > 0 && thumb_min_h > 0) thumb = pk_heif_thumbnail(primary, thumb_min_w, thumb_min_h);
        /* The colour transform below runs on the shrunk picture: 1/16 of the work at 1/4. */
        status = thumb ? pk_heif_decode_handle(thumb, 0, out, msg)
                       : pk_heif_decode_primary(data, len, primary, scale_denom, out, msg);
        if (status == PK_OK) {
            /* A thumbnail item may carry its own `colr`; else the primary image's applies. */
            size_t icc_len = 0;
            uint8_t *icc = thumb ? pk_heif_profile(thumb, &icc_len) : NULL;
            if (!icc) icc = pk_heif_profile(primary, &icc_len);
            out->colour = pk_colour_to_srgb(icc, icc_len, out->pixels,
                                            (size_t)out->width * out->height * out->channels,
                                            out->width, out->height, out->channels);
            free(icc);
        }
    }
    if (thumb) heif_image_handle_release(thumb);
    if (primary) heif_image_handle_release(primary);
    heif_context_free(ctx);
    return status;
}
