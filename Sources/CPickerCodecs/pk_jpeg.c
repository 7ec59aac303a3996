/*
 * JPEG decode with the classic libjpeg API (libjpeg-turbo): the header (size, ICC profile)
 * and the picture at a DCT scale, whole or streamed into the resampler. Errors and damaged
 * data go through the shared error manager (pk_jpeg_err.c, which describes the policy).
 */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>

#include "CPickerCodecs.h"
#include "pk_internal.h"
#include "pk_jpeg_err.h"

/* The header only: the size and, when `icc` is given, the embedded ICC profile (APP2 chunks,
 * malloc'd by libjpeg: pk_free releases it). */
static int pk_jpeg_read_header_info(const uint8_t *data, size_t len, int *width, int *height,
                                    uint8_t **icc, size_t *icc_len, char *msg) {
    if (!data || len == 0) {
        pk_set_msg(msg, "empty file");
        return PK_CORRUPT;
    }
    struct jpeg_decompress_struct cinfo;
    pk_jerr err;
    pk_jpeg_init_err(&err, msg);
    cinfo.err = &err.pub;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return err.status;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)len);
    if (icc) jpeg_save_markers(&cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    if (width) *width = (int)cinfo.image_width;
    if (height) *height = (int)cinfo.image_height;
    JOCTET *found = NULL;
    unsigned int found_len = 0;
    if (icc && jpeg_read_icc_profile(&cinfo, &found, &found_len) && found) {
        *icc = found;
        *icc_len = found_len;
    }
    jpeg_destroy_decompress(&cinfo);
    return PK_OK;
}

int pk_jpeg_read_size(const uint8_t *data, size_t len, int *width, int *height, char *msg) {
    return pk_jpeg_read_header_info(data, len, width, height, NULL, NULL, msg);
}

int pk_jpeg_read_icc(const uint8_t *data, size_t len, uint8_t **icc, size_t *icc_len, char *msg) {
    if (!icc || !icc_len) return PK_INVALID;
    *icc = NULL;
    *icc_len = 0;
    return pk_jpeg_read_header_info(data, len, NULL, NULL, icc, icc_len, msg);
}

/* Adobe writes CMYK/YCCK inverted (0 = full ink); others write it plain. */
static void pk_cmyk_row_to_rgb(const uint8_t *in, uint8_t *out, int width,
                               int inverted) {
    for (int x = 0; x < width; x++) {
        unsigned c = in[4 * x], m = in[4 * x + 1], y = in[4 * x + 2], k = in[4 * x + 3];
        if (!inverted) {
            c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
        }
        /* now c,m,y,k are "amount of paper left": rgb = c*k/255 */
        out[3 * x] = (uint8_t)((c * k + 127) / 255);
        out[3 * x + 1] = (uint8_t)((m * k + 127) / 255);
        out[3 * x + 2] = (uint8_t)((y * k + 127) / 255);
    }
}

/* Decodes at 1/scale_denom; with dst_w, dst_h > 0 and a decoded size that
 * differs, the rows go through the streaming resampler instead of into a
 * full-size buffer. */
