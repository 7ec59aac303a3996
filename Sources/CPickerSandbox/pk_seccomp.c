// The decoder worker's sandbox: PR_SET_NO_NEW_PRIVS and a seccomp-BPF allowlist in raw BPF (no
// libseccomp). This file is the allowlist: one line and one reason per system call. Found with
// `strace -f` over the corpus (JPEG, PNG, WebP, HEIC/AVIF, GIF, JPEG XL, RAW) and the hostile files.
//
// What is not listed ends the process with SIGSYS (SECCOMP_RET_KILL_PROCESS), except a few calls
// libraries make and cope with failing: those fail with an errno instead (marked "fails").
#define _GNU_SOURCE
#include "pk_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <libheif/heif.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define PK_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define PK_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "the decoder sandbox knows x86_64 and aarch64 system calls only"
#endif

// Allowed outright.
static const int allowed[] = {
    SYS_read, SYS_pread64, SYS_readv,        // the photo's descriptor and the job socket
    SYS_write, SYS_writev,                   // stderr (log lines) and the pixel memfd
    SYS_recvmsg, SYS_sendmsg,                // jobs in, results out, on the one socketpair
    SYS_close,                               // the photo's descriptor and the memfd after a job
    SYS_fstat, SYS_newfstatat,               // glibc's fstat (newfstatat with AT_EMPTY_PATH); size of the photo
    SYS_lseek,                               // stdio on stderr
    SYS_memfd_create, SYS_ftruncate,         // the result's pixels (an anonymous file, no path)
    SYS_fcntl,                               // sealing that memfd
    SYS_mmap, SYS_munmap, SYS_mremap,        // malloc, thread stacks
    SYS_mprotect, SYS_brk, SYS_madvise,      // malloc arenas, stack guards, freeing pages
    SYS_futex, SYS_set_robust_list, SYS_rseq,// threads of libheif/libde265/libaom/libjxl and Swift's locks
    SYS_sched_yield, SYS_sched_getaffinity,  // thread pools sizing themselves and spinning
    SYS_getpid, SYS_gettid,                  // glibc (raise, thread ids)
    SYS_rt_sigprocmask, SYS_rt_sigreturn,    // thread start-up masks signals; signal return
    SYS_rt_sigaction, SYS_sigaltstack,       // Swift's runtime and glibc's abort
    SYS_clock_gettime, SYS_clock_getres,     // vDSO fallbacks (timing in libraries)
    SYS_gettimeofday,
    SYS_clock_nanosleep, SYS_nanosleep,      // thread pools' back-off
    SYS_getrandom,                           // Swift's hashing seed, libraries' random ids
    SYS_sysinfo,                             // glibc's qsort and sysconf(_SC_PHYS_PAGES)
    SYS_membarrier,                          // Swift runtime
    SYS_restart_syscall,
    SYS_exit, SYS_exit_group,
};

// Fail with errno instead of ending the process: each is a path a library may try and copes without.
struct refused { int nr; int err; };
static const struct refused refused_calls[] = {
#ifdef SYS_open
    { SYS_open, EACCES },                    // no paths: the one file is the descriptor it was given
#endif
    { SYS_openat, EACCES },                  // (glibc probes /sys/devices/system/cpu/online, libraries /proc)
    { SYS_clone3, ENOSYS },                  // glibc falls back to clone, whose flags the filter can see
    { SYS_ioctl, ENOTTY },                   // isatty on stderr
    { SYS_prctl, EPERM },                    // thread names
};

#define MAX_PROGRAM 160

struct program { struct sock_filter code[MAX_PROGRAM]; unsigned short n; };

static void emit(struct program *p, struct sock_filter insn) {
    if (p->n < MAX_PROGRAM) p->code[p->n] = insn;
    p->n++;
}

#define STMT(code, k) ((struct sock_filter)BPF_STMT((code), (k)))
#define JUMP(code, k, t, f) ((struct sock_filter)BPF_JUMP((code), (k), (t), (f)))
#define LOAD(field) STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, field))
#define LOAD_ARG_LO(i) STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, args[i]))
#define LOAD_ARG_HI(i) STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, args[i]) + 4)
#define RET(value) STMT(BPF_RET | BPF_K, (value))
#define IF_EQ(k, t, f) JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))

