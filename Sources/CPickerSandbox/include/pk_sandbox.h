#ifndef PK_SANDBOX_H
#define PK_SANDBOX_H

// The decoder worker's process plumbing: descriptors passed over a socketpair (SCM_RIGHTS),
// sealed memfds for pixels, spawning a worker, per-process limits and the sandbox itself
// (no_new_privs + a seccomp-BPF allowlist, pk_seccomp.c). Every call returns -1 with errno set
// on failure unless stated otherwise.

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// A SOCK_SEQPACKET socketpair (message boundaries kept), both ends close-on-exec.
int pk_seqpacket_pair(int fds[2]);

/// Sends one message of `len` bytes with `fd` attached (fd < 0: none). MSG_NOSIGNAL.
/// Returns the bytes sent.
ssize_t pk_send_with_fd(int sock, const void *buf, size_t len, int fd);

/// Receives one message into `buf` (at most `cap` bytes); `*fd_out` gets the attached
/// descriptor (close-on-exec) or -1. A message longer than `cap`, or with more than one
/// descriptor, fails with EMSGSIZE (any descriptors that came are closed). Returns the bytes
/// received (0: the peer closed).
ssize_t pk_recv_with_fd(int sock, void *buf, size_t cap, int *fd_out);

/// A memfd holding `len` bytes of `data`, sealed against growing and shrinking (and new seals).
int pk_memfd_sealed(const void *data, size_t len);

/// 0 when `fd` is a memfd sealed against grow/shrink/new seals and exactly `len` bytes long;
/// -1 (errno EPERM for missing seals, EMSGSIZE for a wrong size) otherwise.
int pk_memfd_check(int fd, size_t len);

/// Frees the memory behind bytes [offset, offset + len) of a memfd (a hole reads as zeros):
/// 0, or -1 with errno.
int pk_memfd_release(int fd, off_t offset, off_t len);

/// Starts `argv[0]` with `child_sock` as its descriptor 3, stdin on /dev/null, stdout/stderr
/// inherited and every other descriptor closed. Returns the pid.
pid_t pk_spawn_worker(char *const argv[], int child_sock);

/// Sets the soft limit of `resource` (RLIMIT_*) of process `pid` (0: this one), keeping the hard limit.
int pk_set_soft_limit(pid_t pid, int resource, uint64_t value);

/// CPU time (user + system) process `pid` used so far, in clock ticks, from /proc; -1 on error.
/// Kills `pid` with SIGKILL and reaps it. Returns the wait status.
int pk_kill_and_reap(pid_t pid);

/// Reaps `pid` without waiting: 1 and `*status` when it has ended, 0 while it runs.
int pk_reap_if_ended(pid_t pid, int *status);

/// Warms what the decoders would otherwise load lazily through paths (libheif's plugins).
void pk_sandbox_warm_up(void);

/// Points stderr at /dev/null, where what the libraries print goes (libjxl: a JXL_FAILURE line
/// for every refusal, raw, into the daemon's log), and returns a copy of the old stderr for the
/// worker's own log lines; -1 (stderr left as it was) when that fails. Before the sandbox: it opens.
int pk_sandbox_quiet_stderr(void);

/// Enters the sandbox: no core files, at most `max_fds` descriptors, PR_SET_NO_NEW_PRIVS and
/// the seccomp allowlist of pk_seccomp.c. Irreversible. 0 on success.
int pk_sandbox_enter(int max_fds);

/// Starts the worker's helper thread (before the sandbox). 0 on success.
int pk_sandbox_helper_start(void);
/// A `pk_helper_spawn` hook (pk_work.h): runs fn(arg) on the helper thread and returns 1, or 0 while it is busy.
int pk_sandbox_helper_spawn(void *context, void (*fn)(void *), void *arg);

// Test-only misbehaviour for the containment tests (the worker calls these for debug job kinds).
/// open(2) of `path` for reading: the descriptor, or -1 with errno.
int pk_sandbox_try_open(const char *path);
/// socket(2): never returns under the sandbox (SIGSYS).
int pk_sandbox_try_socket(void);
/// Writes through a null pointer (SIGSEGV).
void pk_sandbox_crash(void);
/// Spins forever in C.
void pk_sandbox_spin(void);
/// Touches `bytes` of fresh memory page by page; 0 when it got them, -1 when malloc refused.
int pk_sandbox_allocate(size_t bytes);

#endif
