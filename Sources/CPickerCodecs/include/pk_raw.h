#ifndef PK_RAW_H
#define PK_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "CPickerCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Camera RAW sensor develop (LibRaw; pk_raw.c) ----
 * Only the fallback: pickerd shows a RAW by its embedded JPEG preview (found by its own
 * TIFF/ISO-BMFF walk in Swift) and develops the sensor data only when no preview covers the
 * target. The caller has already checked that the sensor data's strips/tiles lie inside the file.
 *
 * One LibRaw handle per call, data read from memory. The size LibRaw will produce (after
 * half_size) is checked against max_pixels before unpack. Any data error LibRaw reports through
 * its callback (it "develops" truncated data into noise otherwise) makes the call fail with
 * PK_CORRUPT. The job's cancel flag stops it (PK_CANCELLED). The result is 8-bit sRGB RGB,
 * in the file's stored orientation (LibRaw's own flip is not applied: user_flip = 0). */
int pk_raw_develop(const uint8_t *data, size_t len, int half_size, uint64_t max_pixels,
                   pk_image *out, char *msg);

#ifdef __cplusplus
}
#endif

#endif
