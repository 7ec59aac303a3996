/*
 * GIF decode with giflib's low-level API (no longjmp here; status codes only).
 *
 * Only the first image of the file is read: records are walked with DGifGetRecordType,
 * extensions before the image are skipped except the Graphics Control Extension (its
 * transparent index), and the image's rows come from DGifGetLine one at a time into a row of
 * palette indices. DGifSlurp is never used: it decodes every frame of an animation into memory.
 *
 * The picture is the first frame composited onto the logical screen: pixels outside the frame
 * and transparent pixels are transparent (what browsers show; the background colour index is
 * ignored, as they do). The result is RGB when the frame covers the screen and has no
 * transparent index, else RGBA. Interlaced frames are de-interlaced (4 passes). Indices beyond
 * the colour table are opaque black. A frame that does not fit the screen, a frame without a
 * colour table, and LZW data that ends before the last row are errors.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gif_lib.h>

#include "CPickerCodecs.h"
#include "pk_internal.h"
#include "pk_size.h"

typedef struct pk_gif_src {
    const uint8_t *data;
    size_t len;
    size_t pos;
} pk_gif_src;

/* giflib's read callback: copies up to `count` bytes; a short count is giflib's EOF. */
static int pk_gif_read(GifFileType *gif, GifByteType *dst, int count) {
    pk_gif_src *src = (pk_gif_src *)gif->UserData;
    if (count <= 0) return 0;
    size_t left = src->len - src->pos;
    size_t n = (size_t)count < left ? (size_t)count : left;
    memcpy(dst, src->data + src->pos, n);
    src->pos += n;
    return (int)n;
}

/* Writes "<what>[: <detail>]" into msg and returns status. */
__attribute__((format(printf, 4, 5)))
static int pk_gif_fail(int status, char *msg, const char *detail, const char *fmt, ...) {
    if (!msg) return status;
    char what[PK_MSG_LEN];
    va_list args;
    va_start(args, fmt);
    vsnprintf(what, sizeof what, fmt, args);
    va_end(args);
    if (detail)
        snprintf(msg, PK_MSG_LEN, "%s: %s", what, detail);
    else
        snprintf(msg, PK_MSG_LEN, "%s", what);
    return status;
}

static const char *pk_gif_error_text(int code) {
    const char *text = GifErrorString(code);
    return text ? text : "unknown giflib error";
}

/* The frame as the image descriptor declares it, and what the decode needs from before it. */
typedef struct pk_gif_frame {
    int left, top, width, height;
    int interlaced;
    int transparent; /* palette index, or -1 */
    GifColorType palette[256];
} pk_gif_frame;

/* Skips one extension record; keeps the transparent index of a Graphics Control Extension. */
static int pk_gif_read_extension(GifFileType *gif, int *transparent, char *msg) {
    int code = 0;
    GifByteType *block = NULL;
    if (DGifGetExtension(gif, &code, &block) == GIF_ERROR)
        return pk_gif_fail(PK_CORRUPT, msg, pk_gif_error_text(gif->Error), "extension block");
    if (code == GRAPHICS_EXT_FUNC_CODE && block) {
        GraphicsControlBlock gcb;
        if (DGifExtensionToGCB((size_t)block[0], block + 1, &gcb) == GIF_OK)
            *transparent = gcb.TransparentColor;
    }
    while (block) {
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR)
            return pk_gif_fail(PK_CORRUPT, msg, pk_gif_error_text(gif->Error), "extension block");
    }
    return PK_OK;
}

/* Reads records up to the first image descriptor and checks the frame against the screen. */
static int pk_gif_first_frame(GifFileType *gif, pk_gif_frame *frame, char *msg) {
    int transparent = NO_TRANSPARENT_COLOR;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR)
            return pk_gif_fail(PK_CORRUPT, msg, pk_gif_error_text(gif->Error), "before the first image");
        if (type == TERMINATE_RECORD_TYPE)
            return pk_gif_fail(PK_CORRUPT, msg, NULL, "the file holds no image");
        if (type == EXTENSION_RECORD_TYPE) {
            int status = pk_gif_read_extension(gif, &transparent, msg);
            if (status != PK_OK) return status;
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE)
            return pk_gif_fail(PK_CORRUPT, msg, NULL, "unknown record before the first image");
        if (DGifGetImageDesc(gif) == GIF_ERROR)
            return pk_gif_fail(PK_CORRUPT, msg, pk_gif_error_text(gif->Error), "image descriptor");
        break;
    }
    const GifImageDesc *d = &gif->Image;
    frame->left = d->Left;
    frame->top = d->Top;
    frame->width = d->Width;
    frame->height = d->Height;
    frame->interlaced = d->Interlace ? 1 : 0;
    frame->transparent = transparent;
    if (d->Width <= 0 || d->Height <= 0)
        return pk_gif_fail(PK_CORRUPT, msg, NULL, "the first frame is %dx%d", d->Width, d->Height);
    /* Sides are 16-bit, so these sums cannot overflow an int. */
    if (d->Left < 0 || d->Top < 0 || d->Left + d->Width > gif->SWidth || d->Top + d->Height > gif->SHeight) {
        return pk_gif_fail(PK_CORRUPT, msg, NULL, "a %dx%d frame at (%d,%d) sticks out of the %dx%d screen", d->Width,
                           d->Height, d->Left, d->Top, gif->SWidth, gif->SHeight);
    }
    const ColorMapObject *map = d->ColorMap ? d->ColorMap : gif->SColorMap;
    if (!map || !map->Colors || map->ColorCount <= 0)
        return pk_gif_fail(PK_CORRUPT, msg, NULL, "the first frame has no colour table (local or global)");
    memset(frame->palette, 0, sizeof frame->palette);
    int count = map->ColorCount < 256 ? map->ColorCount : 256;
    memcpy(frame->palette, map->Colors, (size_t)count * sizeof(GifColorType));
    return PK_OK;
}

