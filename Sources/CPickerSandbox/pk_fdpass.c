// Descriptors over a socketpair (SCM_RIGHTS) and sealed memfds: the decoder worker's transport.
#define _GNU_SOURCE
#include "pk_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

int pk_seqpacket_pair(int fds[2]) {
    return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds);
}

ssize_t pk_send_with_fd(int sock, const void *buf, size_t len, int fd) {
    struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
    union { char bytes[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
    if (fd >= 0) {
        memset(&control, 0, sizeof control);
        msg.msg_control = control.bytes;
        msg.msg_controllen = sizeof control.bytes;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    ssize_t n;
    do { n = sendmsg(sock, &msg, MSG_NOSIGNAL); } while (n < 0 && errno == EINTR);
    return n;
}

/// Closes every descriptor a received message carried; returns how many there were.
static int close_passed(struct msghdr *msg, int *first) {
    int count = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < n; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (count == 0 && first) *first = fd; else close(fd);
            count++;
        }
    }
    return count;
}

ssize_t pk_recv_with_fd(int sock, void *buf, size_t cap, int *fd_out) {
    *fd_out = -1;
    struct iovec iov = { .iov_base = buf, .iov_len = cap };
    union { char bytes[CMSG_SPACE(4 * sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
                          .msg_control = control.bytes, .msg_controllen = sizeof control.bytes };
    ssize_t n;
    do { n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC); } while (n < 0 && errno == EINTR);
    if (n < 0) return -1;
    int fd = -1;
    int count = close_passed(&msg, &fd);
    if ((msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || count > 1) {
        if (fd >= 0) close(fd);
        errno = EMSGSIZE;
        return -1;
    }
    *fd_out = fd;
    return n;
}

int pk_memfd_sealed(const void *data, size_t len) {
    int fd = memfd_create("pickerd-pixels", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    const char *p = data;
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, p + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { int e = errno; close(fd); errno = n < 0 ? e : EIO; return -1; }
        done += (size_t)n;
    }
    /* Not F_SEAL_WRITE: the daemon punches out what it has encoded (pk_memfd_release), which that
     * seal forbids; a worker that rewrote its own pixels later would only garble its own picture. */
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
        int e = errno; close(fd); errno = e; return -1;
    }
    return fd;
}

int pk_memfd_check(int fd, size_t len) {
    int seals = fcntl(fd, F_GET_SEALS);
    if (seals < 0) return -1;
    /* A file that cannot shrink: reading it never meets SIGBUS or a short read. */
    int need = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;
    if ((seals & need) != need) { errno = EPERM; return -1; }
    struct stat st;
    if (fstat(fd, &st) < 0) return -1;
    if (st.st_size < 0 || (size_t)st.st_size != len) { errno = EMSGSIZE; return -1; }
    return 0;
}

int pk_memfd_release(int fd, off_t offset, off_t len) {
    if (len <= 0) return 0;
    return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, len);
}
