/*
 * MD5 via OpenSSL 3's one-shot EVP_Digest. The legacy MD5() call is
 * deprecated in OpenSSL 3; EVP_md5() comes from the default provider.
 *
 * OpenSSL's first use registers OPENSSL_cleanup with atexit: exit() then frees
 * the default library context while a render thread may still be hashing a
 * thumbnail name, and that thread dies in pthread_rwlock_rdlock on the freed
 * lock (a daemon stopped mid-prefetch exited with SIGSEGV). So the first use
 * here asks for no atexit cleanup; after it, the call is one RUN_ONCE check.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/err.h>

#include "pk_md5.h"

int pk_md5(const uint8_t *data, size_t len, uint8_t *digest, char *msg) {
    static const uint8_t empty = 0;
    if (!digest || (!data && len > 0)) {
        if (msg) snprintf(msg, PK_MSG_LEN, "pk_md5: invalid arguments");
        return PK_INVALID;
    }
    if (OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL) != 1) {
        if (msg) snprintf(msg, PK_MSG_LEN, "libcrypto failed to start");
        return PK_UNSUPPORTED;
    }
    const EVP_MD *md = EVP_md5();
    if (!md) {
        if (msg) snprintf(msg, PK_MSG_LEN, "libcrypto offers no MD5");
        return PK_UNSUPPORTED;
    }
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int out_len = 0;
    if (EVP_Digest(data ? data : &empty, len, out, &out_len, md, NULL) != 1 ||
        out_len != PK_MD5_DIGEST_LEN) {
        if (msg) {
            unsigned long code = ERR_get_error();
            if (code) {
                char text[200];
                ERR_error_string_n(code, text, sizeof text);
                snprintf(msg, PK_MSG_LEN, "MD5 failed: %s", text);
            } else {
                snprintf(msg, PK_MSG_LEN, "MD5 failed");
            }
        }
        ERR_clear_error();
        return PK_UNSUPPORTED;
    }
    memcpy(digest, out, PK_MD5_DIGEST_LEN);
    return PK_OK;
}
