/*
 * cping: the smallest pickerd client, for the benchmark's start-up baseline.
 *
 * Does what `pickerctl ping` does and nothing else: connect to the Unix
 * socket, send hello (version 1), read helloReply, send ping, read pong,
 * print the server version. Blocking I/O, no allocation beyond the stack.
 *
 *   cc -O2 -o cping cping.c && ./cping /path/to/pickerd.sock
 *
 * Exit codes follow pickerctl: 0 ok, 1 protocol error, 5 cannot connect.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int write_all(int fd, const uint8_t *p, size_t n) {
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, uint8_t *p, size_t n) {
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Reads one frame into buf (at most cap bytes after the length); returns its type or -1. */
static int read_frame(int fd, uint8_t *buf, size_t cap, uint32_t *len) {
    uint8_t head[4];
    if (read_all(fd, head, 4) < 0) return -1;
    *len = be32(head);
    if (*len < 5 || *len > cap) return -1;
    if (read_all(fd, buf, *len) < 0) return -1;
    return buf[0];
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: cping SOCKET\n");
        return 2;
    }
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(argv[1]) >= sizeof addr.sun_path) {
        fprintf(stderr, "cping: socket path too long\n");
        return 2;
    }
    strcpy(addr.sun_path, argv[1]);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        fprintf(stderr, "cping: cannot reach pickerd at %s: %s\n", argv[1], strerror(errno));
        return 5;
    }
    /* hello id=1 version=1 client_name="cping"; wait for helloReply; then
     * ping id=2 and wait for pong: the same two round trips as pickerctl. */
    static const uint8_t hello[] = {0, 0, 0, 16, 0x01, 0, 0, 0, 1, 0, 1,
                                    0, 0, 0, 5, 'c', 'p', 'i', 'n', 'g'};
    static const uint8_t ping[] = {0, 0, 0, 5, 0x04, 0, 0, 0, 2};
    uint8_t buf[4096];
    uint32_t len = 0;
    if (write_all(fd, hello, sizeof hello) < 0 ||
        read_frame(fd, buf, sizeof buf, &len) != 0x02 ||
        write_all(fd, ping, sizeof ping) < 0 ||
        read_frame(fd, buf, sizeof buf, &len) != 0x05 || len < 9) {
        fprintf(stderr, "cping: bad reply from pickerd\n");
        close(fd);
        return 1;
    }
    uint32_t n = be32(buf + 5);
    if (n > len - 9) n = len - 9;
    printf("pickerd %.*s\n", (int)n, (const char *)buf + 9);
    close(fd);
    return 0;
}
