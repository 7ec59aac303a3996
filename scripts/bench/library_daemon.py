"""Running pickerd and pickerctl for `make bench-library` (bench_library.py): one spawned daemon
on a library with its own socket, state dir and XDG_CACHE_HOME, the commands timed around it, and
the /proc figures read from it. Python stdlib only.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time

# The daemon's info line after a scan ("library ROOT scanned: N photos in ..., 1198 ms, ...");
# a verification after a restart may say "verified" instead.
SCANNED = re.compile(r"(?:scanned|verified|verification)\b.*?\b([\d,]+) ms")


def now():
    return time.perf_counter()


def run(argv, stdout=subprocess.DEVNULL, timeout=600):
    """Runs argv; returns (seconds, exit code)."""
    t0 = now()
    rc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.DEVNULL,
                        timeout=timeout).returncode
    return now() - t0, rc


def proc_status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def reset_peak_rss(pid):
    """Resets VmHWM to the current RSS (clear_refs 5, Linux >= 4.0); False if not allowed."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


class Daemon:
    """One spawned pickerd on the library, with its own socket, state dir and XDG_CACHE_HOME.
    `bench` is bench_library.Bench: its work dir, pickerd and pickerctl, daemon_has(), and the
    list of daemons it stops at the end."""

    def __init__(self, bench, name, library, xdg):
        self.bench = bench
        self.sock = os.path.join(bench.work, f"{name}.sock")
        self.log_path = os.path.join(bench.work, f"{name}.log")
        state = os.path.join(bench.work, f"{name}-state")
        shutil.rmtree(state, ignore_errors=True)
        argv = [bench.pickerd, "--library", library, "--socket", self.sock, "--state-dir", state]
        if bench.daemon_has("--no-shared-thumbnails"):
            argv.append("--no-shared-thumbnails")
        env = dict(os.environ, XDG_CACHE_HOME=xdg, PICKERD_LOG_LEVEL="info")
        env.pop("PICKER_SOCKET", None)
        self.log = open(self.log_path, "a")
        self.started = now()
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, env=env)
        bench.daemons.append(self)

    @property
    def pid(self):
        return self.proc.pid

    def ctl(self, *args, session="bench"):
        return [self.bench.pickerctl, "--socket", self.sock, "--session", session, *args]

    def wait_socket(self, timeout=60):
        """Spawns `pickerctl ping` back to back until one succeeds; returns seconds since spawn."""
        deadline = self.started + timeout
        while now() < deadline:
            _, rc = run(self.ctl("ping"))
            if rc == 0:
                return now() - self.started
            if self.proc.poll() is not None:
                sys.exit(f"bench-library: pickerd exited ({self.proc.returncode}); see {self.log_path}")
        sys.exit(f"bench-library: pickerd did not answer within {timeout} s; see {self.log_path}")

    def scanned_lines(self):
        """The ms of each "scanned" (or "verified") line logged so far."""
        with open(self.log_path) as f:
            return [int(m.group(1).replace(",", "")) for m in map(SCANNED.search, f) if m]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

