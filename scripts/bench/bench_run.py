"""Running commands for the benchmarks (bench.py and its scenario modules): posix_spawn + wait4
timing, the same for every tool, and the figures taken from the runs."""
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))  # scripts/bench: its helpers and C sources
PANE = (600, 400)
CELL = 100


STDERR_LOG = os.devnull
LAST_CPU = 0.0  # user+system seconds of the last spawned command


def proc_cpu(pid):
    """user+system CPU seconds of a running process (clock ticks, 10 ms)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def spawn(argv, stdout=None, env=None):
    """Runs argv to completion; returns (wall seconds, exit status, max RSS KiB).
    stdin is /dev/null, stdout `stdout` (default /dev/null), stderr appends to STDERR_LOG."""
    actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, stdout or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
               (os.POSIX_SPAWN_OPEN, 2, STDERR_LOG, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)]
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env or os.environ, file_actions=actions)
    _, status, ru = os.wait4(pid, 0)
    t = time.perf_counter() - t0
    global LAST_CPU
    LAST_CPU = ru.ru_utime + ru.ru_stime
    return t, os.waitstatus_to_exitcode(status), ru.ru_maxrss


def must(argv, **kw):
    t, rc, _ = spawn(argv, **kw)
    if rc != 0:
        r = subprocess.run(argv, capture_output=True, text=True)
        sys.exit(f"bench: command failed ({rc}): {' '.join(argv)}\n{r.stderr.strip()}")
    return t


def median_spread(xs):
    """Median and half the interquartile range."""
    xs = sorted(xs)
    if not xs:
        return float("nan"), float("nan")
    if len(xs) < 4:
        return statistics.median(xs), (xs[-1] - xs[0]) / 2
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return statistics.median(xs), (q[2] - q[0]) / 2
