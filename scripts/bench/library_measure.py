"""The measurements of `make bench-library` (bench_library.py), in the order main() runs them:
the floors, the base RSS, the first starts (scan, cheap requests during it, RSS), the listings of
All Photos, the first request after idle, the library events, and the restarts.

Kept apart from bench_library.py (options, set-up, report) so each file holds one job.
"""
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "clients", "python"))
import big_library  # noqa: E402
import pickerd_client  # noqa: E402
from bench_run import proc_cpu  # noqa: E402
from library_daemon import Daemon, now, proc_status_kib, reset_peak_rss, run  # noqa: E402
from library_report import EVENT_TIMEOUT, IDLE_SECONDS  # noqa: E402

EVENT_ROUNDS = 3


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def p99(xs):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))]


def ms(seconds):
    return seconds * 1000.0


class Measurements:
    """A mix-in of bench_library.Bench: the methods use the bench's options (a), library (lib, n,
    names, sample_photo, cfloor, set by prepare()), work dir and ctl_has(), and the bench is what
    Daemon needs (binaries, daemon_has(), daemons). Each figure goes in self.r (library_report.py
    turns r into the table), anything odd in self.notes."""

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
        self.record("scan_cpu", ms(proc_cpu(d.pid)))
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
