/*
 * JPEG XL through libjxl 0.7 (no longjmp; JxlDecoderStatus values only).
 *
 * Orientation: the decoder keeps the picture as stored (JxlDecoderSetKeepOrientation), and the
 * header reports the codestream's orientation, which the caller applies like a JPEG's EXIF
 * orientation. Colour: the ICC profile of the decoded pixels (libjxl's "data" profile) goes
 * through pk_colour_to_srgb; XYB pictures (lossy) are asked for sRGB directly, so libjxl never
 * falls back to 8-bit linear sRGB for them. Animations give their first frame (composited) and
 * the decoder stops there. Resources: the declared size is checked against the cap on the basic
 * info, before any buffer; one thread (the caller's worker), no runner.
 *
 * Grid cells: when the caller asks for a small target, the decode subscribes to progressive
 * events and stops at the first one whose downsampled picture (the DC pass, 1/8) still covers
 * the target: JxlDecoderFlushImage then fills the full-size buffer from what is decoded so far.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>
#include <unistd.h>

#include "CPickerCodecs.h"
#include "pk_size.h"

/* Bytes handed to libjxl per step while looking for the basic info (one HeaderBytes window
 * quarter, so each read is served from the window), and the most read before giving up: boxes
 * before the codestream (Exif, XMP) are skipped through, and are rarely more than a few kB. */
#define PK_JXL_HEADER_CHUNK (16u << 10)
#define PK_JXL_HEADER_MAX (16u << 20)
/* Bytes libjxl may leave unconsumed while it waits for the rest of the codestream header (a
 * SizeHeader and ImageMetadata: a few bytes to a few kB); beyond this the file is refused, so a
 * hostile one cannot make each step copy megabytes. */
#define PK_JXL_HEADER_PENDING_MAX (1u << 20)

/* Larger data profiles are left out (the picture shows as if sRGB); pk_colour refuses >4 MiB. */
#define PK_JXL_ICC_MAX (4u << 20)

/* Bytes per two pixels from which a grid cell stops at the DC pass (1: 0.5 B/px; see
 * pk_jxl_on_progression). */
#define PK_JXL_DC_MIN_BYTES_PER_2PX 1u

/* Pictures from this many pixels decode on a libjxl thread runner of at most PK_JXL_THREADS
 * threads, never more than the machine's cores (the worker pool's default size): a 22 Mpx
 * photo is ~0.75 s of CPU, a pane waits for it. Smaller ones decode on the caller's thread. */
#define PK_JXL_RUNNER_MIN_PIXELS (4u << 20)
#define PK_JXL_THREADS 2

/* Events a well-formed first frame takes: a handful, plus one per progressive step. */
#define PK_JXL_EVENTS_MAX 4096

static int pk_jxl_corrupt(char *msg, const char *text) {
    if (msg) snprintf(msg, PK_MSG_LEN, "%s", text);
    return PK_CORRUPT;
}

static int pk_jxl_signature_ok(const uint8_t *data, size_t len) {
    JxlSignature sig = JxlSignatureCheck(data, len);
    return sig == JXL_SIG_CODESTREAM || sig == JXL_SIG_CONTAINER;
}

static void pk_jxl_fill_header(const JxlBasicInfo *info, pk_jxl_header *out) {
    out->width = info->xsize > INT32_MAX ? INT32_MAX : (int)info->xsize;
    out->height = info->ysize > INT32_MAX ? INT32_MAX : (int)info->ysize;
    out->orientation = info->orientation >= 1 && info->orientation <= 8 ? (int)info->orientation : 1;
    out->has_alpha = info->alpha_bits > 0;
    out->has_animation = info->have_animation ? 1 : 0;
    out->bits = (int)info->bits_per_sample;
}

/* One step of the header read: keeps libjxl's unconsumed bytes and appends the next chunk. */
typedef struct pk_jxl_feed {
    pk_read_fn read;
    void *context;
    int64_t size;
    int64_t position;
    uint8_t *buffer;
    size_t held;
} pk_jxl_feed;