/// Builds the filter: arch check, then the calls in order, then the default (kill).
static int build(struct program *p) {
    p->n = 0;
    emit(p, LOAD(arch));
    emit(p, IF_EQ(PK_AUDIT_ARCH, 1, 0));
    emit(p, RET(SECCOMP_RET_KILL_PROCESS));
    emit(p, LOAD(nr));
#if defined(__x86_64__)
    // The x32 ABI's numbers (bit 30) are another table: none of them is allowed.
    emit(p, JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
    emit(p, RET(SECCOMP_RET_KILL_PROCESS));
#endif
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) {
        emit(p, IF_EQ((unsigned)allowed[i], 0, 1));
        emit(p, RET(SECCOMP_RET_ALLOW));
    }
    for (size_t i = 0; i < sizeof refused_calls / sizeof refused_calls[0]; i++) {
        emit(p, IF_EQ((unsigned)refused_calls[i].nr, 0, 1));
        emit(p, RET(SECCOMP_RET_ERRNO | (unsigned)refused_calls[i].err));
    }
    // clone: threads only (CLONE_THREAD set); a new process is killed. The flags are args[0].
    emit(p, IF_EQ(SYS_clone, 0, 4));
    emit(p, LOAD_ARG_LO(0));
    emit(p, JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 1, 0));
    emit(p, RET(SECCOMP_RET_KILL_PROCESS));
    emit(p, RET(SECCOMP_RET_ALLOW));  // (reached only from the JSET above)
    // tgkill: raise()/abort() signal this process only (args[0] is the process id).
    emit(p, IF_EQ(SYS_tgkill, 0, 4));
    emit(p, LOAD_ARG_LO(0));
    emit(p, IF_EQ((unsigned)getpid(), 0, 1));
    emit(p, RET(SECCOMP_RET_ALLOW));
    emit(p, RET(SECCOMP_RET_KILL_PROCESS));
    // prlimit64: reading a limit only (args[2], the new limit, is NULL), so the caps stay.
    emit(p, IF_EQ(SYS_prlimit64, 0, 6));
    emit(p, LOAD_ARG_LO(2));
    emit(p, IF_EQ(0, 0, 3));
    emit(p, LOAD_ARG_HI(2));
    emit(p, IF_EQ(0, 0, 1));
    emit(p, RET(SECCOMP_RET_ALLOW));
    emit(p, RET(SECCOMP_RET_ERRNO | EPERM));
    emit(p, RET(SECCOMP_RET_KILL_PROCESS));  // the default: everything else
    return p->n <= MAX_PROGRAM ? 0 : -1;
}

void pk_sandbox_warm_up(void) {
    // libheif loads its plugins (libde265, libaom, ...) through dlopen on first use: do it now,
    // while paths can still be opened. The reference is never released.
    heif_init(NULL);
}

int pk_sandbox_quiet_stderr(void) {
    int copy = fcntl(2, F_DUPFD_CLOEXEC, 3);
    if (copy < 0) return -1;
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null < 0 || dup2(null, 2) < 0) {
        if (null >= 0) close(null);
        close(copy);
        return -1;
    }
    close(null);
    return copy;
}

int pk_sandbox_enter(int max_fds) {
    // The worker ends with the daemon, even in the middle of a decode.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    if (getppid() == 1) return -1;
    // Crashes end the process with their own signal: the Swift runtime's backtracer would try to
    // exec a helper (SIGSYS under the filter) and hide what happened.
    const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT };
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], SIG_DFL);
    struct rlimit none = { 0, 0 };
    if (setrlimit(RLIMIT_CORE, &none) != 0) return -1;          // no core files of hostile input
    struct rlimit fds = { (rlim_t)max_fds, (rlim_t)max_fds };
    if (setrlimit(RLIMIT_NOFILE, &fds) != 0) return -1;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    struct program p;
    if (build(&p) != 0) { errno = E2BIG; return -1; }
    struct sock_fprog prog = { .len = p.n, .filter = p.code };
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}
