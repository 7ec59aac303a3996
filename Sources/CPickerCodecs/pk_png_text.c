/*
 * PNG encode with tEXt chunks: validates the keywords, then writes with the
 * shared writer in pk_png.c (whose setjmp keeps libpng's longjmp in C).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

#include "pk_png_text.h"
#include "pk_internal.h"

#define PK_PNG_TEXT_MAX_ENTRIES 64

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

int pk_png_encode_text(const uint8_t *pixels, size_t pixels_len, int width, int height,
                       int channels, int compression_level,
                       const pk_png_text_entry *texts, int text_count,
                       uint8_t **out, size_t *out_len, char *msg) {
    if (!out || !out_len) return PK_INVALID;
    *out = NULL;
    *out_len = 0;
    if (!pixels || (channels != 3 && channels != 4) || !pk_buffer_holds(pixels_len, width, height, channels)) {
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
    return pk_png_write_image(pixels, pixels_len, width, height, channels, compression_level, chunks,
                              text_count, out, out_len, msg);
}