static int pk_jxl_feed_more(JxlDecoder *dec, pk_jxl_feed *feed, char *msg) {
    size_t unconsumed = feed->buffer ? JxlDecoderReleaseInput(dec) : 0;
    if (unconsumed > feed->held) unconsumed = feed->held;
    if (unconsumed > PK_JXL_HEADER_PENDING_MAX)
        return pk_jxl_corrupt(msg, "its image header does not end within 1 MiB");
    if (feed->position >= feed->size)
        return pk_jxl_corrupt(msg, "truncated: the file ends before its image header");
    if (feed->position >= (int64_t)PK_JXL_HEADER_MAX)
        return pk_jxl_corrupt(msg, "no image header in the first 16 MiB");
    size_t chunk = (size_t)(feed->size - feed->position < PK_JXL_HEADER_CHUNK
                                ? feed->size - feed->position : PK_JXL_HEADER_CHUNK);
    uint8_t *grown = malloc(unconsumed + chunk);
    if (!grown) return PK_NO_MEMORY;
    if (unconsumed > 0) memcpy(grown, feed->buffer + feed->held - unconsumed, unconsumed);
    free(feed->buffer);
    feed->buffer = grown;
    if (feed->read(feed->context, feed->position, grown + unconsumed, chunk) != 0)
        return pk_jxl_corrupt(msg, "cannot read the file");
    feed->held = unconsumed + chunk;
    feed->position += (int64_t)chunk;
    if (JxlDecoderSetInput(dec, feed->buffer, feed->held) != JXL_DEC_SUCCESS)
        return pk_jxl_corrupt(msg, "libjxl refused its input");
    if (feed->position >= feed->size) JxlDecoderCloseInput(dec);
    return PK_OK;
}

int pk_jxl_info(pk_read_fn read, void *context, int64_t file_size, pk_jxl_header *out, char *msg) {
    if (!read || !out) return PK_INVALID;
    memset(out, 0, sizeof *out);
    if (file_size <= 0) return pk_jxl_corrupt(msg, "empty file");
    JxlDecoder *dec = JxlDecoderCreate(NULL);
    if (!dec) return PK_NO_MEMORY;
    pk_jxl_feed feed = {read, context, file_size, 0, NULL, 0};
    int status = PK_OK;
    if (JxlDecoderSubscribeEvents(dec, JXL_DEC_BASIC_INFO) != JXL_DEC_SUCCESS ||
        JxlDecoderSetKeepOrientation(dec, JXL_TRUE) != JXL_DEC_SUCCESS) {
        status = PK_INVALID;
    }
    for (int step = 0; status == PK_OK; step++) {
        JxlDecoderStatus st = step == 0 ? JXL_DEC_NEED_MORE_INPUT : JxlDecoderProcessInput(dec);
        if (st == JXL_DEC_NEED_MORE_INPUT) {
            status = pk_jxl_feed_more(dec, &feed, msg);
        } else if (st == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo info;
            if (JxlDecoderGetBasicInfo(dec, &info) != JXL_DEC_SUCCESS)
                status = pk_jxl_corrupt(msg, "libjxl gave no basic info");
            else
                pk_jxl_fill_header(&info, out);
            break;
        } else if (st == JXL_DEC_ERROR) {
            status = pk_jxl_corrupt(msg, "damaged image header (libjxl refused it)");
        } else {
            status = pk_jxl_corrupt(msg, "no image header");
        }
    }
    free(feed.buffer);
    JxlDecoderDestroy(dec);
    return status;
}

/* ---- Decoding ---- */

typedef struct pk_jxl_job {
    JxlDecoder *dec;
    uint64_t max_pixels;
    int min_w, min_h;       /* a grid cell's target (stored axes), 0: the whole picture */
    size_t file_bytes;
    int width, height, channels;
    JxlPixelFormat format;
    uint8_t *pixels;
    int grey, xyb;          /* from the basic info: one colour channel; lossy XYB coding */
    int animated;
    int frames;             /* frame headers libjxl has read */
    uint8_t *icc;
    size_t icc_len;
    int done;
} pk_jxl_job;

