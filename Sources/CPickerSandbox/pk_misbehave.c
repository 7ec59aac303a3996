// Test-only misbehaviour of a decoder worker (debug job kinds; the Swift side compiles the job
// kinds in debug builds only): what a compromised or broken decoder would do.
#define _GNU_SOURCE
#include "pk_sandbox.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int pk_sandbox_try_open(const char *path) { return open(path, O_RDONLY | O_CLOEXEC); }

int pk_sandbox_try_socket(void) { return socket(AF_INET, SOCK_STREAM, 0); }

void pk_sandbox_crash(void) {
    volatile int *nowhere = NULL;
    *nowhere = 1;
}

void pk_sandbox_spin(void) {
    volatile unsigned long n = 0;
    for (;;) n++;
}

int pk_sandbox_allocate(size_t bytes) {
    char *p = malloc(bytes);
    if (!p) return -1;
    for (size_t i = 0; i < bytes; i += 4096) p[i] = 1;
    volatile char keep = p[bytes / 2];
    (void)keep;
    free(p);
    return 0;
}
