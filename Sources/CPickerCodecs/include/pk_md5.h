/*
 * MD5 through OpenSSL 3's EVP interface (libcrypto), for the freedesktop.org
 * thumbnail cache, whose file names are the MD5 of a file URI. Not for
 * anything security-related.
 *
 * Conventions as in CPickerCodecs.h: a pk_status result and, on failure, a
 * NUL-terminated message in the caller's PK_MSG_LEN buffer.
 */
#ifndef PK_MD5_H
#define PK_MD5_H

#include <stddef.h>
#include <stdint.h>

#include "CPickerCodecs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PK_MD5_DIGEST_LEN 16

/* Writes the 16-byte MD5 digest of data[0..<len] into digest (which must
 * hold PK_MD5_DIGEST_LEN bytes). data may be NULL when len is 0.
 * PK_UNSUPPORTED when libcrypto refuses MD5 (e.g. a FIPS-only provider). */
int pk_md5(const uint8_t *data, size_t len, uint8_t *digest, char *msg);

#ifdef __cplusplus
}
#endif

#endif
