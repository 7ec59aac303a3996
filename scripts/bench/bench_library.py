#!/usr/bin/python3
"""pickerd on a big photo library (issue 11), next to the floors measured in the same run.

    bench_library.py --bin DIR [--photos N] [--per-folder 1000] [--rounds 3] [--library-dir DIR]
                     [--rebuild] [--testdata DIR] [--exif-from NAME] [--work DIR] [--keep-work]

DIR holds release `pickerd` and `pickerctl`. N defaults to $BENCH_PHOTOS, else 100000
(`BENCH_PHOTOS=1000` is the smoke run, `BENCH_PHOTOS=1000000` the big run by hand).

The library (big_library.py: N 64x48 JPEGs with a real camera APP1/Exif block and distinct
DateTimeOriginal values, folders of --per-folder) is kept between runs in --library-dir
(default ${XDG_CACHE_HOME:-~/.cache}/pickerd-bench/library-N) and rebuilt with --rebuild.
Everything else (sockets, state, the daemon's XDG_CACHE_HOME, logs) lives in a temp work dir.

Measured, page cache warm (the floor walks once before anything is timed):
  floors:  `find` of the names; a stat-only walk (`find -printf '%s %T@'`); C open + pread
           64 KiB of every file, one thread (cfloor.c, built with gcc here), from a list and
           with the directory walk;
  pickerd: (--rounds times, median and range) start -> socket answers; first full scan (start -> `library --wait` returns, and the
           log's "scanned ... ms"); status/select-photo p99 during that scan; RSS after the scan
           minus the RSS of the same daemon on an empty library; `photos` of All Photos (time,
           bytes, peak RSS while listing); first request after 5 s idle; a photo copied in and
           deleted -> `watch --library --json` events; (--rounds times) restart on the same
           XDG_CACHE_HOME -> first `albums` with the full count (an index under $XDG_CACHE_HOME/pickerd/ is used
           when the daemon writes one).
Prints ONE table (also WORK/bench-library.md). Python stdlib + Pillow only.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import big_library  # noqa: E402
import library_report  # noqa: E402
import testcorpus  # noqa: E402
# This file sets up the bench, runs the measurements in order and reports; the measurements are
# in library_measure.py, the spawned daemon and the timed commands in library_daemon.py.
from library_measure import Measurements  # noqa: E402


# --------------------------------------------------------------- the bench

class Bench(Measurements):
    def __init__(self, a):
        self.a = a
        self.n = a.photos
        self.pickerd = os.path.join(os.path.abspath(a.bin), "pickerd")
        self.pickerctl = os.path.join(os.path.abspath(a.bin), "pickerctl")
        for tool in (self.pickerd, self.pickerctl):
            if not os.access(tool, os.X_OK):
                sys.exit(f"bench-library: {tool} not found (run `make bench-library`, which builds it)")
        self.work = a.work or tempfile.mkdtemp(prefix="pickerd-benchlib.")
        os.makedirs(self.work, exist_ok=True)
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
        self.lib = a.library_dir or os.path.join(cache, "pickerd-bench", f"library-{self.n}")
        self.daemons = []
        self.r = {}  # figure name -> value
        self.notes = []
        self._daemon_help = None
        self.load_start = open("/proc/loadavg").read().split()[0]

    # -- set-up
    def daemon_has(self, option):
        if self._daemon_help is None:
            p = subprocess.run([self.pickerd, "--help"], capture_output=True, text=True)
            self._daemon_help = p.stdout + p.stderr
        return option in self._daemon_help

    def ctl_has(self, command, option):
        p = subprocess.run([self.pickerctl, command, "--help"], capture_output=True, text=True)
        return p.returncode == 0 and option in p.stdout + p.stderr

    def camera_jpeg(self):
        corpus = testcorpus.find(self.a.testdata)
        folder = os.path.join(corpus, "camera-photos")
        if not os.path.isdir(folder):
            folder = os.path.join(testcorpus.FIXTURES, "camera-photos")
        names = sorted(f for f in os.listdir(folder) if f.lower().endswith((".jpg", ".jpeg")))
        if self.a.exif_from in names:
            return os.path.join(folder, self.a.exif_from)
        if not names:
            sys.exit(f"bench-library: no camera JPEGs in {folder}")
        return os.path.join(folder, names[0])

    def prepare(self):
        camera = self.camera_jpeg()
        self.camera = os.path.basename(camera)
        print(f"bench-library: library {self.lib} ({self.n} photos, Exif from {self.camera})", flush=True)
        reused, secs, size = big_library.build(camera, self.lib, self.n, self.a.per_folder, self.a.rebuild)
        self.photo_bytes = size
        print(f"bench-library: {'reused' if reused else f'built in {secs:.1f} s'}; "
              f"{size} bytes a photo", flush=True)
        self.sample_photo = big_library.photo_path(self.lib, 0, self.a.per_folder)
        self.cfloor = os.path.join(self.work, "cfloor")
        subprocess.run(["gcc", "-O2", "-o", self.cfloor, os.path.join(HERE, "cfloor.c")], check=True)
        self.names = os.path.join(self.work, "names.txt")
        with open(self.names, "w") as f:
            subprocess.run(["find", self.lib, "-type", "f", "-name", "*.jpg"], stdout=f, check=True)

    def stop_all(self):
        for d in self.daemons:
            d.stop()

    # -- report
    def table(self):
        return library_report.table(self.r, self.n)

    def header(self):
        load = open("/proc/loadavg").read().split()[0]
        return (f"{self.n:,} photos ({self.a.per_folder:,} a folder, {self.photo_bytes:,} bytes each, "
                f"Exif from {self.camera}), {os.cpu_count()} CPUs, 1-min load average {self.load_start} "
                f"at the start, {load} at the end, "
                f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Start and restart: median of "
                f"{self.a.rounds} round(s) [min–max]; floors: median of 5 (min–max).")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="folder with release pickerd and pickerctl")
    ap.add_argument("--photos", type=int, default=int(os.environ.get("BENCH_PHOTOS") or 100000))
    ap.add_argument("--per-folder", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3, help="first starts and restarts to measure (default 3)")
    ap.add_argument("--library-dir", help="where the library is built and kept")
    ap.add_argument("--rebuild", action="store_true", help="rebuild the library even if it is there")
    ap.add_argument("--testdata", help="test corpus (default: scripts/testcorpus.py's choice)")
    ap.add_argument("--exif-from", default="Canon_EOS_5D_Mark_III_22mp.jpg",
                    help="camera JPEG whose APP1 every photo carries (default: the Canon, in every corpus)")
    ap.add_argument("--work", help="work dir (default: a new temp dir, removed at the end)")
    ap.add_argument("--keep-work", action="store_true", help="keep the work dir (logs, listings)")
    a = ap.parse_args()
    if a.photos < 1 or a.rounds < 1:
        sys.exit("bench-library: --photos and --rounds must be at least 1")
    b = Bench(a)
    ok = False
    try:
        b.prepare()
        b.floors()
        b.base_rss()
        d = b.first_start()
        b.listings(d)
        b.idle(d)
        b.live_events(d)
        b.restart(d)
        table = b.table()
        out = os.path.join(b.work, "bench-library.md")
        with open(out, "w") as f:
            f.write(b.header() + "\n\n" + table + "\n")
        print()
        print(b.header())
        print()
        print(table)
        for note in b.notes:
            print(f"note: {note}")
        ok = True
    finally:
        b.stop_all()
        if a.keep_work or not ok:
            print(f"bench-library: work dir kept: {b.work}")
        elif not a.work:
            shutil.rmtree(b.work, ignore_errors=True)


if __name__ == "__main__":
    main()
