/*
 * cfloor: the C floor for a library scan, for `make bench-library`.
 *
 * One thread, no allocation per file. Two modes:
 *   cfloor list FILE   FILE holds one path a line (from `find`); the list is read into
 *                      memory first, then every file is open()ed, pread() 64 KiB, close()d.
 *                      This is the "open + pread 64 KiB of every file".
 *   cfloor walk ROOT   the same work plus the directory walk a scanner must do: readdir
 *                      every folder (openat on the folder's descriptor, d_type, no stat).
 * Prints "files=N bytes=B ms=T" (T: the timed loop only, CLOCK_MONOTONIC).
 *
 *   cc -O2 -o cfloor cfloor.c && ./cfloor walk /path/to/library
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { HEADER = 64 * 1024 };
static char buf[HEADER];
static long long files, bytes;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void read_header(int dirfd, const char *name) {
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return;
    ssize_t n = pread(fd, buf, sizeof buf, 0);
    if (n > 0) bytes += n;
    files++;
    close(fd);
}

static void walk(int dirfd) {
    DIR *d = fdopendir(dirfd);
    if (!d) {
        close(dirfd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue; /* ".", "..", and hidden files, as the daemon skips them */
        unsigned char type = e->d_type;
        if (type == DT_UNKNOWN) {
            struct stat st;
            if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
            type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
        }
        if (type == DT_DIR) {
            int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
            if (sub >= 0) walk(sub);
        } else if (type == DT_REG) {
            read_header(dirfd, e->d_name);
        }
    }
    closedir(d);
}

static int run_list(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cfloor: %s: %s\n", path, strerror(errno));
        return 1;
    }
    size_t cap = 1024, n = 0;
    char **names = malloc(cap * sizeof *names);
    char *line = NULL;
    size_t len = 0;
    ssize_t got;
    while (names && (got = getline(&line, &len, f)) > 0) {
        if (line[got - 1] == '\n') line[got - 1] = 0;
        if (n == cap) {
            char **more = realloc(names, (cap *= 2) * sizeof *names);
            if (!more) break;
            names = more;
        }
        names[n++] = strdup(line);
    }
    free(line);
    fclose(f);
    if (!names) return 1;
    double t0 = now_ms();
    for (size_t i = 0; i < n; i++) read_header(AT_FDCWD, names[i]);
    double t = now_ms() - t0;
    printf("files=%lld bytes=%lld ms=%.1f\n", files, bytes, t);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "list") != 0 && strcmp(argv[1], "walk") != 0)) {
        fprintf(stderr, "usage: cfloor list FILE | cfloor walk ROOT\n");
        return 2;
    }
    if (strcmp(argv[1], "list") == 0) return run_list(argv[2]);
    double t0 = now_ms();
    int root = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) {
        fprintf(stderr, "cfloor: %s: %s\n", argv[2], strerror(errno));
        return 1;
    }
    walk(root);
    printf("files=%lld bytes=%lld ms=%.1f\n", files, bytes, now_ms() - t0);
    return 0;
}
