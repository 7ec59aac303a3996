"""bench.py's memory row: peak RSS serving one big JPEG, pickerd against vipsthumbnail. A mixin of `Bench`."""
import os
import subprocess
import sys

from bench_run import HERE, PANE, must
from bench_support import Wire


class MemoryScenarios:
    def memory_scenario(self):
        big = os.path.join(self.lib, "big", "big_baseline.jpg")
        p, sock = self.start_daemon("mem")
        base = vm(p.pid, "VmRSS")
        must(self.ctl(sock, "session", "new", "--width", str(PANE[0]), "--height", str(PANE[1])))
        must(self.ctl(sock, "select-album", "big"))
        must(self.ctl(sock, "select-photo", "big_baseline.jpg"))
        for _ in range(3):
            must(self.ctl(sock, "-o", os.path.join(self.out, "mem.png"), "get-image", "--no-cache"))
        hwm = vm(p.pid, "VmHWM")
        vips_kb = max_rss([self.vips, big, "-s", f"{PANE[0]}x{PANE[1]}",
                           "-o", os.path.join(self.out, "mem-vips.png")])
        conv_kb = max_rss([self.convert, "-define", f"jpeg:size={2 * PANE[0]}x{2 * PANE[1]}", big,
                           "-auto-orient", "-resize", f"{PANE[0]}x{PANE[1]}",
                           os.path.join(self.out, "mem-convert.png")])
        pil_kb = max_rss([sys.executable, "-c",
                          "import sys; sys.path.insert(0, sys.argv[1]); import pillow_worker as w; "
                          "w.fit(sys.argv[2], sys.argv[3], 600, 400)", HERE, big,
                          os.path.join(self.out, "mem-pil.png")])
        self.mem = dict(base=base, hwm=hwm, vips=vips_kb, convert=conv_kb, pillow=pil_kb)
        self.stop_daemons()

        # --cache-mb 16: 200 different requests (12 camera files x 17 pane sizes), cache on.
        # One image's working set: the peak rise of the biggest of them (largest
        # photo at the largest pane, cache bypassed) on the fresh daemon.
        p, sock = self.start_daemon("cache16", cache_mb=16)
        w = Wire(sock)
        base16 = vm(p.pid, "VmRSS")
        sizes = list(range(400, 1250, 50))
        w.session_new("ws", sizes[-1], sizes[-1] * 2 // 3)
        w.select_album("ws", "camera")
        largest = max(range(len(self.camera)),
                      key=lambda i: os.path.getsize(os.path.join(self.lib, "camera", self.camera[i])))
        w.select_and_get("ws", largest + 1, True)
        one = vm(p.pid, "VmHWM") - base16
        count = 0
        for k, width in enumerate(sizes):
            w.session_new(f"c{k}", width, width * 2 // 3)
            w.select_album(f"c{k}", "camera")
            for idx in range(1, len(self.camera) + 1):
                if count == 200:
                    break
                w.select_and_get(f"c{k}", idx, False)
                count += 1
        w.close()
        after = vm(p.pid, "VmRSS")
        self.mem.update(base16=base16, after200=after, one=one, requests=count, hwm200=vm(p.pid, "VmHWM"))
        self.stop_daemons()

    # -- output



def max_rss(argv):
    """Maximum resident set size (KiB) of a command, from /usr/bin/time -v.
    (wait4's ru_maxrss is no good here: posix_spawn children inherit the parent's high-water mark.)"""
    r = subprocess.run(["/usr/bin/time", "-v", *argv], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"bench: failed: {' '.join(argv)}\n{r.stderr[-2000:]}")
    return next(int(l.split(":")[1]) for l in r.stderr.splitlines() if "Maximum resident" in l)


def vm(pid, field):
    """A /proc/PID/status field in KiB (VmRSS, VmHWM)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} for {pid}")
