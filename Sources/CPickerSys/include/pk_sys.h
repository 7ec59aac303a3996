#ifndef PK_SYS_H
#define PK_SYS_H

#include <stdint.h>
#include <sys/types.h>

// What Swift cannot reach through Glibc: accept4, SO_PEERCRED, epoll, eventfd,
// and sockaddr_un handling. Each returns -1 with errno set on failure.

enum {
    PK_EPOLLIN = 0x001,
    PK_EPOLLOUT = 0x004,
    PK_EPOLLERR = 0x008,
    PK_EPOLLHUP = 0x010,
    PK_EPOLLRDHUP = 0x2000,
};

enum { PK_EPOLL_CTL_ADD = 1, PK_EPOLL_CTL_DEL = 2, PK_EPOLL_CTL_MOD = 3 };

typedef struct {
    uint32_t events;
    uint64_t data;
} pk_epoll_event;

/// accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)
int pk_accept(int fd);
/// getsockopt(SO_PEERCRED): the peer's uid and pid.
int pk_peer_credentials(int fd, uid_t *uid, pid_t *pid);

/// A SOCK_STREAM AF_UNIX socket with SOCK_CLOEXEC (and SOCK_NONBLOCK if asked).
int pk_unix_socket(int nonblocking);
/// bind(2) to a path; -1 with errno ENAMETOOLONG when the path does not fit sun_path.
int pk_bind_unix(int fd, const char *path);
/// connect(2) to a path; -1 with errno ENAMETOOLONG when the path does not fit sun_path.
int pk_connect_unix(int fd, const char *path);
/// Longest path that fits sun_path (without the NUL).
int pk_unix_path_max(void);

int pk_epoll_create(void);
int pk_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data);
int pk_epoll_wait(int epfd, pk_epoll_event *events, int max, int timeout_ms);

/// eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)
int pk_eventfd(void);
int pk_eventfd_signal(int fd);
int pk_eventfd_drain(int fd);

/// Lowers the calling thread's scheduling priority to nice `nice` (Linux: per thread).
/// Unprivileged processes can only lower it, so call it on worker threads only.
void pk_lower_thread_priority(int nice);

/* Names the calling thread (pthread_setname_np; 15 bytes at most). */
void pk_set_thread_name(const char *name);

/// openat2(dirfd, path, {flags, 0, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS}): opens `path` so that
/// every component, symlinks included, resolves inside `dirfd`; -1 with EXDEV when it would leave,
/// ENOSYS on kernels before 5.6 (glibc has no wrapper, so this is a raw syscall).
int pk_open_beneath(int dirfd, const char *path, int flags);

/// fstatfs(fd).f_type: the file system's magic number, or -1 with errno.
long pk_fs_type(int fd);

/// malloc_trim(0): returns freed heap memory to the system.
void pk_release_free_memory(void);

/// fallocate(fd, 0, 0, length): 0, or -1 with errno (EOPNOTSUPP where the file system has none).
int pk_reserve_file_space(int fd, long long length);

#endif
