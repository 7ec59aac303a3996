#!/usr/bin/python3
"""pickerd side by side with vipsthumbnail, ImageMagick convert and Pillow.

    bench.py --bin DIR [--testdata DIR] [--work DIR] [--rounds N] [--quick]

DIR holds release `pickerd` and `pickerctl`. Builds the bench library in a temp
dir (make_library.py), compiles cping.c, starts pickerd, runs every scenario
and prints ONE table (also written to WORK/bench-table.md). Timings are whole
commands started with posix_spawn and reaped with wait4 (the same for every
tool), except Pillow, which is timed inside one long-lived process
(pillow_worker.py). Tools run interleaved, file by file, so they share the
machine's state. Only Python stdlib + Pillow. See docs/PERFORMANCE.md.
"""
import argparse
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from PIL import Image, ImageChops, ImageOps

# The wire codec is the Python client package's (clients/python), not a copy.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from pickerd_client import RawConnection  # noqa: E402
from pickerd_client.wire import MessageType as T  # noqa: E402

import bench_run  # noqa: E402
from bench_run import CELL, PANE, median_spread, must, proc_cpu, spawn  # noqa: E402
from bench_formats import HEIC_BENCH_FILE, JXL_BENCH_FILE, RAW_BENCH_FILES, RAW_GRID_COPIES, FormatScenarios  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# Colour rows: corpus files with an embedded ICC profile, each beside a copy without it.
COLOUR_BENCH_FILES = ("colour/adobergb.jpg", "colour/prophoto.png")


def without_profile(data):
    """The file's bytes with its ICC profile removed (JPEG APP2 ICC_PROFILE segments, PNG iCCP)."""
    if data[:2] == b"\xff\xd8":
        out, i = bytearray(data[:2]), 2
        while i + 4 <= len(data) and data[i] == 0xFF and data[i + 1] not in (0xDA, 0xD9):
            n = int.from_bytes(data[i + 2:i + 4], "big")
            seg = data[i:i + 2 + n]
            if not (data[i + 1] == 0xE2 and seg[4:16] == b"ICC_PROFILE\0"):
                out += seg
            i += 2 + n
        return bytes(out + data[i:])
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        out, i = bytearray(data[:8]), 8
        while i + 8 <= len(data):
            n = int.from_bytes(data[i:i + 4], "big")
            if data[i + 4:i + 8] != b"iCCP":
                out += data[i:i + 12 + n]
            i += 12 + n
        return bytes(out)
    return data


# ------------------------------------------------------------ protocol client

class Wire:
    """The in-daemon scenarios' connection: pickerd_client's RawConnection (the one wire codec)."""

    def __init__(self, path):
        self.c = RawConnection(path, "bench")

    def session_new(self, name, w, h):
        self.c.call(T.SESSION_NEW, name=name, width=w, height=h)

    def select_album(self, session, album):
        self.c.call(T.SELECT_ALBUM, session=session, album=album)

    def select_and_get(self, session, photo_index, no_cache):
        """selectPhoto + getImage (PNG), pipelined; returns the PNG bytes."""
        self.c.sock.sendall(self.c.frame(T.SELECT_PHOTO, session=session, photo=photo_index)
                            + self.c.frame(T.GET_IMAGE, session=session, format=2, flags=1 if no_cache else 0))
        replies = []
        while len(replies) < 2:
            f = self.c.recv()
            if f.is_event:
                continue
            if f.type == T.ERROR:
                e = f.fields()
                raise RuntimeError(f"pickerd error {e['code']}: {e['message']}")
            replies.append(f)
        if [f.type for f in replies] != [T.SESSION_STATE, T.IMAGE]:
            raise RuntimeError(f"unexpected reply types {[hex(f.type) for f in replies]}")
        return replies[1].fields()["data"]

    def close(self):
        self.c.close()


# ------------------------------------------------------------------- quality

_refs = {}


def reference(src, size):
    """Full decode, upright, float Lanczos-3 per channel ('F' mode) to size, rounded to 8 bit."""
    key = (src, size)
    if key not in _refs:
        im = ImageOps.exif_transpose(Image.open(src))
        im = im.convert("RGB")
        chans = [c.convert("F").resize(size, Image.LANCZOS) for c in im.split()]
        _refs[key] = [_round(c) for c in chans]
    return _refs[key]


def _round(f):
    # 'F' -> 'L' truncates after clamping; add 0.5 first to round to nearest.
    return f.point(lambda v: v + 0.5).convert("L")


