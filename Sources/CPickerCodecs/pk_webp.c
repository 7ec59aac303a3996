/*
 * WebP decode/encode with libwebp (no longjmp here; status codes only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>

#include "CPickerCodecs.h"
#include "pk_internal.h"

static int pk_webp_status(VP8StatusCode code, char *msg) {
    const char *text;
    int status;
    switch (code) {
    case VP8_STATUS_OK:
        return PK_OK;
    case VP8_STATUS_OUT_OF_MEMORY:
        text = "out of memory"; status = PK_NO_MEMORY; break;
    case VP8_STATUS_UNSUPPORTED_FEATURE:
        text = "unsupported WebP feature"; status = PK_UNSUPPORTED; break;
    case VP8_STATUS_NOT_ENOUGH_DATA:
        text = "truncated WebP data"; status = PK_CORRUPT; break;
    case VP8_STATUS_BITSTREAM_ERROR:
        text = "corrupt WebP bitstream"; status = PK_CORRUPT; break;
    case VP8_STATUS_INVALID_PARAM:
        text = "invalid WebP data"; status = PK_CORRUPT; break;
    default:
        text = "WebP decoding failed"; status = PK_CORRUPT; break;
    }
    if (msg) snprintf(msg, PK_MSG_LEN, "%s", text);
    return status;
}

int pk_webp_info(const uint8_t *data, size_t len, int *width, int *height,
                 int *has_alpha, int *has_animation, char *msg) {
    if (!data || len == 0) {
        if (msg) snprintf(msg, PK_MSG_LEN, "empty file");
        return PK_CORRUPT;
    }
    WebPBitstreamFeatures f;
    int status = pk_webp_status(WebPGetFeatures(data, len, &f), msg);
    if (status != PK_OK) return status;
    if (width) *width = f.width;
    if (height) *height = f.height;
    if (has_alpha) *has_alpha = f.has_alpha;
    if (has_animation) *has_animation = f.has_animation;
    return PK_OK;
}

static int pk_too_large(int w, int h, uint64_t max_pixels, char *msg) {
    uint64_t declared = (uint64_t)w * (uint64_t)h;
    if (declared <= max_pixels) return 0;
    if (msg)
        snprintf(msg, PK_MSG_LEN,
                 "image too large: %dx%d (%.1f Mpx) exceeds the limit of %.1f Mpx",
                 w, h, declared / 1e6, max_pixels / 1e6);
    return 1;
}

/* First frame of an animation, composited on its canvas, as RGBA. */
/* Converts the decoded picture to sRGB when the file carries an ICCP chunk (only extended
 * VP8X files can). WebPDemux reads the chunk headers only. Returns a pk_colour_outcome. */
static int pk_webp_manage_colour(const uint8_t *data, size_t len, uint8_t *pixels, int w, int h,
                                 int channels) {
    if (len < 16 || memcmp(data + 12, "VP8X", 4) != 0) return PK_COLOUR_NONE;
    WebPData whole = {data, len};
    WebPDemuxer *demux = WebPDemux(&whole);
    if (!demux) return PK_COLOUR_NONE;
    int outcome = PK_COLOUR_NONE;
    WebPChunkIterator chunk;
    if ((WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & ICCP_FLAG) &&
        WebPDemuxGetChunk(demux, "ICCP", 1, &chunk)) {
        outcome = pk_colour_to_srgb(chunk.chunk.bytes, chunk.chunk.size, pixels,
                                    (size_t)w * (size_t)h * (size_t)channels, w, h, channels);
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    WebPDemuxDelete(demux);
    return outcome;
}

static int pk_webp_first_frame(const uint8_t *data, size_t len, uint64_t max_pixels,
                               pk_image *out, char *msg) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return PK_INVALID;
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData webp = {data, len};
    WebPAnimDecoder *dec = WebPAnimDecoderNew(&webp, &options);
    if (!dec) {
        if (msg) snprintf(msg, PK_MSG_LEN, "corrupt animated WebP");
        return PK_CORRUPT;
    }
    WebPAnimInfo info;
    if (!WebPAnimDecoderGetInfo(dec, &info)) {
        WebPAnimDecoderDelete(dec);
        if (msg) snprintf(msg, PK_MSG_LEN, "corrupt animated WebP");
        return PK_CORRUPT;
    }
    int w = (int)info.canvas_width, h = (int)info.canvas_height;
    if (pk_too_large(w, h, max_pixels, msg)) {
        WebPAnimDecoderDelete(dec);
        return PK_TOO_LARGE;
    }
    uint8_t *frame = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(dec, &frame, &timestamp) || !frame) {
        WebPAnimDecoderDelete(dec);
        if (msg) snprintf(msg, PK_MSG_LEN, "corrupt animated WebP: first frame does not decode");
        return PK_CORRUPT;
    }
    size_t size = (size_t)w * (size_t)h * 4;
    uint8_t *pixels = malloc(size);
    if (!pixels) {
        WebPAnimDecoderDelete(dec);
        if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    memcpy(pixels, frame, size);
    WebPAnimDecoderDelete(dec);
    out->colour = pk_webp_manage_colour(data, len, pixels, w, h, 4);
    out->pixels = pixels;
    out->width = w;
    out->height = h;
    out->channels = 4;
    return PK_OK;
}

