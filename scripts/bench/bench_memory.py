"""bench.py's memory row: peak RSS serving one big JPEG, pickerd against vipsthumbnail. A mixin of `Bench`.

pickerd decodes in sandboxed worker processes (its children), so the row counts the daemon's `VmHWM`
plus what exists only because the workers exist: each worker's private memory (`Private_Clean` +
`Private_Dirty` of /proc/PID/smaps_rollup: its heap, stacks, the decode's buffers, the result memfd),
the largest of samples taken every few milliseconds while the decodes run. A worker's shared pages
are the libraries' text and data, the same page-cache pages the daemon maps (already in its RSS).
"""
import os
import subprocess
import sys
import threading
import time

from bench_run import HERE, PANE, must
from bench_support import Wire
import synth_dng


class MemoryScenarios:
    def memory_scenario(self):
        big = os.path.join(self.lib, "big", "big_baseline.jpg")
        # The row: nothing but that JPEG decoded (no prefetch of the album's neighbours).
        self.mem = self.serve_one("mem", ["--no-prefetch"] if self.daemon_has("--no-prefetch") else [])
        # The same with prefetch on (the default): the neighbours in album "big" (a 24 MP PNG,
        # progressive JPEG and WebP) are decoded in the background too.
        self.mem_prefetch = self.serve_one("memprefetch", [])
        self.mem.update(
            vips=max_rss([self.vips, big, "-s", f"{PANE[0]}x{PANE[1]}", "-o", os.path.join(self.out, "mem-vips.png")]),
            convert=max_rss([self.convert, "-define", f"jpeg:size={2 * PANE[0]}x{2 * PANE[1]}", big,
                             "-auto-orient", "-resize", f"{PANE[0]}x{PANE[1]}",
                             os.path.join(self.out, "mem-convert.png")]),
            pillow=max_rss([sys.executable, "-c",
                            "import sys; sys.path.insert(0, sys.argv[1]); import pillow_worker as w; "
                            "w.fit(sys.argv[2], sys.argv[3], 600, 400)", HERE, big,
                            os.path.join(self.out, "mem-pil.png")]))

        self.raw_memory_row(big)

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

    def raw_memory_row(self, big):
        """Issue 27's 50 MB RAW: a DNG made from the 24 MP JPEG (its full-size preview) with 6000x4000
        16-bit sensor data (synth_dng.py), in an album of its own for this row only."""
        folder = os.path.join(self.lib, "rawbig")
        os.makedirs(folder, exist_ok=True)
        dng = synth_dng.make(big, os.path.join(folder, "big.dng"))
        try:
            self.mem_raw = self.serve_one("memraw", ["--no-prefetch"], album="rawbig", photo="big.dng")
            self.mem_raw.update(file_mb=os.path.getsize(dng) / 1e6,
                                vips=max_rss([self.vips, dng, "-s", f"{PANE[0]}x{PANE[1]}",
                                              "-o", os.path.join(self.out, "mem-raw-vips.png")]))
        finally:
            os.unlink(dng)
            os.rmdir(folder)

    def serve_one(self, name, extra, album="big", photo="big_baseline.jpg"):
        """A fresh daemon serving three cold get-image of one photo (the 24 MP baseline JPEG), its
        workers sampled from its start: the daemon's VmHWM and base, the workers' peak private memory."""
        p, sock = self.start_daemon(name, extra=extra)
        base = vm(p.pid, "VmRSS")
        sampler = WorkerSampler(p.pid)
        sampler.start()
        must(self.ctl(sock, "session", "new", "--width", str(PANE[0]), "--height", str(PANE[1])))
        must(self.ctl(sock, "select-album", album))
        must(self.ctl(sock, "select-photo", photo))
        for _ in range(3):
            must(self.ctl(sock, "-o", os.path.join(self.out, "mem.png"), "get-image", "--no-cache"))
        time.sleep(0.5)  # background work started by the requests (prefetch) is sampled too
        sampler.finish()
        hwm = vm(p.pid, "VmHWM")
        self.stop_daemons()
        return dict(base=base, hwm=hwm, workers=len(sampler.peak), replaced=len(sampler.peak) - len(sampler.alive),
                    worker_private=sampler.peak_total, worker_pss=sampler.peak_pss_total,
                    worker_hwm=sum(w["hwm"] for w in sampler.peak.values() if w["hwm"]),
                    total=hwm + sampler.peak_total)


class WorkerSampler(threading.Thread):
    """Samples pickerd's decoder workers (its child processes) every `interval` seconds until
    `finish`. `peak_total`: the largest sum of the live workers' private memory in one sample, KiB
    (`peak_pss_total` the same of their Pss); `peak`: per worker its largest private memory and Pss
    and its VmHWM at the end (0 for a worker killed and replaced meanwhile, `alive` the others)."""

    def __init__(self, daemon_pid, interval=0.002):
        super().__init__(daemon=True)
        self.daemon_pid = daemon_pid
        self.interval = interval
        self.peak = {}
        self.alive = []
        self.peak_total = 0
        self.peak_pss_total = 0
        self.samples = 0
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            self.sample()
            time.sleep(self.interval)

    def sample(self):
        total = pss = 0
        for pid in children(self.daemon_pid):
            r = rollup(pid)
            if r is None or not is_worker(pid):
                continue  # gone, or not yet exec'd (a posix_spawn child still shares the daemon's memory)
            private = r["Private_Clean"] + r["Private_Dirty"]
            seen = self.peak.setdefault(pid, dict(private=0, Pss=0, hwm=0))
            seen["private"] = max(seen["private"], private)
            seen["Pss"] = max(seen["Pss"], r["Pss"])
            total += private
            pss += r["Pss"]
        self.peak_total = max(self.peak_total, total)
        self.peak_pss_total = max(self.peak_pss_total, pss)
        self.samples += 1

    def finish(self):
        self.done.set()
        self.join()
        self.sample()
        self.alive = children(self.daemon_pid)
        for pid, seen in self.peak.items():
            try:
                seen["hwm"] = vm(pid, "VmHWM") if pid in self.alive else 0
            except (OSError, RuntimeError):
                pass


def is_worker(pid):
    """Whether PID runs `pickerd --decoder-worker` (after its exec)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"--decoder-worker" in f.read()
    except OSError:
        return False


def children(pid):
    """The child processes of PID (every thread's)."""
    found = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(c) for c in f.read().split()]
        except OSError:
            continue
    return found


def rollup(pid):
    """/proc/PID/smaps_rollup's fields in KiB, or None when the process is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            lines = f.read().splitlines()[1:]
    except OSError:
        return None
    fields = {}
    for line in lines:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[name] = int(parts[0])
    return fields if "Pss" in fields else None


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