/* XYB pictures (uses_original_profile false) may be rendered to any space: ask for sRGB. */
static void pk_jxl_prefer_srgb(JxlDecoder *dec, int grey) {
    JxlColorEncoding srgb;
    memset(&srgb, 0, sizeof srgb);
    srgb.color_space = grey ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB;
    srgb.white_point = JXL_WHITE_POINT_D65;
    srgb.primaries = JXL_PRIMARIES_SRGB;
    srgb.transfer_function = JXL_TRANSFER_FUNCTION_SRGB;
    srgb.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL;
    JxlDecoderSetPreferredColorProfile(dec, &srgb);
}

static int pk_jxl_on_basic_info(pk_jxl_job *job, char *msg) {
    JxlBasicInfo info;
    if (JxlDecoderGetBasicInfo(job->dec, &info) != JXL_DEC_SUCCESS)
        return pk_jxl_corrupt(msg, "libjxl gave no basic info");
    uint64_t declared = (uint64_t)info.xsize * (uint64_t)info.ysize;
    if (declared > job->max_pixels || info.xsize > INT32_MAX || info.ysize > INT32_MAX) {
        if (msg)
            snprintf(msg, PK_MSG_LEN, "image too large: %ux%u (%.1f Mpx) exceeds the limit of %.1f Mpx",
                     info.xsize, info.ysize, declared / 1e6, job->max_pixels / 1e6);
        return PK_TOO_LARGE;
    }
    job->width = (int)info.xsize;
    job->height = (int)info.ysize;
    job->channels = info.alpha_bits > 0 ? 4 : 3;
    job->format = (JxlPixelFormat){(uint32_t)job->channels, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    if (pk_size_pixels(job->width, job->height, job->channels) == 0)
        return pk_jxl_corrupt(msg, "declares an empty picture");
    job->grey = info.num_color_channels == 1;
    job->xyb = !info.uses_original_profile;
    job->animated = info.have_animation ? 1 : 0;
    return PK_OK;
}

static int pk_jxl_on_colour(pk_jxl_job *job) {
    if (job->xyb) pk_jxl_prefer_srgb(job->dec, job->grey);
    size_t size = 0;
    if (JxlDecoderGetICCProfileSize(job->dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &size) != JXL_DEC_SUCCESS ||
        size == 0 || size > PK_JXL_ICC_MAX)
        return PK_OK; /* no usable profile: the pixels are taken as sRGB */
    uint8_t *icc = malloc(size);
    if (!icc) return PK_NO_MEMORY;
    if (JxlDecoderGetColorAsICCProfile(job->dec, NULL, JXL_COLOR_PROFILE_TARGET_DATA, icc, size) != JXL_DEC_SUCCESS) {
        free(icc);
        return PK_OK;
    }
    job->icc = icc;
    job->icc_len = size;
    return PK_OK;
}

static int pk_jxl_on_out_buffer(pk_jxl_job *job, char *msg) {
    size_t wanted = 0, expected = pk_size_pixels(job->width, job->height, job->channels);
    if (JxlDecoderImageOutBufferSize(job->dec, &job->format, &wanted) != JXL_DEC_SUCCESS || wanted != expected)
        return pk_jxl_corrupt(msg, "libjxl asked for an output buffer of an unexpected size");
    if (job->pixels) return pk_jxl_corrupt(msg, "libjxl asked twice for the first frame's buffer");
    job->pixels = malloc(expected);
    if (!job->pixels) return PK_NO_MEMORY;
    if (JxlDecoderSetImageOutBuffer(job->dec, &job->format, job->pixels, expected) != JXL_DEC_SUCCESS)
        return pk_jxl_corrupt(msg, "libjxl refused the output buffer");
    return PK_OK;
}

/* A progressive step: stop when its downsampled picture covers twice the cell's target (as a
 * JPEG's DCT scaling leaves twice the target: the DC pass is upsampled smoothly, and at exactly
 * the target a cell looks soft), and the file is dense enough for that to pay. libjxl 0.7 flushes
 * the DC pass through its full-resolution pipeline (JXL_DEC_DC_IMAGE never fires), ~25 ns a pixel
 * whatever the coding: that wins over finishing a lossless-class file (immich_8bit-sRGB.jxl,
 * 1.15 B/px: 0.42x of a full decode's CPU) but loses on a lossy one (a 22 Mpx VarDCT file,
 * 0.06 B/px: 1.16x; its recompressed JPEG: 1.2x). Measured single-threaded, CPU time. */
static void pk_jxl_on_progression(pk_jxl_job *job) {
    size_t ratio = JxlDecoderGetIntendedDownsamplingRatio(job->dec);
    /* Animations decode their first frame whole: its successor's header is checked after it. */
    if (ratio < 2 || !job->pixels || job->animated) return;
    if ((size_t)job->width < 2 * ratio * (size_t)job->min_w || (size_t)job->height < 2 * ratio * (size_t)job->min_h)
        return;
    if (job->file_bytes < PK_JXL_DC_MIN_BYTES_PER_2PX * ((size_t)job->width * (size_t)job->height / 2)) return;
    if (JxlDecoderFlushImage(job->dec) == JXL_DEC_SUCCESS) job->done = 1;
}

/* After an animation's first frame: the next frame's header must parse (a frame after the first
 * that libjxl refuses makes the file damaged, as djxl says), but that frame is not decoded. */
static int pk_jxl_check_next_frame(pk_jxl_job *job, char *msg) {
    for (int events = 0; events < PK_JXL_EVENTS_MAX; events++) {
        switch (JxlDecoderProcessInput(job->dec)) {
        case JXL_DEC_FRAME:
        case JXL_DEC_SUCCESS: return PK_OK;
        case JXL_DEC_NEED_MORE_INPUT:
        case JXL_DEC_ERROR: return pk_jxl_corrupt(msg, "damaged animation: the header of its second frame is refused");
        default: break; /* colour or box events of no interest here */
        }
    }
    return pk_jxl_corrupt(msg, "too many libjxl events after the first frame");
}

static int pk_jxl_run(pk_jxl_job *job, int progressive, char *msg) {
    for (int events = 0; events < PK_JXL_EVENTS_MAX; events++) {
        int status = PK_OK;
        switch (JxlDecoderProcessInput(job->dec)) {
        case JXL_DEC_BASIC_INFO: status = pk_jxl_on_basic_info(job, msg); break;
        case JXL_DEC_COLOR_ENCODING: status = pk_jxl_on_colour(job); break;
        case JXL_DEC_FRAME: job->frames++; break;
        case JXL_DEC_NEED_IMAGE_OUT_BUFFER: status = pk_jxl_on_out_buffer(job, msg); break;
        case JXL_DEC_FRAME_PROGRESSION:
            if (progressive) pk_jxl_on_progression(job);
            break;
        case JXL_DEC_FULL_IMAGE: job->done = 1; break;
        case JXL_DEC_NEED_MORE_INPUT:
            return pk_jxl_corrupt(msg, "truncated: the file ends before its first frame is complete");
        case JXL_DEC_SUCCESS: return pk_jxl_corrupt(msg, "the file holds no frame");
        case JXL_DEC_ERROR:
            return pk_jxl_corrupt(msg, job->width > 0 ? "damaged or truncated frame data (libjxl refused it)"
                                                      : "damaged image header (libjxl refused it)");
        default: return pk_jxl_corrupt(msg, "unexpected libjxl event");
        }
        if (status != PK_OK) return status;
        if (job->done) {
            if (!job->pixels) return pk_jxl_corrupt(msg, "libjxl gave no pixels");
            return job->animated ? pk_jxl_check_next_frame(job, msg) : PK_OK;
        }
    }
    return pk_jxl_corrupt(msg, "too many libjxl events before the first frame");
}

/* The basic info's width x height from the bytes in memory (0 when it cannot be read): the
 * runner must be chosen before the decode starts. */
static uint64_t pk_jxl_declared_pixels(const uint8_t *data, size_t len) {
    JxlDecoder *dec = JxlDecoderCreate(NULL);
    if (!dec) return 0;
    uint64_t pixels = 0;
    JxlBasicInfo info;
    if (JxlDecoderSubscribeEvents(dec, JXL_DEC_BASIC_INFO) == JXL_DEC_SUCCESS &&
        JxlDecoderSetInput(dec, data, len) == JXL_DEC_SUCCESS) {
        JxlDecoderCloseInput(dec);
        if (JxlDecoderProcessInput(dec) == JXL_DEC_BASIC_INFO && JxlDecoderGetBasicInfo(dec, &info) == JXL_DEC_SUCCESS)
            pixels = (uint64_t)info.xsize * info.ysize;
    }
    JxlDecoderDestroy(dec);
    return pixels;
}

int pk_jxl_decode(const uint8_t *data, size_t len, uint64_t max_pixels, int min_w, int min_h, pk_image *out,
                  char *msg) {
    if (!out) return PK_INVALID;
    memset(out, 0, sizeof *out);
    if (!data || len == 0) return pk_jxl_corrupt(msg, "empty file");
    if (!pk_jxl_signature_ok(data, len)) return pk_jxl_corrupt(msg, "not a JPEG XL file");
    pk_jxl_job job;
    memset(&job, 0, sizeof job);
    job.max_pixels = max_pixels;
    job.min_w = min_w;
    job.min_h = min_h;
    job.file_bytes = len;
    job.dec = JxlDecoderCreate(NULL);
    if (!job.dec) return PK_NO_MEMORY;
    int progressive = min_w > 0 && min_h > 0;
    int events = JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FRAME | JXL_DEC_FULL_IMAGE |
                 (progressive ? JXL_DEC_FRAME_PROGRESSION : 0);
    int status = PK_OK;
    void *runner = NULL;
    if (pk_jxl_declared_pixels(data, len) >= PK_JXL_RUNNER_MIN_PIXELS) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        size_t threads = cores > 0 && cores < PK_JXL_THREADS ? (size_t)cores : PK_JXL_THREADS;
        if (threads > 1) runner = JxlThreadParallelRunnerCreate(NULL, threads);
        if (runner && JxlDecoderSetParallelRunner(job.dec, JxlThreadParallelRunner, runner) != JXL_DEC_SUCCESS) {
            JxlThreadParallelRunnerDestroy(runner);
            runner = NULL;
        }
    }
    if (JxlDecoderSubscribeEvents(job.dec, events) != JXL_DEC_SUCCESS ||
        JxlDecoderSetKeepOrientation(job.dec, JXL_TRUE) != JXL_DEC_SUCCESS ||
        JxlDecoderSetUnpremultiplyAlpha(job.dec, JXL_TRUE) != JXL_DEC_SUCCESS ||
        (progressive && JxlDecoderSetProgressiveDetail(job.dec, kDC) != JXL_DEC_SUCCESS) ||
        JxlDecoderSetInput(job.dec, data, len) != JXL_DEC_SUCCESS) {
        status = PK_INVALID;
    } else {
        JxlDecoderCloseInput(job.dec);
        status = pk_jxl_run(&job, progressive, msg);
    }
    JxlDecoderDestroy(job.dec);
    if (runner) JxlThreadParallelRunnerDestroy(runner);
    if (status == PK_OK) {
        out->colour = pk_colour_to_srgb(job.icc, job.icc_len, job.pixels,
                                        pk_size_pixels(job.width, job.height, job.channels), job.width,
                                        job.height, job.channels);
        out->pixels = job.pixels;
        out->width = job.width;
        out->height = job.height;
        out->channels = job.channels;
    } else {
        free(job.pixels);
    }
    free(job.icc);
    return status;
}