def psnr(out_path, src):
    """PSNR (dB, RGB) of an output file against the float reference at its own size."""
    out = Image.open(out_path)
    out.load()
    if out.mode != "RGB":
        out = out.convert("RGBA").convert("RGB") if out.mode != "RGBA" else out.convert("RGB")
    ref = reference(src, out.size)
    se, n = 0, 0
    for a, b in zip(out.split(), ref):
        h = ImageChops.difference(a, b).histogram()
        se += sum(c * v * v for v, c in enumerate(h))
        n += a.size[0] * a.size[1]
    mse = se / n
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


# ----------------------------------------------------------------- the bench

class Bench(FormatScenarios):

    def __init__(self, args):
        self.args = args
        self.bin = os.path.abspath(args.bin)
        self.pickerd = os.path.join(self.bin, "pickerd")
        self.pickerctl = os.path.join(self.bin, "pickerctl")
        self.work = args.work or tempfile.mkdtemp(prefix="pickerd-bench.")
        self.lib = os.path.join(self.work, "library")
        self.out = os.path.join(self.work, "out")
        os.makedirs(self.out, exist_ok=True)
        bench_run.STDERR_LOG = os.path.join(self.work, "tools-stderr.log")
        self.daemons = []
        self.rows = []
        self.cpu_rows = []
        self.notes = []
        self.vips = shutil.which("vipsthumbnail")
        # /usr/bin/convert is ImageMagick itself; a wrapper earlier on PATH would add its own start-up.
        self.convert = "/usr/bin/convert" if os.path.exists("/usr/bin/convert") else shutil.which("convert")
        self.pillow = subprocess.Popen([sys.executable, os.path.join(HERE, "pillow_worker.py")],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    # -- set-up

    def prepare(self):
        for tool, path in (("vipsthumbnail", self.vips), ("convert", self.convert),
                           ("pickerd", self.pickerd), ("pickerctl", self.pickerctl)):
            if not path or not os.access(path, os.X_OK):
                sys.exit(f"bench: {tool} not found (run `make bench`, which installs and builds)")
        self.cping = os.path.join(self.work, "cping")
        subprocess.run(["cc", "-O2", "-o", self.cping, os.path.join(HERE, "cping.c")], check=True)
        subprocess.run([sys.executable, os.path.join(HERE, "make_library.py"),
                        os.path.join(self.args.testdata, "camera-photos"), self.lib], check=True)
        self.camera = sorted(os.listdir(os.path.join(self.lib, "camera")))
        # HEIC row: the corpus's 12 MP iPhone photo (a grid of HEVC tiles with an irot), its own album.
        heic = os.path.join(self.args.testdata, HEIC_BENCH_FILE)
        if os.path.exists(heic):
            os.makedirs(os.path.join(self.lib, "heic"), exist_ok=True)
            shutil.copyfile(heic, os.path.join(self.lib, "heic", os.path.basename(heic)))
        self.make_gif_album()
        jxl = os.path.join(self.args.testdata, JXL_BENCH_FILE)
        if os.path.exists(jxl):
            os.makedirs(os.path.join(self.lib, "jxl"), exist_ok=True)
            shutil.copyfile(jxl, os.path.join(self.lib, "jxl", os.path.basename(jxl)))
        # RAW rows: the corpus's RAWs, and a grid album of copies of them (cells by their previews).
        for rel in RAW_BENCH_FILES:
            src = os.path.join(self.args.testdata, rel)
            if not os.path.exists(src):
                continue
            for album in ("raw", "rawgrid"):
                os.makedirs(os.path.join(self.lib, album), exist_ok=True)
            shutil.copyfile(src, os.path.join(self.lib, "raw", os.path.basename(src)))
            stem, ext = os.path.splitext(os.path.basename(src))
            for i in range(RAW_GRID_COPIES):
                shutil.copyfile(src, os.path.join(self.lib, "rawgrid", f"{stem}-{i:02d}{ext}"))
        self.grid = sorted(os.listdir(os.path.join(self.lib, "grid")))
        # Colour rows: each profiled file and the same bytes without the profile.
        for rel in COLOUR_BENCH_FILES:
            src = os.path.join(self.args.testdata, rel)
            if not os.path.exists(src):
                continue
            os.makedirs(os.path.join(self.lib, "colour"), exist_ok=True)
            stem, ext = os.path.splitext(os.path.basename(src))
            with open(src, "rb") as f:
                data = f.read()
            with open(os.path.join(self.lib, "colour", stem + ext), "wb") as f:
                f.write(data)
            with open(os.path.join(self.lib, "colour", stem + "-noprofile" + ext), "wb") as f:
                f.write(without_profile(data))

    def start_daemon(self, name, cache_mb=None, extra=(), shared_thumbnails=False, fresh_cache=False):
        sock = os.path.join(self.work, f"{name}.sock")
        state = os.path.join(self.work, f"{name}-state")
        shutil.rmtree(state, ignore_errors=True)  # fresh sessions every run
        argv = [self.pickerd, "--library", self.lib, "--socket", sock, "--state-dir", state]
        if cache_mb is not None:
            argv += ["--cache-mb", str(cache_mb)]
        if not shared_thumbnails and self.daemon_has("--no-shared-thumbnails"):
            argv.append("--no-shared-thumbnails")  # cold cells from the photos, never ~/.cache
        argv += list(extra)
        cache_home = os.path.join(self.work, f"xdg-cache-{name}" if fresh_cache else "xdg-cache")
        if fresh_cache:
            shutil.rmtree(cache_home, ignore_errors=True)  # no shared thumbnails from an earlier run
        env = dict(os.environ, XDG_CACHE_HOME=cache_home)
        log = open(os.path.join(self.work, f"{name}.log"), "w")
        p = subprocess.Popen(argv, stdout=log, stderr=log, stdin=subprocess.DEVNULL, env=env)
        self.daemons.append(p)
        for _ in range(500):
            if os.path.exists(sock) and spawn([self.cping, sock])[1] == 0:
                break
            if p.poll() is not None:
                sys.exit(f"bench: pickerd exited ({p.returncode}); see {log.name}")
            time.sleep(0.01)
        # wait for the first library scan to finish
        for _ in range(500):
            r = subprocess.run([self.pickerctl, "--socket", sock, "--json", "library"],
                               capture_output=True, text=True)
            if r.returncode == 0 and json.loads(r.stdout).get("scan_state") == "ready":
                break
            time.sleep(0.02)
        return p, sock

    def daemon_has(self, option):
        if not hasattr(self, "_daemon_help"):
            r = subprocess.run([self.pickerd, "--help"], capture_output=True, text=True)
            self._daemon_help = r.stdout + r.stderr
        return option in self._daemon_help

    def ctl_has(self, command):
        r = subprocess.run([self.pickerctl, command, "--help"], capture_output=True, text=True)
        return r.returncode == 0

    def stop_daemons(self):
        for p in self.daemons:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
        self.daemons = []

    def ctl(self, sock, *args, session="bench"):
        return [self.pickerctl, "--socket", sock, "--session", session, *args]

    def pil(self, req):
        self.pillow.stdin.write(json.dumps(req) + "\n")
        self.pillow.stdin.flush()
        return json.loads(self.pillow.stdout.readline())

    # -- tools, one fit to 600x400 each; return seconds

    def t_pickerd(self, sock, album, name, out):
        return must(self.ctl(sock, "-o", out, "get-image", "--no-cache"))

    def t_vips(self, src, out):
        return must([self.vips, src, "-s", f"{PANE[0]}x{PANE[1]}", "-o", out])

    def t_convert(self, src, out):
        hint = ["-define", f"jpeg:size={2 * PANE[0]}x{2 * PANE[1]}"] if src.endswith(".jpg") else []
        return must([self.convert, *hint, src, "-auto-orient", "-resize", f"{PANE[0]}x{PANE[1]}", out])

    def t_pillow(self, src, out):
        return self.pil({"op": "fit", "src": src, "dst": out, "w": PANE[0], "h": PANE[1]})["t"]

    # -- scenarios

    def fit_scenario(self, key, label, sock, album, names, rounds, cpu_row=False):
        times = {k: [] for k in ("pickerd", "vips", "convert", "pillow")}
        cpu = {k: 0.0 for k in times}
        quality = {k: [] for k in times}
        must(self.ctl(sock, "select-album", album))
        for r in range(rounds):
            for name in names:
                src = os.path.join(self.lib, album, name)
                outs = {k: os.path.join(self.out, f"{key}-{k}-{os.path.splitext(name)[0]}.png") for k in times}
                must(self.ctl(sock, "select-photo", name))
                d0 = proc_cpu(self.main_pid)
                times["pickerd"].append(self.t_pickerd(sock, album, name, outs["pickerd"]))
                cpu["pickerd"] += bench_run.LAST_CPU + proc_cpu(self.main_pid) - d0  # pickerctl + daemon
                times["vips"].append(self.t_vips(src, outs["vips"]))
                cpu["vips"] += bench_run.LAST_CPU
                times["convert"].append(self.t_convert(src, outs["convert"]))
                cpu["convert"] += bench_run.LAST_CPU
                times["pillow"].append(self.t_pillow(src, outs["pillow"]))
                if r == 0 and "_copy" not in name:
                    for k in times:
                        quality[k].append(psnr(outs[k], src))
        q = {k: min(v) if v else None for k, v in quality.items()}  # worst file counts
        _refs.clear()
        self.rows.append(dict(label=label, times=times, psnr=q, n=len(times["pickerd"])))
        if cpu_row:
            n = len(times["pickerd"])
            self.cpu_rows.append((label, n, {k: v / n for k, v in cpu.items() if k != "pillow"}))

    def colour_scenario(self, sock, runs):
        """Colour-managed files against the tools (Debian's vipsthumbnail with default options does
        not convert: it shows these files as unmanaged), and the cost of the conversion: the same
        file with and without its profile, alternately."""
        album = os.path.join(self.lib, "colour")
        names = sorted(n for n in os.listdir(album) if "-noprofile" not in n) if os.path.isdir(album) else []
        if not names:
            self.notes.append("colour rows skipped: the corpus has no colour/ files.")
            return
        for name in names:
            stem, ext = os.path.splitext(name)
            what = {".jpg": "Adobe RGB JPEG 1600x1063 (APP2)", ".png": "ProPhoto PNG 1200x800 (iCCP)"}.get(ext, name)
            self.fit_scenario(f"colour_{stem}", f"cold get-image --no-cache, {what}, colour-managed -> 600x400",
                              sock, "colour", [name], runs)
            # Daemon CPU per request (user+sys of pickerd), not wall time: the difference is a few
            # ms, below the wall-time noise of a shared machine.
            must(self.ctl(sock, "select-album", "colour"))
            times = {"pickerd": [], "ref": []}
            for i in range(6 * runs):
                for key, photo in (("pickerd", name), ("ref", f"{stem}-noprofile{ext}")):
                    must(self.ctl(sock, "select-photo", photo))
                    c0 = proc_cpu(self.main_pid)
                    self.t_pickerd(sock, "colour", photo, os.path.join(self.out, f"cm-{stem}-{key}-{i}.png"))
                    times[key].append(proc_cpu(self.main_pid) - c0)
            # /proc counts CPU in 10 ms ticks: the mean over many requests, not the median, resolves ms.
            means = {k: [statistics.mean(v)] for k, v in times.items()}
            self.rows.append(dict(label=f"colour transform cost, daemon CPU per request (mean): {what} -> 600x400, "
                                        "with vs without its profile",
                                  times=means, ref_name="profile stripped", n=6 * runs))
            d = means["pickerd"][0] - means["ref"][0]
            self.notes.append(f"colour transform, {what}: {d * 1000:+.1f} ms of daemon CPU (mean) with the "
                              "profile (the conversion runs on the 600x400 result). PSNR of the colour-managed rows "
                              "is against Pillow's unmanaged decode, so it is low by design for pickerd, which converts "
                              "(vips and convert here do not); ColourManagementTests judge the colours.")

    def warm_scenario(self, sock, rounds):
        must(self.ctl(sock, "select-album", "camera"))
        must(self.ctl(sock, "select-photo", self.camera[0]))
        out = os.path.join(self.out, "warm.png")
        must(self.ctl(sock, "-o", out, "get-image"))  # fill the cache
        warm, ping = [], []
        for _ in range(rounds):
            warm.append(must(self.ctl(sock, "-o", out, "get-image")))
            ping.append(must(self.ctl(sock, "ping")))
        self.rows.append(dict(label="warm get-image (cached) vs pickerctl ping",
                              times={"pickerd": warm, "ref": ping}, ref_name="ping", n=rounds))

    def browsing_scenario(self, sock, rounds):
        """`next`, a 150 ms dwell, then `get-image` (whole pickerctl): with prefetch the photo is
        already rendered. Reference: vipsthumbnail of the same file, cold."""
        session = "browse"
        must([self.pickerctl, "--socket", sock, "session", "new", session,
              "--width", str(PANE[0]), "--height", str(PANE[1])])
        # Distinct files, each visited once: the camera album (12 files) was cycled before, so
        # from round 12 on the "prefetched" photo was a render-cache hit from the previous lap.
        photos = self.grid[:rounds + 1]
        must(self.ctl(sock, "select-album", "grid", session=session))
        must(self.ctl(sock, "select-photo", photos[0], session=session))
        out = os.path.join(self.out, "browse.png")
        must(self.ctl(sock, "-o", out, "get-image", session=session))
        time.sleep(0.15)  # a dwell on photo 1 too, so photo 2 is rendered ahead
        got, vips = [], []
        at = 0
        for _ in range(rounds):
            must(self.ctl(sock, "next", session=session))
            at += 1
            time.sleep(0.15)
            got.append(must(self.ctl(sock, "-o", out, "get-image", session=session)))
            vips.append(self.t_vips(os.path.join(self.lib, "grid", photos[at]),
                                    os.path.join(self.out, "browse-vips.png")))
        self.rows.append(dict(label=f"browsing: next, 150 ms dwell, get-image ({rounds + 1} distinct camera JPEGs, "
                                    "each once -> 600x400; prefetched = warm)",
                              times={"pickerd": got, "ref": vips}, ref_name="vipsthumbnail cold", n=rounds))

    def build_static_pickerctl(self):
        """pickerctl linked with -static-executable (no dynamic loader, no shared Swift
        runtime): the start-up fix proposed in docs/PERFORMANCE.md. None if it fails."""
        scratch = os.path.join(self.work, "static-build")
        r = subprocess.run(["swift", "build", "-c", "release", "--product", "pickerctl",
                            "--package-path", self.args.package, "--scratch-path", scratch,
                            "-Xswiftc", "-static-executable"], capture_output=True, text=True)
        path = os.path.join(scratch, "release", "pickerctl")
        if r.returncode != 0 or not os.access(path, os.X_OK):
            self.notes.append("static pickerctl: build failed, row left out")
            return None
        return path

    def ping_scenario(self, sock, rounds):
        static = self.build_static_pickerctl() if self.args.package else None
        ours, c, st = [], [], []
        for _ in range(rounds):
            ours.append(must(self.ctl(sock, "ping")))
            c.append(must([self.cping, sock]))
            if static:
                st.append(must([static, "--socket", sock, "ping"]))
        self.rows.append(dict(label="pickerctl ping vs C client (connect+hello+ping)",
                              times={"pickerd": ours, "ref": c}, ref_name="cping", n=rounds))
        if static:
            self.rows.append(dict(label="pickerctl ping, built -static-executable (proposed) vs C client",
                                  times={"pickerd": st, "ref": c}, ref_name="cping", n=rounds))

    def thumbs_scenario(self, sock, reps):
        files = [os.path.join(self.lib, "grid", n) for n in self.grid]
        n = len(files)
        halves = [files[0::2], files[1::2]]
        tdir = os.path.join(self.out, "thumbs")
        os.makedirs(tdir, exist_ok=True)
        times = {k: [] for k in ("pickerd", "vips", "convert", "pillow")}
        # pickerd without the shared freedesktop store, run right after the default one.
        times_noshared = {"pickerd": [], "vips": []}

        grid_cmd = self.ctl_has("thumbnails")
        wires = []
        if not grid_cmd:
            # No grid command: two connections, each its own session with a 100x100 pane,
            # selectPhoto + getImage(no cache) per file, pipelined; wall / files.
            for i in range(2):
                w = Wire(sock)
                w.session_new(f"thumbs{i}", CELL, CELL)
                w.select_album(f"thumbs{i}", "grid")
                wires.append(w)

        def run_wire(i, w):
            for idx in range(i + 1, n + 1, 2):
                w.select_and_get(f"thumbs{i}", idx, True)

        for rep in range(reps):
            if grid_cmd:
                # `pickerctl thumbnails`: one whole command for the whole grid (10 x 10 cells
                # of 100 px, spacing 10) of 100 distinct files, on a fresh daemon with a fresh
                # XDG_CACHE_HOME each time, so every cell is cold in pickerd (page cache warm:
                # dropping it is not permitted here). Shared thumbnails on, as a user has them.
                for shared, into in ((True, times), (False, times_noshared)):
                    self.stop_daemons()
                    _, gsock = self.start_daemon(f"grid{rep}{'s' if shared else 'n'}", shared_thumbnails=shared,
                                                 fresh_cache=True)
                    side = 10 * CELL + 9 * 10
                    must(self.ctl(gsock, "session", "new", "--width", str(side), "--height", str(side)))
                    must(self.ctl(gsock, "select-album", "grid"))
                    t = must(self.ctl(gsock, "-o", os.path.join(tdir, "grid.png"), "thumbnails",
                                      "--size", str(CELL)))
                    into["pickerd"].append(t / n)
                    self.stop_daemons()
            else:
                t0 = time.perf_counter()
                ths = [threading.Thread(target=run_wire, args=(i, w)) for i, w in enumerate(wires)]
                for t in ths:
                    t.start()
                for t in ths:
                    t.join()
                times["pickerd"].append((time.perf_counter() - t0) / n)

            # vipsthumbnail: two processes, half the files each, centre crop to fill
            t0 = time.perf_counter()
            procs = [subprocess.Popen([self.vips, "-s", f"{CELL}x{CELL}", "--smartcrop", "centre",
                                       "-o", os.path.join(tdir, "v-%s.png"), *h]) for h in halves]
            for p in procs:
                if p.wait() != 0:
                    sys.exit("bench: vipsthumbnail failed on the grid")
            times["vips"].append((time.perf_counter() - t0) / n)
            times_noshared["vips"].append(times["vips"][-1])

            # convert: two workers, one command per file
            def conv(h, tag):
                for j, f in enumerate(h):
                    must([self.convert, "-define", f"jpeg:size={2 * CELL}x{2 * CELL}", f, "-auto-orient",
                          "-thumbnail", f"{CELL}x{CELL}^", "-gravity", "center", "-extent",
                          f"{CELL}x{CELL}", os.path.join(tdir, f"c-{tag}-{j}.png")])
            t0 = time.perf_counter()
            ths = [threading.Thread(target=conv, args=(h, i)) for i, h in enumerate(halves)]
            for t in ths:
                t.start()
            for t in ths:
                t.join()
            times["convert"].append((time.perf_counter() - t0) / n)

            # Pillow: two long-lived processes, half each; in-process time, slower half counts
            res = [None, None]
            second = subprocess.Popen([sys.executable, os.path.join(HERE, "pillow_worker.py")],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

            def pil2(i):
                req = {"op": "thumbs", "srcs": halves[i], "dir": tdir, "size": CELL}
                if i == 0:
                    res[0] = self.pil(req)["t"]
                else:
                    second.stdin.write(json.dumps(req) + "\n")
                    second.stdin.flush()
                    res[1] = json.loads(second.stdout.readline())["t"]
            ths = [threading.Thread(target=pil2, args=(i,)) for i in range(2)]
            for t in ths:
                t.start()
            for t in ths:
                t.join()
            second.stdin.write('{"op": "quit"}\n')
            second.stdin.close()
            second.wait()
            times["pillow"].append(max(res) / n)
        for w in wires:
            w.close()
        self.rows.append(dict(label=f"thumbnail cell {CELL}x{CELL}, per cell, 2 cores ({n} distinct files, "
                                    "cold daemon, shared thumbnails on)", times=times, psnr={}, n=reps))
        if grid_cmd:
            self.rows.append(dict(label=f"thumbnail cell {CELL}x{CELL}, per cell, 2 cores ({n} distinct files, "
                                        "cold daemon, --no-shared-thumbnails)",
                                  times={"pickerd": times_noshared["pickerd"], "ref": times_noshared["vips"]},
                                  ref_name="vipsthumbnail", n=reps))
        how = ("`pickerctl thumbnails --size 100` over the 100-file album (one command, a 10x10 grid PNG, "
               "100 distinct files, 8 in 10 with an EXIF thumbnail; a fresh daemon and a fresh XDG_CACHE_HOME "
               "each run so all cells are cold in pickerd; shared freedesktop thumbnails on (the default: "
               "cells without an EXIF thumbnail are decoded and written to the store), then a "
               "--no-shared-thumbnails row; page cache warm for every tool)"
               if grid_cmd else
               "no grid command: a 100x100-pane get-image --no-cache (fit, not fill-and-crop) over two "
               "connections (two sessions), selectPhoto+getImage pipelined, no process start per cell")
        self.notes.append(
            f"thumbnail cells: pickerd = {how}; vipsthumbnail --smartcrop centre, 2 processes x 50 files; "
            "convert -thumbnail WxH^ -extent, 2 workers, one process per file; Pillow draft+ImageOps.fit "
            "in 2 processes (in-process time). Per cell = wall time / 100.")

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

    def table(self):
        L = []
        fmt = lambda ms: f"{ms:.1f}" if ms < 100 else f"{ms:.0f}"

        def cell(xs):
            m, s = median_spread([x * 1000 for x in xs])
            return f"{fmt(m)} ±{fmt(s)}"

        def ratio(a, b):
            return f"{statistics.median(a) / statistics.median(b):.2f}x"

        L.append("| scenario | n | pickerd ms | vipsthumbnail ms | convert ms | Pillow ms (in-process) "
                 "| pickerd/vips | pickerd/convert | pickerd/Pillow | PSNR dB pickerd / vips / convert / Pillow |")
        L.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for r in self.rows:
            t = r["times"]
            if "ref" in t:
                L.append(f"| {r['label']} | {r['n']} | {cell(t['pickerd'])} | {r['ref_name']}: {cell(t['ref'])} "
                         f"| | | **{ratio(t['pickerd'], t['ref'])}** of {r['ref_name']} | | |")
                continue
            q = r.get("psnr") or {}
            qs = " / ".join(f"{q[k]:.1f}" if q.get(k) is not None else "–"
                            for k in ("pickerd", "vips", "convert", "pillow")) if q else "–"
            L.append(f"| {r['label']} | {r['n']} | {cell(t['pickerd'])} | {cell(t['vips'])} | {cell(t['convert'])} "
                     f"| {cell(t['pillow'])} | **{ratio(t['pickerd'], t['vips'])}** | {ratio(t['pickerd'], t['convert'])} "
                     f"| {ratio(t['pickerd'], t['pillow'])} | {qs} |")
        for label, n, c in self.cpu_rows:
            L.append(f"| CPU per image (user+sys; pickerd = pickerctl + daemon), {label.split(', ', 1)[1]} | {n} "
                     f"| {c['pickerd'] * 1000:.1f} | {c['vips'] * 1000:.1f} | {c['convert'] * 1000:.1f} | "
                     f"| {c['pickerd'] / c['vips']:.2f}x | {c['pickerd'] / c['convert']:.2f}x | | |")
        if hasattr(self, "mem"):
            m = self.mem
            mb = lambda kb: f"{kb / 1024:.1f}"
            L.append(f"| peak RSS serving a 24 MP JPEG (MiB) | 3 | {mb(m['hwm'])} (base {mb(m['base'])}) "
                     f"| {mb(m['vips'])} | {mb(m['convert'])} | {mb(m['pillow'])} (whole process) "
                     f"| **{m['hwm'] / m['vips']:.2f}x** | {m['hwm'] / m['convert']:.2f}x "
                     f"| {m['hwm'] / m['pillow']:.2f}x | |")
            bound = m["base16"] + 16 * 1024 + m["one"]
            L.append(f"| RSS after {m['requests']} different requests, --cache-mb 16 (MiB) | 1 "
                     f"| {mb(m['after200'])} (base {mb(m['base16'])}, peak {mb(m['hwm200'])}) | | | "
                     f"| bound base+16+one image = {mb(bound)}: **{'within' if m['after200'] <= bound else 'OVER'}** "
                     f"| | | |")
        return "\n".join(L)

    def run(self):
        a = self.args
        self.prepare()
        info = dict(
            date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            cpus=os.cpu_count(),
            vips=subprocess.run([self.vips, "--vips-version"], capture_output=True, text=True).stdout.strip(),
            convert=subprocess.run([self.convert, "-version"], capture_output=True, text=True).stdout.split("\n")[0],
        )
        # The cold scenarios measure cold work: nothing rendered ahead (browsing has its own daemon).
        p, sock = self.start_daemon("main", extra=["--no-prefetch"] if self.daemon_has("--no-prefetch") else [])
        self.main_pid = p.pid
        must(self.ctl(sock, "session", "new", "--width", str(PANE[0]), "--height", str(PANE[1])))
        # warm the page cache for every file once
        for d in ("camera", "big", "grid", "heic", "gif", "jxl", "colour", "raw", "rawgrid"):
            if not os.path.isdir(os.path.join(self.lib, d)):
                continue
            for f in os.listdir(os.path.join(self.lib, d)):
                with open(os.path.join(self.lib, d, f), "rb") as fh:
                    while fh.read(1 << 20):
                        pass
        rounds = 1 if a.quick else a.rounds
        big_runs = 3 if a.quick else 7
        only = set(filter(None, a.only.split(",")))
        want = lambda k: not only or k in only
        if want("camera"):
            print(f"bench: camera JPEGs ({len(self.camera)} files x {rounds} rounds)", file=sys.stderr)
            self.fit_scenario("camera", "cold get-image --no-cache, camera JPEG 12-22 MP -> 600x400", sock,
                              "camera", self.camera, rounds, cpu_row=True)
        for name, label in (("big_baseline.jpg", "24 MP baseline JPEG"),
                            ("big_progressive.jpg", "24 MP progressive JPEG"),
                            ("big.webp", "24 MP WebP"), ("big.png", "24 MP PNG")):
            if want("big"):
                print(f"bench: {label}", file=sys.stderr)
                self.fit_scenario(name.replace(".", "_"), f"cold get-image --no-cache, {label} -> 600x400",
                                  sock, "big", [name], big_runs)
        if want("heic"):
            print("bench: HEIC", file=sys.stderr)
            self.heic_scenario(sock, big_runs)
        if want("gif"):
            print("bench: GIF", file=sys.stderr)
            self.gif_scenario(sock, big_runs)
        if want("jxl"):
            print("bench: JPEG XL", file=sys.stderr)
            self.jxl_scenario(sock, big_runs)
        if want("raw"):
            print("bench: RAW", file=sys.stderr)
            self.raw_scenario(sock, big_runs)
        if want("colour"):
            print("bench: colour management", file=sys.stderr)
            self.colour_scenario(sock, big_runs)
        if want("warm"):
            print("bench: warm get-image", file=sys.stderr)
            self.warm_scenario(sock, 30 if a.quick else 60)
        if want("browsing"):
            print("bench: browsing", file=sys.stderr)
            _, browse_sock = self.start_daemon("browse")
            self.browsing_scenario(browse_sock, 12 if a.quick else 40)
        if want("ping"):
            print("bench: ping", file=sys.stderr)
            self.ping_scenario(sock, 50 if a.quick else 200)
        if want("thumbs"):
            print("bench: thumbnails", file=sys.stderr)
            self.thumbs_scenario(sock, 1 if a.quick else 3)
        self.stop_daemons()
        if want("memory"):
            print("bench: memory", file=sys.stderr)
            self.memory_scenario()

        text = [f"pickerd bench, {info['date']}, {info['cpus']} CPUs, {info['vips']}, {info['convert']}",
                "", self.table(), ""]
        text += [
            "Times: median ±half the interquartile range, ms, whole command (posix_spawn to exit) except "
            "Pillow (inside one running Python process: open+draft+exif_transpose+LANCZOS resize+PNG save). "
            "Ratios: pickerd median / tool median. PSNR: the worst source file, RGB, against a full decode "
            "downscaled by Pillow LANCZOS in 'F' mode per channel.",
        ]
        text += self.notes
        out = "\n".join(text)
        print(out)
        with open(os.path.join(self.work, "bench-table.md"), "w") as f:
            f.write(out + "\n")
        if not self.args.work:
            # the generated library (~70 MB) is only worth keeping in a work dir of one's own
            shutil.rmtree(self.lib, ignore_errors=True)
            shutil.rmtree(os.path.join(self.work, "static-build"), ignore_errors=True)
        print(f"\nbench: outputs and logs in {self.work}", file=sys.stderr)

    def close(self):
        self.stop_daemons()
        try:
            self.pillow.stdin.write('{"op": "quit"}\n')
            self.pillow.stdin.close()
            self.pillow.wait(5)
        except Exception:
            self.pillow.kill()


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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="folder with release pickerd and pickerctl")
    ap.add_argument("--testdata", default=None, help="the shared test corpus (has camera-photos/)")
    ap.add_argument("--work", default=None, help="work folder (default: a new temp dir)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds over the camera photos (default 3)")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    ap.add_argument("--package", default=os.path.normpath(os.path.join(HERE, "../..")),
                    help="the pickerd package, to build a static pickerctl for comparison ('' to skip)")
    ap.add_argument("--only", default="", help="comma-separated scenarios: camera,big,heic,gif,jxl,raw,colour,warm,browsing,ping,thumbs,memory")
    a = ap.parse_args()
    if a.testdata is None:
        sys.path.insert(0, os.path.join(HERE, ".."))
        import testcorpus  # PICKER_TESTDATA, ../shared/testdata, Tests/Fixtures (one camera photo)
        a.testdata = testcorpus.find()
    if not a.testdata or not os.path.isdir(os.path.join(a.testdata, "camera-photos")):
        sys.exit("bench: no camera-photos corpus: pass --testdata DIR (../shared/testdata)")
    b = Bench(a)
    try:
        b.run()
    finally:
        b.close()


if __name__ == "__main__":
    main()
