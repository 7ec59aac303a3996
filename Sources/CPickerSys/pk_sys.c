#define _GNU_SOURCE
#include "pk_sys.h"

#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/openat2.h>

int pk_accept(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

int pk_peer_credentials(int fd, uid_t *uid, pid_t *pid) {
    struct ucred cred;
    socklen_t len = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    *uid = cred.uid;
    *pid = cred.pid;
    return 0;
}

int pk_unix_socket(int nonblocking) {
    return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
}

static int fill_addr(struct sockaddr_un *addr, const char *path) {
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof(addr->sun_path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memset(addr, 0, sizeof(*addr));
    addr->sun_family = AF_UNIX;
    memcpy(addr->sun_path, path, n + 1);
    return 0;
}

int pk_bind_unix(int fd, const char *path) {
    struct sockaddr_un addr;
    if (fill_addr(&addr, path) != 0) return -1;
    return bind(fd, (struct sockaddr *)&addr, sizeof(addr));
}

int pk_connect_unix(int fd, const char *path) {
    struct sockaddr_un addr;
    if (fill_addr(&addr, path) != 0) return -1;
    int rc;
    do {
        rc = connect(fd, (struct sockaddr *)&addr, sizeof(addr));
    } while (rc != 0 && errno == EINTR);
    return rc;
}

int pk_unix_path_max(void) {
    struct sockaddr_un addr;
    return (int)sizeof(addr.sun_path) - 1;
}

int pk_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int pk_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

int pk_epoll_wait(int epfd, pk_epoll_event *events, int max, int timeout_ms) {
    struct epoll_event evs[64];
    if (max > 64) max = 64;
    int n = epoll_wait(epfd, evs, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        events[i].events = evs[i].events;
        events[i].data = evs[i].data.u64;
    }
    return n;
}

int pk_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

int pk_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t n = write(fd, &one, sizeof(one));
    return n == sizeof(one) || errno == EAGAIN ? 0 : -1;
}

int pk_eventfd_drain(int fd) {
    uint64_t v;
    ssize_t n = read(fd, &v, sizeof(v));
    return n == sizeof(v) || errno == EAGAIN ? 0 : -1;
}

void pk_release_free_memory(void) { malloc_trim(0); }

int pk_reserve_file_space(int fd, long long length) {
    return length > 0 ? fallocate(fd, 0, 0, (off_t)length) : 0;
}

void pk_lower_thread_priority(int nice) {
    pid_t tid = (pid_t)syscall(SYS_gettid);
    if (getpriority(PRIO_PROCESS, (id_t)tid) < nice) setpriority(PRIO_PROCESS, (id_t)tid, nice);
}

int pk_open_beneath(int dirfd, const char *path, int flags) {
    struct open_how how;
    memset(&how, 0, sizeof(how));
    how.flags = (uint64_t)(unsigned)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

long pk_fs_type(int fd) {
    struct statfs st;
    if (fstatfs(fd, &st) != 0) return -1;
    return (long)st.f_type;
}

void pk_set_thread_name(const char *name) {
    pthread_setname_np(pthread_self(), name);
}