static int pk_jpeg_decode_impl(const uint8_t *data, size_t len, int scale_denom,
                               uint64_t max_pixels, int dst_w, int dst_h, pk_image *out,
                               char *msg) {
    if (!out) return PK_INVALID;
    out->pixels = NULL;
    out->width = out->height = out->channels = out->colour = 0;
    if (!data || len == 0) {
        pk_set_msg(msg, "empty file");
        return PK_CORRUPT;
    }
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
        pk_set_msg(msg, "invalid scale denominator");
        return PK_INVALID;
    }

    struct jpeg_decompress_struct cinfo;
    struct jpeg_progress_mgr progress;
    pk_jerr err;
    uint8_t *volatile pixels = NULL;
    uint8_t *volatile row = NULL;
    pk_feed *volatile feed = NULL;
    JOCTET *volatile icc = NULL;
    pk_colour_xform *volatile cmyk_xform = NULL;
    unsigned int icc_len = 0;

    pk_jpeg_init_err(&err, msg);
    cinfo.err = &err.pub;
    if (setjmp(err.jump)) {
        free(pixels);
        free(row);
        pk_feed_free(feed);
        free(icc);
        pk_colour_release(cmyk_xform);
        jpeg_destroy_decompress(&cinfo);
        return err.status;
    }
    jpeg_create_decompress(&cinfo);
    progress.progress_monitor = pk_jpeg_progress;
    cinfo.progress = &progress;
    jpeg_mem_src(&cinfo, data, (unsigned long)len);
    /* The ICC profile travels in APP2 chunks (at most 64 KiB each, libjpeg joins them). */
    jpeg_save_markers(&cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    {
        JOCTET *found = NULL;
        if (jpeg_read_icc_profile(&cinfo, &found, &icc_len)) icc = found;
        else icc_len = 0;
    }

    uint64_t declared = (uint64_t)cinfo.image_width * (uint64_t)cinfo.image_height;
    if (declared > max_pixels) {
        if (msg)
            snprintf(msg, PK_MSG_LEN,
                     "image too large: %ux%u (%.1f Mpx) exceeds the limit of %.1f Mpx",
                     cinfo.image_width, cinfo.image_height, declared / 1e6,
                     max_pixels / 1e6);
        free(icc);
        jpeg_destroy_decompress(&cinfo);
        return PK_TOO_LARGE;
    }

    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    int inverted = cmyk && cinfo.saw_Adobe_marker;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGB;
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned)scale_denom;
    /* Progressive files: libjpeg's block smoothing guesses the missing AC coefficients of
     * each partial scan; it only matters for showing a half-loaded picture, and we show the
     * finished one, whose coefficients are all there. Measured in docs/PERFORMANCE.md. */
    cinfo.do_block_smoothing = FALSE;
    /* CMYK with a CMYK profile: Little CMS converts each row; without one (or a refused
     * one) the plain inversion below. Adobe's APP14 files store CMYK inverted. */
    int colour = PK_COLOUR_NONE;
    if (cmyk && icc) {
        cmyk_xform = pk_colour_acquire(icc, icc_len, inverted ? PK_COLOUR_IN_CMYK_INV : PK_COLOUR_IN_CMYK);
        colour = cmyk_xform ? PK_COLOUR_CONVERTED : PK_COLOUR_IGNORED;
    }

    jpeg_start_decompress(&cinfo);
    int w = (int)cinfo.output_width, h = (int)cinfo.output_height;
    if (w <= 0 || h <= 0) {
        pk_set_msg(msg, "empty image");
        free(icc);
        pk_colour_release(cmyk_xform);
        jpeg_destroy_decompress(&cinfo);
        return PK_CORRUPT;
    }
    int resample = dst_w > 0 && dst_h > 0 && (dst_w != w || dst_h != h);
    size_t stride = (size_t)w * 3;
    /* Resampling: rows go through the feed in batches. Else: the whole picture. */
    if (!resample) pixels = malloc(stride * (size_t)h);
    if (cmyk) row = malloc((size_t)w * 4);
    if (resample) feed = pk_feed_new(pk_resampler_new(w, h, 3, 0, 0, w, h, dst_w, dst_h), stride, h);
    if ((!resample && !pixels) || (cmyk && !row) || (resample && !feed)) {
        free(pixels);
        free(row);
        pk_feed_free(feed);
        free(icc);
        pk_colour_release(cmyk_xform);
        pk_set_msg(msg, "out of memory");
        jpeg_destroy_decompress(&cinfo);
        return PK_NO_MEMORY;
    }

    while (cinfo.output_scanline < cinfo.output_height) {
        JDIMENSION y = cinfo.output_scanline;
        uint8_t *base = resample ? pk_feed_slot(feed) : pixels + (size_t)y * stride;
        JSAMPROW rows[PK_FEED_BATCH];
        int n = 0;
        if (cmyk) {
            JSAMPROW one[1] = {row};
            if (jpeg_read_scanlines(&cinfo, one, 1) != 1) break;
            if (cmyk_xform) pk_colour_run(cmyk_xform, row, base, w);
            else pk_cmyk_row_to_rgb(row, base, w, inverted);
            n = 1;
        } else {
            int want = resample ? PK_FEED_BATCH : 8, asked = 0;
            for (; asked < want && y + (JDIMENSION)asked < cinfo.output_height; asked++)
                rows[asked] = base + (size_t)asked * stride;
            /* read_scanlines may return fewer rows than asked: keep going */
            while (n < asked) {
                JDIMENSION got = jpeg_read_scanlines(&cinfo, rows + n, (JDIMENSION)(asked - n));
                if (got == 0) break;
                n += (int)got;
            }
            if (n == 0) break;
        }
        if (resample) pk_feed_commit(feed, n);
    }
    if (cinfo.output_scanline < cinfo.output_height) {
        free(pixels);
        free(row);
        pk_feed_free(feed);
        pk_set_msg(msg, "incomplete image data");
        free(icc);
        pk_colour_release(cmyk_xform);
        jpeg_destroy_decompress(&cinfo);
        return PK_CORRUPT;
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(row);
    pk_colour_release(cmyk_xform);
    cmyk_xform = NULL;

    if (resample) {
        uint8_t *fitted = NULL;
        int status = pk_feed_finish(feed, &fitted);
        if (status != PK_OK) {
            free(icc);
            pk_set_msg(msg, "out of memory");
            return status;
        }
        /* RGB profiles: converted after the resample, on dst_w x dst_h pixels only (the
         * difference to converting first is below the tests' tolerance; see PERFORMANCE.md). */
        if (!cmyk) colour = pk_colour_to_srgb(icc, icc_len, fitted, (size_t)dst_w * dst_h * 3, dst_w, dst_h, 3);
        free(icc);
        out->pixels = fitted;
        out->width = dst_w;
        out->height = dst_h;
        out->channels = 3;
        out->colour = colour;
        return PK_OK;
    }
    if (!cmyk) colour = pk_colour_to_srgb(icc, icc_len, pixels, stride * (size_t)h, w, h, 3);
    free(icc);
    out->pixels = pixels;
    out->width = w;
    out->height = h;
    out->channels = 3;
    out->colour = colour;
    return PK_OK;
}

int pk_jpeg_decode(const uint8_t *data, size_t len, int scale_denom,
                   uint64_t max_pixels, pk_image *out, char *msg) {
    return pk_jpeg_decode_impl(data, len, scale_denom, max_pixels, 0, 0, out, msg);
}

int pk_jpeg_decode_fit(const uint8_t *data, size_t len, int scale_denom,
                       uint64_t max_pixels, int dst_w, int dst_h, pk_image *out,
                       char *msg) {
    if (dst_w <= 0 || dst_h <= 0) {
        pk_set_msg(msg, "invalid target size");
        if (out) out->pixels = NULL;
        return PK_INVALID;
    }
    return pk_jpeg_decode_impl(data, len, scale_denom, max_pixels, dst_w, dst_h, out, msg);
}
