/*
 * Camera RAW develop with LibRaw (libraw_r, the thread-safe build): the slow fallback behind
 * the embedded-preview path (Sources/PickerEngine/Image/RAW/). See pk_raw.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libraw/libraw.h>

#include "CPickerCodecs.h"
#include "pk_raw.h"
#include "pk_work.h"

/* What LibRaw's callbacks saw during one develop. */
typedef struct pk_raw_watch {
    int data_error;
    char where[96];
} pk_raw_watch;

/* LibRaw calls this for damaged data and carries on with garbage: remember it, fail later. */
static void pk_raw_data_error(void *context, const char *file, const int offset) {
    (void)file;
    pk_raw_watch *watch = context;
    if (!watch || watch->data_error) return;
    watch->data_error = 1;
    snprintf(watch->where, sizeof watch->where, "sensor data damaged at offset %d", offset);
}

/* Returning non-zero makes LibRaw stop with LIBRAW_CANCELLED_BY_CALLBACK. */
static int pk_raw_progress(void *context, enum LibRaw_progress stage, int iteration, int expected) {
    (void)context; (void)stage; (void)iteration; (void)expected;
    return pk_cancelled() ? 1 : 0;
}

static int pk_raw_status(int code, const char *step, char *msg) {
    if (code == LIBRAW_CANCELLED_BY_CALLBACK) {
        snprintf(msg, PK_MSG_LEN, "cancelled");
        return PK_CANCELLED;
    }
    if (code == LIBRAW_UNSUFFICIENT_MEMORY) {
        snprintf(msg, PK_MSG_LEN, "LibRaw %s: out of memory", step);
        return PK_NO_MEMORY;
    }
    int status = code == LIBRAW_FILE_UNSUPPORTED || code == LIBRAW_NOT_IMPLEMENTED ? PK_UNSUPPORTED : PK_CORRUPT;
    snprintf(msg, PK_MSG_LEN, "LibRaw %s: %s", step, libraw_strerror(code));
    return status;
}

/* The size dcraw_process will produce, checked against the cap before unpack allocates. */
static int pk_raw_check_size(libraw_data_t *raw, int half_size, uint64_t max_pixels, char *msg) {
    uint64_t w = raw->sizes.iwidth ? raw->sizes.iwidth : raw->sizes.width;
    uint64_t h = raw->sizes.iheight ? raw->sizes.iheight : raw->sizes.height;
    uint64_t sensor = (uint64_t)raw->sizes.raw_width * raw->sizes.raw_height;
    if (w == 0 || h == 0) {
        snprintf(msg, PK_MSG_LEN, "LibRaw found no picture size");
        return PK_CORRUPT;
    }
    if (half_size) { w = (w + 1) / 2; h = (h + 1) / 2; }
    /* unpack holds the whole sensor (raw_width x raw_height) at 2 bytes a sample. */
    if (w * h > max_pixels || sensor > max_pixels * 4) {
        snprintf(msg, PK_MSG_LEN, "image too large: %llux%llu (%.1f Mpx) exceeds the limit of %.1f Mpx",
                 (unsigned long long)w, (unsigned long long)h, (double)(w * h) / 1e6, (double)max_pixels / 1e6);
        return PK_TOO_LARGE;
    }
    return PK_OK;
}

/* Copies LibRaw's 8-bit RGB picture into a malloc'd pk_image. */
static int pk_raw_take(libraw_processed_image_t *image, pk_image *out, char *msg) {
    if (image->type != LIBRAW_IMAGE_BITMAP || image->colors != 3 || image->bits != 8 ||
        image->width == 0 || image->height == 0) {
        snprintf(msg, PK_MSG_LEN, "LibRaw produced an unexpected picture (%d colours, %d bits)",
                 image->colors, image->bits);
        return PK_UNSUPPORTED;
    }
    size_t bytes = (size_t)image->width * image->height * 3;
    if (bytes > image->data_size) {
        snprintf(msg, PK_MSG_LEN, "LibRaw picture shorter than its size");
        return PK_CORRUPT;
    }
    uint8_t *pixels = malloc(bytes);
    if (!pixels) {
        snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    memcpy(pixels, image->data, bytes);
    out->pixels = pixels;
    out->width = image->width;
    out->height = image->height;
    out->channels = 3;
    out->colour = 0;
    return PK_OK;
}

static int pk_raw_run(libraw_data_t *raw, const uint8_t *data, size_t len, int half_size,
                      uint64_t max_pixels, pk_raw_watch *watch, pk_image *out, char *msg) {
    raw->params.half_size = half_size ? 1 : 0;
    raw->params.use_camera_wb = 1;
    raw->params.output_bps = 8;
    raw->params.output_color = 1; /* sRGB */
    raw->params.user_flip = 0;    /* stored orientation: pickerd turns the picture itself */
    int code = libraw_open_buffer(raw, (void *)data, len);
    if (code != LIBRAW_SUCCESS) return pk_raw_status(code, "open", msg);
    int status = pk_raw_check_size(raw, half_size, max_pixels, msg);
    if (status != PK_OK) return status;
    code = libraw_unpack(raw);
    if (code != LIBRAW_SUCCESS) return pk_raw_status(code, "unpack", msg);
    if (watch->data_error) {
        snprintf(msg, PK_MSG_LEN, "%s", watch->where);
        return PK_CORRUPT;
    }
    code = libraw_dcraw_process(raw);
    if (code != LIBRAW_SUCCESS) return pk_raw_status(code, "develop", msg);
    if (watch->data_error) {
        snprintf(msg, PK_MSG_LEN, "%s", watch->where);
        return PK_CORRUPT;
    }
    int error = 0;
    libraw_processed_image_t *image = libraw_dcraw_make_mem_image(raw, &error);
    if (!image) return pk_raw_status(error ? error : LIBRAW_UNSUFFICIENT_MEMORY, "output", msg);
    status = pk_raw_take(image, out, msg);
    libraw_dcraw_clear_mem(image);
    return status;
}

int pk_raw_develop(const uint8_t *data, size_t len, int half_size, uint64_t max_pixels,
                   pk_image *out, char *msg) {
    if (!out || !msg) return PK_INVALID;
    memset(out, 0, sizeof *out);
    msg[0] = 0;
    if (!data || len == 0) {
        snprintf(msg, PK_MSG_LEN, "empty file");
        return PK_CORRUPT;
    }
    libraw_data_t *raw = libraw_init(0);
    if (!raw) {
        snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    pk_raw_watch watch = {0};
    libraw_set_dataerror_handler(raw, pk_raw_data_error, &watch);
    libraw_set_progress_handler(raw, pk_raw_progress, NULL);
    int status = pk_raw_run(raw, data, len, half_size, max_pixels, &watch, out, msg);
    libraw_close(raw);
    if (status != PK_OK && out->pixels) {
        free(out->pixels);
        memset(out, 0, sizeof *out);
    }
    return status;
}
