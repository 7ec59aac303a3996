/*
 * JPEG encode (libjpeg-turbo, 4:2:0, optimised Huffman tables) into a buffer from malloc,
 * through the shared error manager (pk_jpeg_err.c); a cancelled job stops between rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <jpeglib.h>

#include "CPickerCodecs.h"
#include "pk_internal.h"
#include "pk_jpeg_err.h"

int pk_jpeg_encode(const uint8_t *pixels, size_t pixels_len, int width, int height, int channels,
                   int quality, uint8_t **out, size_t *out_len, char *msg) {
    if (!out || !out_len) return PK_INVALID;
    *out = NULL;
    *out_len = 0;
    if (!pixels || channels != 3 || !pk_buffer_holds(pixels_len, width, height, channels)) {
        pk_set_msg(msg, "JPEG encoder needs an RGB image");
        return PK_INVALID;
    }
    const int q = quality < 1 ? 1 : (quality > 100 ? 100 : quality);

    struct jpeg_compress_struct cinfo;
    struct jpeg_progress_mgr progress;
    pk_jerr err;
    /* Address-taken (libjpeg updates it as the buffer grows), so it lives in
     * memory and is valid after longjmp. */
    unsigned char *dest = NULL;
    unsigned long size = 0;

    pk_jpeg_init_err(&err, msg);
    cinfo.err = &err.pub;
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(dest);
        return err.status == PK_OK ? PK_CORRUPT : err.status;
    }
    jpeg_create_compress(&cinfo);
    /* A cancelled job stops encoding too (pk_work.h): a 22 MP encode is as long as its decode. */
    progress.progress_monitor = pk_jpeg_progress;
    cinfo.progress = &progress;
    jpeg_mem_dest(&cinfo, &dest, &size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_EXT_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, q, TRUE);
    /* 4:2:0 chroma subsampling */
    cinfo.comp_info[0].h_samp_factor = 2;
    cinfo.comp_info[0].v_samp_factor = 2;
    cinfo.comp_info[1].h_samp_factor = 1;
    cinfo.comp_info[1].v_samp_factor = 1;
    cinfo.comp_info[2].h_samp_factor = 1;
    cinfo.comp_info[2].v_samp_factor = 1;
    cinfo.optimize_coding = TRUE;
    jpeg_start_compress(&cinfo, TRUE);
    size_t stride = (size_t)width * 3;
    while (cinfo.next_scanline < cinfo.image_height) {
        /* The progress monitor runs once per pass; rows are where most of the time goes. */
        if ((cinfo.next_scanline & (PK_FEED_BATCH - 1)) == 0 && pk_cancelled()) {
            jpeg_destroy_compress(&cinfo);
            free(dest);
            pk_set_msg(msg, "cancelled");
            return PK_CANCELLED;
        }
        JSAMPROW rows[1] = {(JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride)};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    /* jpeg_mem_dest's buffer comes from malloc, so pk_free can release it. */
    *out = dest;
    *out_len = size;
    return PK_OK;
}
