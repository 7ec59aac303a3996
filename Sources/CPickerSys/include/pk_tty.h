#ifndef PK_TTY_H
#define PK_TTY_H

// Terminal calls Swift cannot make through Glibc: ioctl is variadic, signalfd has no module.
// Each returns -1 with errno set on failure.

/// ioctl(fd, TIOCGWINSZ): rows, columns and the pixel size the terminal reports (0 when it does not).
int pk_window_size(int fd, int *rows, int *cols, int *xpixel, int *ypixel);

/// Blocks `count` signals in the calling thread and returns a signalfd(CLOEXEC | NONBLOCK) for them,
/// so a poll loop can see SIGWINCH and SIGTERM without a signal handler.
int pk_signal_fd(const int *signals, int count);

/// Reads one queued signal from a signalfd: its number, 0 when none is queued, -1 on error.
int pk_signal_fd_read(int fd);

/// Unblocks the signals that pk_signal_fd blocked (before exiting or handing the terminal back).
int pk_signal_unblock(const int *signals, int count);

#endif
