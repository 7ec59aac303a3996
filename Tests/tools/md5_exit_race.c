/*
 * Ends the process with exit() while two threads hash with pk_md5, as pickerd
 * ends while its render threads name freedesktop thumbnails. Exit status 0 when
 * nothing freed at exit is used by those threads; a SIGSEGV/SIGABRT otherwise
 * (OpenSSL's atexit cleanup freeing its context under them).
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "pk_md5.h"

static void *hash_forever(void *unused) {
    (void)unused;
    uint8_t digest[PK_MD5_DIGEST_LEN];
    char msg[PK_MSG_LEN];
    for (;;) pk_md5((const uint8_t *)"file:///a.jpg", 13, digest, msg);
    return NULL;
}

int main(void) {
    uint8_t digest[PK_MD5_DIGEST_LEN];
    char msg[PK_MSG_LEN];
    if (pk_md5((const uint8_t *)"", 0, digest, msg) != PK_OK) return 3;
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) {
        if (pthread_create(&threads[i], NULL, hash_forever, NULL) != 0) return 4;
    }
    usleep(3000);
    exit(0);
}
