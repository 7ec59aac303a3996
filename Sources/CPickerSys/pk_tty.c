#define _GNU_SOURCE
#include "pk_tty.h"

#include <errno.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

int pk_window_size(int fd, int *rows, int *cols, int *xpixel, int *ypixel) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    *xpixel = ws.ws_xpixel;
    *ypixel = ws.ws_ypixel;
    return 0;
}

static int pk_fill_set(sigset_t *set, const int *signals, int count) {
    sigemptyset(set);
    for (int i = 0; i < count; i++) {
        if (sigaddset(set, signals[i]) != 0) return -1;
    }
    return 0;
}

int pk_signal_fd(const int *signals, int count) {
    sigset_t set;
    if (pk_fill_set(&set, signals, count) != 0) return -1;
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

int pk_signal_fd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n;
    do {
        n = read(fd, &info, sizeof(info));
    } while (n < 0 && errno == EINTR);
    if (n < 0) return errno == EAGAIN ? 0 : -1;
    if (n != (ssize_t)sizeof(info)) return 0;
    return (int)info.ssi_signo;
}

int pk_signal_unblock(const int *signals, int count) {
    sigset_t set;
    if (pk_fill_set(&set, signals, count) != 0) return -1;
    return sigprocmask(SIG_UNBLOCK, &set, NULL);
}