/* Writes one row of palette indices into the canvas at frame row `row`. */
static void pk_gif_put_row(uint8_t *canvas, int canvas_w, int channels, const pk_gif_frame *f, int row,
                           const GifPixelType *indices) {
    uint8_t *out = canvas + ((size_t)(f->top + row) * (size_t)canvas_w + (size_t)f->left) * (size_t)channels;
    for (int x = 0; x < f->width; x++, out += channels) {
        int index = indices[x];
        const GifColorType *c = &f->palette[index];
        out[0] = c->Red;
        out[1] = c->Green;
        out[2] = c->Blue;
        if (channels == 4) out[3] = index == f->transparent ? 0 : 255;
    }
}

/* The frame's rows in file order: each interlace pass's starting row and step (GIF89a, appendix E). */
static int pk_gif_read_rows(GifFileType *gif, const pk_gif_frame *f, uint8_t *canvas, int canvas_w, int channels,
                            GifPixelType *indices, char *msg) {
    static const int start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
    int passes = f->interlaced ? 4 : 1;
    int done = 0;
    for (int p = 0; p < passes; p++) {
        int first = f->interlaced ? start[p] : 0, stride = f->interlaced ? step[p] : 1;
        for (int row = first; row < f->height; row += stride, done++) {
            if ((done & (PK_FEED_BATCH - 1)) == 0 && pk_cancelled()) { /* pk_work.h */
                if (msg) snprintf(msg, PK_MSG_LEN, "cancelled");
                return PK_CANCELLED;
            }
            if (DGifGetLine(gif, indices, f->width) == GIF_ERROR)
                return pk_gif_fail(PK_CORRUPT, msg, pk_gif_error_text(gif->Error),
                                   "image data ends after %d of %d rows", done, f->height);
            pk_gif_put_row(canvas, canvas_w, channels, f, row, indices);
        }
    }
    return PK_OK;
}

static int pk_gif_decode_open(GifFileType *gif, uint64_t max_pixels, pk_image *out, char *msg) {
    int w = gif->SWidth, h = gif->SHeight;
    if (w <= 0 || h <= 0) return pk_gif_fail(PK_CORRUPT, msg, NULL, "the screen is %dx%d", w, h);
    uint64_t declared = (uint64_t)w * (uint64_t)h;
    if (declared > max_pixels) {
        if (msg)
            snprintf(msg, PK_MSG_LEN, "image too large: %dx%d (%.1f Mpx) exceeds the limit of %.1f Mpx", w, h,
                     declared / 1e6, max_pixels / 1e6);
        return PK_TOO_LARGE;
    }
    pk_gif_frame frame;
    int status = pk_gif_first_frame(gif, &frame, msg);
    if (status != PK_OK) return status;
    int covers = frame.left == 0 && frame.top == 0 && frame.width == w && frame.height == h;
    int channels = covers && frame.transparent == NO_TRANSPARENT_COLOR ? 3 : 4;
    size_t bytes = pk_size_pixels(w, h, channels);
    if (bytes == 0) return pk_gif_fail(PK_TOO_LARGE, msg, NULL, "image too large: %dx%d", w, h);
    /* calloc: outside the frame stays transparent black. */
    uint8_t *canvas = calloc(bytes, 1);
    GifPixelType *indices = malloc((size_t)frame.width);
    if (!canvas || !indices) {
        free(canvas);
        free(indices);
        if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    status = pk_gif_read_rows(gif, &frame, canvas, w, channels, indices, msg);
    free(indices);
    if (status != PK_OK) {
        free(canvas);
        return status;
    }
    out->pixels = canvas;
    out->width = w;
    out->height = h;
    out->channels = channels;
    out->colour = PK_COLOUR_NONE;
    return PK_OK;
}

int pk_gif_decode(const uint8_t *data, size_t len, uint64_t max_pixels, pk_image *out, char *msg) {
    if (!out) return PK_INVALID;
    out->pixels = NULL;
    out->width = out->height = out->channels = out->colour = 0;
    if (msg) msg[0] = 0;
    if (!data || len < 13) return pk_gif_fail(PK_CORRUPT, msg, NULL, "shorter than a GIF header");
    pk_gif_src src = {data, len, 0};
    int error = 0;
    GifFileType *gif = DGifOpen(&src, pk_gif_read, &error);
    if (!gif) return pk_gif_fail(PK_CORRUPT, msg, pk_gif_error_text(error), "header");
    int status = pk_gif_decode_open(gif, max_pixels, out, msg);
    DGifCloseFile(gif, &error);
    return status;
}
