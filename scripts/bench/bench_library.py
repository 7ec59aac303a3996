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
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "scripts"))
sys.path.insert(0, os.path.join(REPO, "clients", "python"))
import big_library  # noqa: E402
import library_report  # noqa: E402
import pickerd_client  # noqa: E402
import testcorpus  # noqa: E402

# The daemon's info line after a scan ("library ROOT scanned: N photos in ..., 1198 ms, ...");
# a verification after a restart may say "verified" instead.
SCANNED = re.compile(r"(?:scanned|verified|verification)\b.*?\b([\d,]+) ms")
from library_report import EVENT_TIMEOUT, IDLE_SECONDS  # noqa: E402
EVENT_ROUNDS = 3


# ------------------------------------------------------------------ helpers

def now():
    return time.perf_counter()


def run(argv, stdout=subprocess.DEVNULL, timeout=600):
    """Runs argv; returns (seconds, exit code)."""
    t0 = now()
    rc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.DEVNULL,
                        timeout=timeout).returncode
    return now() - t0, rc


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def p99(xs):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))]


def proc_status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def proc_cpu_seconds(pid):
    """user+system CPU seconds of a running process so far (clock ticks, 10 ms)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reset_peak_rss(pid):
    """Resets VmHWM to the current RSS (clear_refs 5, Linux >= 4.0); False if not allowed."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def ms(seconds):
    return seconds * 1000.0


# ------------------------------------------------------------------- daemon

class Daemon:
    """One spawned pickerd on the library, with its own socket, state dir and XDG_CACHE_HOME."""

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


# --------------------------------------------------------------- the bench