int pk_webp_decode(const uint8_t *data, size_t len, int scaled_width,
                   int scaled_height, uint64_t max_pixels, pk_image *out,
                   char *msg) {
    if (!out) return PK_INVALID;
    out->pixels = NULL;
    out->width = out->height = out->channels = out->colour = 0;
    if (!data || len == 0) {
        if (msg) snprintf(msg, PK_MSG_LEN, "empty file");
        return PK_CORRUPT;
    }
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return PK_INVALID;
    int status = pk_webp_status(WebPGetFeatures(data, len, &config.input), msg);
    if (status != PK_OK) return status;
    int w = config.input.width, h = config.input.height;
    if (pk_too_large(w, h, max_pixels, msg)) return PK_TOO_LARGE;
    if (config.input.has_animation) return pk_webp_first_frame(data, len, max_pixels, out, msg);

    int channels = config.input.has_alpha ? 4 : 3;
    int ow = w, oh = h;
    if (scaled_width > 0 && scaled_height > 0 && (scaled_width != w || scaled_height != h)) {
        config.options.use_scaling = 1;
        config.options.scaled_width = scaled_width;
        config.options.scaled_height = scaled_height;
        ow = scaled_width;
        oh = scaled_height;
    }
    /* libwebp decodes the alpha plane and filters on a second thread (lossy files only). */
    config.options.use_threads = 1;
    size_t stride = (size_t)ow * (size_t)channels;
    size_t size = stride * (size_t)oh;
    uint8_t *pixels = malloc(size);
    if (!pixels) {
        if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    config.output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = pixels;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = size;
    status = pk_webp_status(WebPDecode(data, len, &config), msg);
    WebPFreeDecBuffer(&config.output);
    if (status != PK_OK) {
        free(pixels);
        return status;
    }
    /* After libwebp's scaler, so only the output's pixels are converted. */
    out->colour = pk_webp_manage_colour(data, len, pixels, ow, oh, channels);
    out->pixels = pixels;
    out->width = ow;
    out->height = oh;
    out->channels = channels;
    return PK_OK;
}

int pk_webp_encode(const uint8_t *pixels, size_t pixels_len, int width, int height, int channels,
                   int quality, uint8_t **out, size_t *out_len, char *msg) {
    if (!out || !out_len) return PK_INVALID;
    *out = NULL;
    *out_len = 0;
    if (!pixels || (channels != 3 && channels != 4) || !pk_buffer_holds(pixels_len, width, height, channels)) {
        if (msg) snprintf(msg, PK_MSG_LEN, "WebP encoder needs an RGB or RGBA image");
        return PK_INVALID;
    }
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        if (msg) snprintf(msg, PK_MSG_LEN, "WebP output is limited to %d px per side",
                          WEBP_MAX_DIMENSION);
        return PK_INVALID;
    }
    if (quality < 1) quality = 1;
    if (quality > 100) quality = 100;
    uint8_t *encoded = NULL;
    int stride = width * channels;
    size_t size = channels == 4
        ? WebPEncodeRGBA(pixels, width, height, stride, (float)quality, &encoded)
        : WebPEncodeRGB(pixels, width, height, stride, (float)quality, &encoded);
    if (size == 0 || !encoded) {
        WebPFree(encoded);
        if (msg) snprintf(msg, PK_MSG_LEN, "WebP encoding failed");
        return PK_NO_MEMORY;
    }
    /* Hand back plain malloc memory so pk_free works for every buffer. */
    uint8_t *copy = malloc(size);
    if (!copy) {
        WebPFree(encoded);
        return PK_NO_MEMORY;
    }
    memcpy(copy, encoded, size);
    WebPFree(encoded);
    *out = copy;
    *out_len = size;
    return PK_OK;
}
