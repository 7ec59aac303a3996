#!/usr/bin/env python3
"""Issue 21's "Done when", measured as an attacker does it: one hostile file put in a library.

For each hostile file (built fresh: Tests/tools/make_hostile_icc.py, make_heif_grid_bombs.py, the
57-byte PNG of 2147483647x2147483647) a fresh pickerd is started on a library holding that file
and one small good photo, with --memory-mb MEM. Then, one after another, the hostile photo gets
get-image, preview and a grid (thumbnails) from session "bomb" while another session ("other",
the good photo) asks `pickerctl status` every 50 ms. Reported per request: the daemon's CPU
(utime+stime from /proc, so machine load does not change it), the slowest status answer of the
other session while it ran, and the outcome; per file: the CPU of the first scan (header read) and
the daemon's VmHWM at the end, against MEM + 100 MiB.

Usage: scripts/soak/hostile_files.py [--bin DIR] [--memory-mb N]   (DIR: .build/release)
Needs heif-enc (libheif-examples) for the HEIF files. Standard library only.
"""
import argparse, os, shutil, struct, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "Tests", "tools")
GOOD = os.path.join(ROOT, "Tests", "Fixtures", "pngsuite", "basn2c08.png")
HUGE_PNG = bytes.fromhex("89504e470d0a1a0a0000000d494844527fffffff7fffffff08020000009bab9c31"
                         "000000004944415435af061e0000000049454e44ae426082")


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def vm_hwm_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    return -1


def build_files(out):
    files = {}
    subprocess.run([sys.executable, os.path.join(TOOLS, "make_hostile_icc.py"), os.path.join(out, "icc-bomb.png")],
                   check=True, stdout=subprocess.DEVNULL)
    files["ICC mpet 15,000 stages (PNG iCCP)"] = os.path.join(out, "icc-bomb.png")
    if shutil.which("heif-enc"):
        subprocess.run([sys.executable, os.path.join(TOOLS, "make_heif_grid_bombs.py"), out], check=True,
                       stdout=subprocess.DEVNULL)
        files["HEIF grid 16384^2 under ispe 512^2"] = os.path.join(out, "grid_output_bomb.heic")
        files["HEIF grid of 40,000 tiles"] = os.path.join(out, "grid_tiles_bomb.heic")
    else:
        print("no heif-enc: the HEIF files are skipped", file=sys.stderr)
    with open(os.path.join(out, "huge.png"), "wb") as f:
        f.write(HUGE_PNG)
    files["PNG IHDR 2147483647^2 (57 bytes)"] = os.path.join(out, "huge.png")
    return files


class Daemon:
    def __init__(self, bin_dir, library, tmp, memory_mb):
        self.ctl_path = os.path.join(bin_dir, "pickerctl")
        self.sock = os.path.join(tmp, "s.sock")
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        self.log = open(os.path.join(tmp, "pickerd.log"), "wb")
        self.proc = subprocess.Popen([os.path.join(bin_dir, "pickerd"), "--library", library, "--socket", self.sock,
                                      "--state-dir", os.path.join(tmp, "state"), "--memory-mb", str(memory_mb),
                                      "--no-shared-thumbnails"], stdout=self.log, stderr=self.log, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.ctl("ping").returncode == 0 and self.ctl("library", "--wait").returncode == 0:
                return
            time.sleep(0.05)
        raise SystemExit("pickerd did not start")

    def ctl(self, *args, session=None):
        full = [self.ctl_path, "--socket", self.sock] + (["--session", session] if session else []) + list(args)
        return subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=20)
        self.log.close()


def while_other_asks(daemon, action):
    """Runs `action` while session "other" asks status every 50 ms: (result, slowest answer s, asks)."""
    slowest, asks, done = [0.0], [0], threading.Event()

    def ask():
        while not done.is_set():
            started = time.monotonic()
            ok = daemon.ctl("status", session="other").returncode == 0
            slowest[0] = max(slowest[0], time.monotonic() - started if ok else float("inf"))
            asks[0] += 1
            time.sleep(0.05)

    t = threading.Thread(target=ask)
    t.start()
    try:
        result = action()
    finally:
        done.set()
        t.join()
    return result, slowest[0], asks[0]


def measure(bin_dir, label, path, memory_mb):
    tmp = tempfile.mkdtemp(prefix="pkhostile", dir="/tmp")
    try:
        lib = os.path.join(tmp, "lib")
        os.makedirs(os.path.join(lib, "hostile"))
        os.makedirs(os.path.join(lib, "good"))
        shutil.copy(path, os.path.join(lib, "hostile", os.path.basename(path)))
        shutil.copy(GOOD, os.path.join(lib, "good", "good.png"))
        daemon = Daemon(bin_dir, lib, tmp, memory_mb)
        scan_cpu = cpu_seconds(daemon.proc.pid)
        for session, album in (("bomb", "hostile"), ("other", "good")):
            daemon.ctl("session", "new", session, "--width", "640", "--height", "480")
            daemon.ctl("select-album", album, session=session)
            daemon.ctl("select-photo", "--index", "1", session=session)
        rows = []
        out = os.path.join(tmp, "out")
        # Each request alone, then 20 get-images in a row (CPU shown per request) so the other
        # session asks many times while the hostile file is worked on.
        for label, request, times in (("get-image", ["get-image", "--no-cache"], 1),
                                      ("preview", ["preview", "--width", "800", "--height", "600"], 1),
                                      ("thumbnails", ["thumbnails"], 1),
                                      ("get-image x20", ["get-image", "--no-cache"], 20)):
            before = cpu_seconds(daemon.proc.pid)
            r, slowest, asks = while_other_asks(
                daemon, lambda: [daemon.ctl(*request, "-o", out, session="bomb") for _ in range(times)][-1])
            cpu = (cpu_seconds(daemon.proc.pid) - before) / times
            outcome = "exit %d%s" % (r.returncode, (": " + r.stderr.decode(errors="replace").strip()[:90]) if r.stderr else "")
            rows.append((label, cpu, slowest, asks, outcome))
        alive = daemon.ctl("ping").returncode == 0
        listing = daemon.ctl("photos", session="bomb").stdout.decode(errors="replace").strip().splitlines()
        hwm = vm_hwm_mib(daemon.proc.pid)
        daemon.stop()
        return scan_cpu, rows, hwm, alive, listing
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    ap.add_argument("--memory-mb", type=int, default=256)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="pkhostilefiles", dir="/tmp")
    failed = False
    try:
        files = build_files(work)
        print("pickerd %s, --memory-mb %d, bound VmHWM <= %d MiB; load %s" % (
            args.bin, args.memory_mb, args.memory_mb + 100, open("/proc/loadavg").read().split()[0]))
        for label, path in files.items():
            scan_cpu, rows, hwm, alive, listing = measure(args.bin, label, path, args.memory_mb)
            print("\n%s (%d bytes): start+scan CPU %.2f s, VmHWM %d MiB, alive %s" % (
                label, os.path.getsize(path), scan_cpu, hwm, alive))
            print("  listed: %s" % (listing[0] if listing else "(nothing)"))
            for request, cpu, slowest, asks, outcome in rows:
                print("  %-13s CPU %.2f s  other's slowest status %.3f s (%d asks)  %s" % (
                    request, cpu, slowest, asks, outcome))
                failed |= cpu > 2 or slowest > 1
            failed |= hwm > args.memory_mb + 100 or not alive
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\nall bounds held" if not failed else "\nA BOUND WAS MISSED")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
