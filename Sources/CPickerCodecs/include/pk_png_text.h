/*
 * PNG encoding with tEXt chunks (key/value text), for the freedesktop.org
 * thumbnail cache (Thumb::URI, Thumb::MTime, ...).
 *
 * Conventions as in CPickerCodecs.h: a pk_status result, a message in the
 * caller's PK_MSG_LEN buffer on failure, output released with pk_free.
 */
#ifndef PK_PNG_TEXT_H
#define PK_PNG_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "CPickerCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One tEXt entry. key: 1-79 printable Latin-1 bytes (PNG keyword rules,
 * checked); value: NUL-terminated Latin-1 text (ASCII in practice). */
typedef struct pk_png_text_entry {
    const char *key;
    const char *value;
} pk_png_text_entry;

/* 8-bit RGB (channels 3) or RGBA (channels 4), non-interlaced, with the given
 * uncompressed tEXt chunks written before IDAT (so readers that stop at the
 * image data still see them). compression_level 0-9. The PNG goes to a
 * malloc'd buffer: release with pk_free. */
int pk_png_encode_text(const uint8_t *pixels, size_t pixels_len, int width, int height,
                       int channels, int compression_level,
                       const pk_png_text_entry *texts, int text_count,
                       uint8_t **out, size_t *out_len, char *msg);

#ifdef __cplusplus
}
#endif

#endif
