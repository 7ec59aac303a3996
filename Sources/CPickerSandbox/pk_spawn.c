// Starting, limiting, measuring and ending decoder worker processes (the daemon's side).
#define _GNU_SOURCE
#include "pk_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

pid_t pk_spawn_worker(char *const argv[], int child_sock) {
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0) return -1;
    // dup2 onto itself clears close-on-exec (glibc >= 2.29); closefrom leaves 0-3 only.
    posix_spawn_file_actions_adddup2(&actions, child_sock, 3);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addclosefrom_np(&actions, 4);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // The worker starts with default signal handling and nothing blocked, whatever the daemon masks.
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, argv[0], &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) { errno = rc; return -1; }
    return pid;
}

int pk_set_soft_limit(pid_t pid, int resource, uint64_t value) {
    struct rlimit old;
    if (prlimit(pid, resource, NULL, &old) < 0) return -1;
    struct rlimit next = { .rlim_cur = value, .rlim_max = old.rlim_max };
    if (old.rlim_max != RLIM_INFINITY && value > old.rlim_max) next.rlim_cur = old.rlim_max;
    return prlimit(pid, resource, &next, NULL);
}

int pk_kill_and_reap(pid_t pid) {
    kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return status;
}

int pk_reap_if_ended(pid_t pid, int *status) {
    pid_t r;
    do { r = waitpid(pid, status, WNOHANG); } while (r < 0 && errno == EINTR);
    return r == pid ? 1 : 0;
}
