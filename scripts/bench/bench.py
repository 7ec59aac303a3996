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
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import bench_run
from bench_run import HERE, PANE, median_spread, must, spawn
from bench_formats import HEIC_BENCH_FILE, RAW_BENCH_FILES, FormatScenarios
from bench_grid import GridScenarios
from bench_memory import MemoryScenarios
from bench_pick import PickScenarios
from bench_pictures import PictureScenarios
from bench_support import COLOUR_BENCH_FILES, without_profile


# ----------------------------------------------------------------- the bench

class Bench(PictureScenarios, GridScenarios, MemoryScenarios, FormatScenarios, PickScenarios):
    """The bench's set-up, daemons, timers and table; the scenarios are its mixins' (bench_*.py)."""

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
        self.build_cping()
        subprocess.run([sys.executable, os.path.join(HERE, "make_library.py"),
                        os.path.join(self.args.testdata, "camera-photos"), self.lib], check=True)
        self.camera = sorted(os.listdir(os.path.join(self.lib, "camera")))
        # HEIC row: the corpus's 12 MP iPhone photo (a grid of HEVC tiles with an irot), its own album.
        heic = os.path.join(self.args.testdata, HEIC_BENCH_FILE)
        if os.path.exists(heic):
            self.copy_for_format_rows(heic, "heic")
        self.make_gif_album()
        self.make_jxl_album()
        # RAW rows: the corpus's RAWs (cells by their previews).
        for rel in RAW_BENCH_FILES:
            src = os.path.join(self.args.testdata, rel)
            if os.path.exists(src):
                self.copy_for_format_rows(src, "raw")
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

    def build_cping(self):
        """The C ping client: the ping row's reference, and how start_daemon sees the socket answer."""
        self.cping = os.path.join(self.work, "cping")
        subprocess.run(["cc", "-O2", "-o", self.cping, os.path.join(HERE, "cping.c")], check=True)

    def start_daemon(self, name, cache_mb=None, extra=(), shared_thumbnails=False, fresh_cache=False,
                     library=None, env=None, scan_timeout=20):
        sock = os.path.join(self.work, f"{name}.sock")
        state = os.path.join(self.work, f"{name}-state")
        shutil.rmtree(state, ignore_errors=True)  # fresh sessions every run
        argv = [self.pickerd, "--library", library or self.lib, "--socket", sock, "--state-dir", state]
        if cache_mb is not None:
            argv += ["--cache-mb", str(cache_mb)]
        if not shared_thumbnails and self.daemon_has("--no-shared-thumbnails"):
            argv.append("--no-shared-thumbnails")  # cold cells from the photos, never ~/.cache
        argv += list(extra)
        cache_home = os.path.join(self.work, f"xdg-cache-{name}" if fresh_cache else "xdg-cache")
        if fresh_cache:
            shutil.rmtree(cache_home, ignore_errors=True)  # no shared thumbnails from an earlier run
        env = dict(os.environ, XDG_CACHE_HOME=cache_home, **(env or {}))
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
        deadline = time.monotonic() + scan_timeout
        while time.monotonic() < deadline:
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
            worker_cell = lambda w: (f"{mb(w['total'])} (daemon VmHWM {mb(w['hwm'])}, base {mb(w['base'])}; "
                                     f"workers' peak private {mb(w['worker_private'])}, Pss {mb(w['worker_pss'])}; "
                                     f"{w['workers']} workers, {w['replaced']} killed and replaced)")
            L.append(f"| peak RSS serving a 24 MP JPEG (MiB), daemon + decoder workers, --no-prefetch | 3 "
                     f"| {worker_cell(m)} | {mb(m['vips'])} | {mb(m['convert'])} | {mb(m['pillow'])} (whole process) "
                     f"| **{m['total'] / m['vips']:.2f}x** | {m['total'] / m['convert']:.2f}x "
                     f"| {m['total'] / m['pillow']:.2f}x | |")
            if hasattr(self, "mem_prefetch"):
                q = self.mem_prefetch
                L.append(f"| the same with prefetch on (default: the album's 24 MP PNG, progressive JPEG, WebP "
                         f"decoded too) | 3 | {worker_cell(q)} | {mb(m['vips'])} | | "
                         f"| {q['total'] / m['vips']:.2f}x | | | |")
            if hasattr(self, "mem_raw"):
                r = self.mem_raw
                L.append(f"| peak RSS serving a {r['file_mb']:.0f} MB RAW (DNG: the 24 MP JPEG as its preview, 6000x4000 "
                         f"16-bit sensor data; synth_dng.py), daemon + workers, --no-prefetch | 3 | {worker_cell(r)} "
                         f"| {mb(r['vips'])} (tiffload: the DNG's 256 px IFD0 thumbnail, upscaled) | | "
                         f"| {r['total'] / r['vips']:.2f}x | | | issue 27: ≤ 64 MiB: "
                         f"**{'met' if r['total'] <= 64 * 1024 else 'MISSED'}** |")
            bound = m["base16"] + 16 * 1024 + m["one"]
            L.append(f"| RSS after {m['requests']} different requests, --cache-mb 16 (MiB) | 1 "
                     f"| {mb(m['after200'])} (base {mb(m['base16'])}, peak {mb(m['hwm200'])}) | | | "
                     f"| bound base+16+one image = {mb(bound)}: **{'within' if m['after200'] <= bound else 'OVER'}** "
                     f"| | | |")
        return "\n".join(L)

    def run(self):
        a = self.args
        only = set(filter(None, a.only.split(",")))
        want = lambda k: not only or k in only
        pick_only = only == {"pick"}  # the pick rows have libraries and daemons of their own
        if pick_only:
            return self.run_pick_only()
        self.prepare()
        info = dict(
            date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            cpus=os.cpu_count(),
            vips=subprocess.run([self.vips, "--vips-version"], capture_output=True, text=True).stdout.strip(),
            convert=subprocess.run([self.convert, "-version"], capture_output=True, text=True).stdout.split("\n")[0],
        )
        rounds = 1 if a.quick else a.rounds
        # The cold scenarios measure cold work: nothing rendered ahead (browsing has its own daemon).
        p, sock = self.start_daemon("main", extra=["--no-prefetch"] if self.daemon_has("--no-prefetch") else [])
        self.main_pid = p.pid
        must(self.ctl(sock, "session", "new", "--width", str(PANE[0]), "--height", str(PANE[1])))
        # warm the page cache for every file once
        for d in ("camera", "big", "grid", "heic", "gif", "jxl", "colour", "raw", "rawgrid", "heicgrid", "jxlgrid"):
            if not os.path.isdir(os.path.join(self.lib, d)):
                continue
            for f in os.listdir(os.path.join(self.lib, d)):
                with open(os.path.join(self.lib, d, f), "rb") as fh:
                    while fh.read(1 << 20):
                        pass
        big_runs = 3 if a.quick else 7
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
        if want("pick"):
            self.pick_scenario(self.pick_rounds())

        text = [f"pickerd bench, {info['date']}, {info['cpus']} CPUs, {info['vips']}, {info['convert']}",
                "", self.table(), ""]
        text += [
            "Times: median ±half the interquartile range, ms, whole command (posix_spawn to exit) except "
            "Pillow (inside one running Python process: open+draft+exif_transpose+LANCZOS resize+PNG save). "
            "Ratios: pickerd median / tool median. PSNR: the worst source file, RGB, against a full decode "
            "downscaled by Pillow LANCZOS in 'F' mode per channel.",
        ]
        text += self.notes
        if want("pick"):
            text += ["", self.pick_table()]
        self.write_table(text)

    def pick_rounds(self):
        q = self.args.quick
        return dict(open=2 if q else 5, j=10 if q else 40, burst=2 if q else 5, end=2 if q else 5)

    def run_pick_only(self):
        date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        self.build_cping()
        self.pick_scenario(self.pick_rounds())
        self.write_table([f"pickerd bench, {date}, {os.cpu_count()} CPUs", "", self.pick_table()])

    def write_table(self, text):
        out = "\n".join(text)
        print(out)
        with open(os.path.join(self.work, "bench-table.md"), "w") as f:
            f.write(out + "\n")
        if not self.args.work:
            # the generated library (~70 MB) is only worth keeping in a work dir of one's own
            shutil.rmtree(self.lib, ignore_errors=True)
            shutil.rmtree(os.path.join(self.work, "static-build"), ignore_errors=True)
            # the pick rows' libraries: ~6 GB of camera JPEGs and 100,000 small files
            shutil.rmtree(os.path.join(self.work, "pick-library"), ignore_errors=True)
            shutil.rmtree(os.path.join(self.work, "pick-big"), ignore_errors=True)
        print(f"\nbench: outputs and logs in {self.work}", file=sys.stderr)

    def close(self):
        self.stop_daemons()
        try:
            self.pillow.stdin.write('{"op": "quit"}\n')
            self.pillow.stdin.close()
            self.pillow.wait(5)
        except Exception:
            self.pillow.kill()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="folder with release pickerd and pickerctl")
    ap.add_argument("--testdata", default=None, help="the shared test corpus (has camera-photos/)")
    ap.add_argument("--work", default=None, help="work folder (default: a new temp dir)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds over the camera photos (default 3)")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    ap.add_argument("--package", default=os.path.normpath(os.path.join(HERE, "../..")),
                    help="the pickerd package, to build a static pickerctl for comparison ('' to skip)")
    ap.add_argument("--only", default="", help="comma-separated scenarios: camera,big,heic,gif,jxl,raw,colour,warm,browsing,ping,thumbs,memory,pick")
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
