/*
 * PNG encode with tEXt chunks, classic libpng API.
 *
 * libpng's error callback must not return: ours longjmps to the setjmp in
 * pk_png_encode_text, so no Swift frame is ever unwound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <png.h>

#include "pk_png_text.h"

#define PK_PNG_TEXT_MAX_ENTRIES 64

typedef struct pk_text_err {
    jmp_buf jump;
    char *msg;
} pk_text_err;

typedef struct pk_text_buffer {
    uint8_t *data;
    size_t len;
    size_t cap;
} pk_text_buffer;

static void pk_text_error(png_structp png, png_const_charp text) {
    pk_text_err *err = (pk_text_err *)png_get_error_ptr(png);
    if (err->msg) snprintf(err->msg, PK_MSG_LEN, "%s", text ? text : "PNG error");
    longjmp(err->jump, 1);
}

static void pk_text_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void pk_text_write(png_structp png, png_bytep bytes, size_t count) {
    pk_text_buffer *buf = (pk_text_buffer *)png_get_io_ptr(png);
    if (count > SIZE_MAX - buf->len) png_error(png, "output too large");
    if (buf->len + count > buf->cap) {
        size_t cap = buf->cap ? buf->cap : 16384;
        while (cap < buf->len + count) {
            if (cap > SIZE_MAX / 2) png_error(png, "output too large");
            cap *= 2;
        }
        uint8_t *grown = realloc(buf->data, cap);
        if (!grown) png_error(png, "out of memory");
        buf->data = grown;
        buf->cap = cap;
    }
    memcpy(buf->data + buf->len, bytes, count);
    buf->len += count;
}

static void pk_text_flush(png_structp png) { (void)png; }

/* PNG keyword rules (PNG spec 11.3.4.3): 1-79 bytes of printable Latin-1
 * (32-126, 161-255), no leading, trailing or consecutive spaces. */
static int pk_keyword_ok(const char *key) {
    if (!key) return 0;
    size_t n = strlen(key);
    if (n < 1 || n > 79) return 0;
    if (key[0] == ' ' || key[n - 1] == ' ') return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)key[i];
        if (!((c >= 32 && c <= 126) || c >= 161)) return 0;
        if (c == ' ' && i > 0 && key[i - 1] == ' ') return 0;
    }
    return 1;
}

int pk_png_encode_text(const uint8_t *pixels, int width, int height,
                       int channels, int compression_level,
                       const pk_png_text_entry *texts, int text_count,
                       uint8_t **out, size_t *out_len, char *msg) {
    if (!out || !out_len) return PK_INVALID;
    *out = NULL;
    *out_len = 0;
    if (!pixels || width <= 0 || height <= 0 || (channels != 3 && channels != 4)) {
        if (msg) snprintf(msg, PK_MSG_LEN, "PNG encoder needs an RGB or RGBA image");
        return PK_INVALID;
    }
    if (text_count < 0 || text_count > PK_PNG_TEXT_MAX_ENTRIES || (text_count > 0 && !texts)) {
        if (msg) snprintf(msg, PK_MSG_LEN, "PNG encoder: bad text list (%d entries)", text_count);
        return PK_INVALID;
    }
    png_text chunks[PK_PNG_TEXT_MAX_ENTRIES];
    for (int i = 0; i < text_count; i++) {
        if (!pk_keyword_ok(texts[i].key) || !texts[i].value) {
            if (msg) snprintf(msg, PK_MSG_LEN, "PNG encoder: invalid tEXt keyword or value (entry %d)", i);
            return PK_INVALID;
        }
        memset(&chunks[i], 0, sizeof chunks[i]);
        chunks[i].compression = PNG_TEXT_COMPRESSION_NONE;
        chunks[i].key = (png_charp)texts[i].key;
        chunks[i].text = (png_charp)texts[i].value;
        chunks[i].text_length = strlen(texts[i].value);
    }
    const int level = compression_level < 0 ? 0 : (compression_level > 9 ? 9 : compression_level);

    pk_text_err err = {.msg = msg};
    /* Address-taken: lives in memory, valid after longjmp. */
    pk_text_buffer buf = {NULL, 0, 0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &err,
                                              pk_text_error, pk_text_warning);
    if (!png) {
        if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        if (msg) snprintf(msg, PK_MSG_LEN, "out of memory");
        return PK_NO_MEMORY;
    }
    if (setjmp(err.jump)) {
        png_destroy_write_struct(&png, &info);
        free(buf.data);
        return PK_NO_MEMORY;
    }
    png_set_write_fn(png, &buf, pk_text_write, pk_text_flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 channels == 4 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (text_count > 0) png_set_text(png, info, chunks, text_count);
    png_set_compression_level(png, level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_write_info(png, info); /* IHDR, then the tEXt chunks: before IDAT */
    size_t stride = (size_t)width * (size_t)channels;
    for (int y = 0; y < height; y++)
        png_write_row(png, (png_const_bytep)(pixels + (size_t)y * stride));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);

    *out = buf.data;
    *out_len = buf.len;
    return PK_OK;
}