class Bench:
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

    # -- floors
    def cfloor_ms(self, mode, arg):
        out = subprocess.run([self.cfloor, mode, arg], capture_output=True, text=True, check=True).stdout
        fields = dict(kv.split("=") for kv in out.split())
        if int(fields["files"]) < self.n:
            sys.exit(f"bench-library: cfloor saw {fields['files']} files, expected {self.n}")
        return float(fields["ms"])

    def floors(self, rounds=5):
        print("bench-library: floors (warming the page cache first)", flush=True)
        self.cfloor_ms("walk", self.lib)  # warm: every inode and the first 64 KiB of every file
        run(["find", self.lib, "-printf", "%s %T@\n"])
        names, stats, lists, walks = [], [], [], []
        for _ in range(rounds):
            names.append(ms(run(["find", self.lib])[0]))
            stats.append(ms(run(["find", self.lib, "-printf", "%s %T@\n"])[0]))
            lists.append(self.cfloor_ms("list", self.names))
            walks.append(self.cfloor_ms("walk", self.lib))
        for key, xs in (("floor_find", names), ("floor_stat", stats), ("floor_c_list", lists),
                        ("floor_c_walk", walks)):
            self.r[key], self.r[key + "_range"] = median(xs), (min(xs), max(xs))

    # -- base RSS: the same daemon on an empty library
    def base_rss(self):
        empty = os.path.join(self.work, "empty-library")
        os.makedirs(empty, exist_ok=True)
        d = Daemon(self, "empty", empty, os.path.join(self.work, "xdg-empty"))
        self.r["socket_empty"] = ms(d.wait_socket())
        run(d.ctl("library", "--wait"))
        time.sleep(0.5)
        self.r["rss_base_kib"] = proc_status_kib(d.pid, "VmRSS")
        d.stop()

    # -- first start: socket, scan, cheap requests during the scan, RSS
    def record(self, key, value):
        """Adds one round's figure: r[key] is the median of the rounds, r[key + "_all"] all of them."""
        values = self.r.setdefault(key + "_all", [])
        values.append(value)
        got = [v for v in values if v is not None]
        self.r[key] = median(got) if got else None

    def first_start(self):
        """--rounds first starts, each with a fresh XDG_CACHE_HOME; the last daemon stays up."""
        self.xdg = os.path.join(self.work, "xdg-cache")
        lat = {"status": [], "select-photo": []}
        errors = []
        for k in range(self.a.rounds):
            print(f"bench-library: first start (no index), round {k + 1} of {self.a.rounds}", flush=True)
            shutil.rmtree(self.xdg, ignore_errors=True)
            d = Daemon(self, f"main{k + 1}", self.lib, self.xdg)
            self.scan_round(d, lat, errors)
            if k + 1 < self.a.rounds:
                d.stop()
        for kind, xs in lat.items():
            self.r[f"cheap_{kind}_p99"] = p99(xs)
            self.r[f"cheap_{kind}_n"] = len(xs)
        self.r["cheap_errors"] = len(errors)
        if errors:
            self.notes.append(f"during the scan {len(errors)} cheap request(s) were answered with an error "
                              f"(first: {errors[0]}); counted in the latencies")
        time.sleep(0.5)
        self.r["rss_after_scan_kib"] = proc_status_kib(d.pid, "VmRSS")
        self.r["hwm_scan_kib"] = proc_status_kib(d.pid, "VmHWM")
        return d

    def scan_round(self, d, lat, errors):
        """Socket, scan (library --wait, CPU, log) and cheap requests during the scan, of one start."""
        self.record("socket", ms(d.wait_socket()))
        waiter = subprocess.Popen(d.ctl("library", "--wait"), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        stop = threading.Event()
        client = threading.Thread(target=self.cheap_loop, args=(d, stop, lat, errors), daemon=True)
        client.start()
        waiter.wait()
        self.record("scan_wait", ms(now() - d.started))
        self.record("scan_cpu", ms(proc_cpu_seconds(d.pid)))
        stop.set()
        client.join()
        scanned = d.scanned_lines()
        self.record("scan_log", scanned[0] if scanned else None)

    def cheap_loop(self, d, stop, lat, errors):
        """status and select-photo, one every ~5 ms, on one connection, while the scan runs."""
        try:
            c = pickerd_client.Client(d.sock, timeout=30, client_name="bench-library")
        except pickerd_client.PickerError as e:
            errors.append(str(e))
            return
        with c:
            s = c.create_session("bench-cheap", 800, 600, exist_ok=True)
            try:
                s.select_album(1)
            except pickerd_client.PickerError as e:
                errors.append(f"select-album: {e}")
            while not stop.is_set():
                for name, call in (("status", s.status), ("select-photo", lambda: s.select_photo(1))):
                    t0 = now()
                    try:
                        call()
                    except pickerd_client.PickerError as e:
                        errors.append(f"{name}: {e}")
                    lat[name].append(ms(now() - t0))
                time.sleep(0.005)

    # -- listings of All Photos
    def listings(self, d):
        print("bench-library: photos of All Photos", flush=True)
        run(d.ctl("session", "new", "--width", "800", "--height", "600"))
        run(d.ctl("select-album", "--index", "1"))
        out = os.path.join(self.work, "photos.txt")
        with open(out, "w") as f:
            t, rc = run(d.ctl("photos"), stdout=f)
        self.r["photos_text_ms"], self.r["photos_text_bytes"] = ms(t), os.path.getsize(out)
        rss_before = proc_status_kib(d.pid, "VmRSS")
        can_reset = reset_peak_rss(d.pid)
        with open(out, "w") as f:
            t, rc = run(d.ctl("--json", "photos"), stdout=f)
        self.r["photos_json_ms"], self.r["photos_json_bytes"] = ms(t), os.path.getsize(out)
        self.r["photos_json_rc"] = rc
        if can_reset:
            self.r["listing_peak_kib"] = proc_status_kib(d.pid, "VmHWM") - rss_before
        else:
            self.notes.append("VmHWM could not be reset (/proc/PID/clear_refs): the listing peak is the process peak")
            self.r["listing_peak_kib"] = proc_status_kib(d.pid, "VmHWM") - rss_before
        self.r["paging"] = self.ctl_has("photos", "--limit")
        if self.r["paging"]:
            t, rc = run(d.ctl("photos", "--offset", "0", "--limit", "100"))
            self.r["photos_page_ms"] = ms(t) if rc == 0 else None

    # -- first request after idle
    def idle(self, d):
        print(f"bench-library: {IDLE_SECONDS:.0f} s idle, then albums", flush=True)
        with pickerd_client.Client(d.sock, timeout=30, client_name="bench-library") as c:
            c.albums()
            time.sleep(IDLE_SECONDS)
            t0 = now()
            c.albums()
            self.r["idle_albums"] = ms(now() - t0)
            t0 = now()
            c.albums()
            self.r["busy_albums"] = ms(now() - t0)
        time.sleep(IDLE_SECONDS)
        t, _ = run(d.ctl("status"))
        self.r["idle_pickerctl_status"] = ms(t)

    # -- a photo copied in and deleted, seen by watch --library --json
    def live_events(self, d):
        print("bench-library: copy a photo in, delete it, watch the events", flush=True)
        watch = subprocess.Popen(d.ctl("--json", "watch", "--library"), stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        lines = []  # (time, parsed JSON)
        cond = threading.Condition()

        def reader():
            for line in watch.stdout:
                try:
                    ev = json.loads(line)
                except ValueError:
                    continue
                with cond:
                    lines.append((now(), ev))
                    cond.notify_all()

        threading.Thread(target=reader, daemon=True).start()

        def wait_for(pred, since, timeout=EVENT_TIMEOUT):
            deadline = now() + timeout
            with cond:
                while True:
                    for t, ev in lines:
                        if t >= since and pred(ev):
                            return t
                    left = deadline - now()
                    if left <= 0:
                        return None
                    cond.wait(left)

        # The watch is subscribed once it prints a session event we cause (album 2, then 1, ...:
        # selecting the album already selected is no event).
        subscribed = False
        for k in range(50):
            run(d.ctl("select-album", "--index", str(2 - k % 2)))
            if wait_for(lambda ev: True, 0, timeout=0.2) is not None:
                subscribed = True
                break
        if not subscribed:
            self.notes.append("watch printed no session event within 10 s; library events may be missed")
        with open(self.sample_photo, "rb") as f:
            data = f.read()

        def names_in(ev, key, name):
            # {"event":"library_changes","added":[...]} today; the bare {"added":[...]} too
            return isinstance(ev, dict) and any(str(p).endswith(name) for p in ev.get(key) or [])

        added, removed = [], []
        for k in range(EVENT_ROUNDS):
            index = (self.n // 2 + k * self.a.per_folder) % self.n  # a different folder each round
            folder = os.path.dirname(big_library.photo_path(self.lib, index, self.a.per_folder))
            name = f"BENCH_COPIED_IN_{k}.jpg"
            path = os.path.join(folder, name)
            try:
                with open(path, "wb") as f:
                    f.write(data)
                closed = now()
                t = wait_for(lambda ev: names_in(ev, "added", name), closed)
                added.append(ms(t - closed) if t is not None else None)
            finally:
                if os.path.exists(path):
                    os.unlink(path)
                gone = now()
            t = wait_for(lambda ev: names_in(ev, "removed", name), gone)
            removed.append(ms(t - gone) if t is not None else None)
            time.sleep(1)  # apart, so no round shares a settle window with the last
        watch.send_signal(signal.SIGINT)
        try:
            watch.wait(5)
        except subprocess.TimeoutExpired:
            watch.kill()
        self.r["event_added"], self.r["event_removed"] = added, removed

    # -- restart on the same XDG_CACHE_HOME
    def restart(self, d):
        """--rounds restarts on the same library and XDG_CACHE_HOME as the first start."""
        d.stop()
        index_dir = os.path.join(self.xdg, "pickerd")
        files = []
        for root, _, names in os.walk(index_dir):
            files += [os.path.join(root, f) for f in names]
        self.r["index_files"] = len(files)
        self.r["index_bytes"] = sum(os.path.getsize(f) for f in files)
        for k in range(self.a.rounds):
            print(f"bench-library: restart, round {k + 1} of {self.a.rounds}", flush=True)
            d2 = Daemon(self, f"restart{k + 1}", self.lib, self.xdg)
            self.record("restart_socket", ms(d2.wait_socket()))
            self.record("restart_albums", self.first_full_albums(d2))
            run(d2.ctl("library", "--wait"))
            self.record("restart_ready", ms(now() - d2.started))
            scanned = d2.scanned_lines()
            self.record("restart_scan_log", scanned[0] if scanned else None)
            d2.stop()

    def first_full_albums(self, d):
        """ms from spawn to the first `albums` reply that counts every photo (None after 120 s)."""
        with pickerd_client.Client(d.sock, timeout=60, client_name="bench-library") as c:
            while now() - d.started < 120:
                albums = c.albums()
                if albums and max(a.photo_count for a in albums) >= self.n:
                    return ms(now() - d.started)
                time.sleep(0.002)
        return None

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
