"""bench.py's `pick` rows (`--only pick`): issue 24's latency targets for `pickerctl pick`, measured on a
pseudo-terminal from the key's bytes written to the pty to the picture's last byte read from it
(pick_pty.py says what "drawn" and "last byte" mean). A mixin of `Bench`.

Libraries (made once in WORK, kept for a re-run with the same --work):
  pick-library/Album2000/  2,000 camera JPEGs (12, 16 and 22 MP): the corpus's camera photos copied
                           in turn under distinct names, each copy its own file (no links) with its
                           number appended after the JPEG's end (EOI), so every file differs byte for
                           byte too; the render cache keys on the file's identity (RenderKey.swift:
                           device, inode, size, mtime), so every photo is a cache miss until rendered.
  pick-library/Other/      one camera JPEG: where pick starts before the album is opened.
  pick-big/f000/           100,000 distinct 64x48 JPEGs with a camera Exif block (big_library.py).

Rows:
  album opened -> first picture: pick on Other, `h` (album pane), `k` to Album2000 and Enter, timed
    from the Enter; a fresh daemon every round, so the first photo is never in the render cache.
  j -> next picture, sixel and symbols: after each picture the bench waits until the daemon's log says
    the neighbours were prefetched (the "prefetched" lines of PickerService+Prefetch.swift), then
    presses j: the prefetched case the target names. Whether pick's getImage hit the cache is counted
    from the log's "render cache hit" lines.
  10 j within 200 ms (20 ms apart): the pictures drawn after the last key, and the decodes begun for
    the burst, counted in the daemon's debug log (there is no decode counter in any reply): every
    render for the session's getImage or prefetch logs one line when it ends (completed, failed or
    cancelled: PickerService.swift `handle`, PickerService+Prefetch.swift), and a render that came from
    the cache logs "render cache hit" first; decodes = those lines - cache hits. Requests superseded
    before a worker took them never reach `handle` and log nothing: they decoded nothing. Prefetch
    decodes are told apart by photo: the stopped-on photo's two neighbours (what any stop starts)
    and photos passed over (what the burst itself cost).
  End on the 100,000-photo album: pick on f000, End, timed to the last photo's picture (symbols,
    the photos being 64x48) and to the frame showing the last photo's name.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

from bench_run import HERE
from pick_pty import PtyPick

sys.path.insert(0, HERE)
import big_library  # noqa: E402

PICK_COLS, PICK_ROWS, PICK_CELL = 160, 48, (10, 20)  # 1600x960 px; xterm caps sixel at 1000x1000
ALBUM, ALBUM_N, BIG_N = "Album2000", 2000, 100_000
BIG_ALBUM = "f000"


def percentile(xs, p):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def ms(t):
    return round(t * 1000, 1)


class PickScenarios:
    # -- libraries

    def make_pick_library(self):
        lib = os.path.join(self.work, "pick-library")
        album = os.path.join(lib, ALBUM)
        camera_dir = os.path.join(self.args.testdata, "camera-photos")
        sources = sorted(os.path.join(camera_dir, f) for f in os.listdir(camera_dir) if f.lower().endswith(".jpg"))
        done = os.path.join(lib, ".complete")
        if os.path.exists(done) and open(done).read() == str(ALBUM_N):
            return lib
        shutil.rmtree(lib, ignore_errors=True)
        os.makedirs(album)
        os.makedirs(os.path.join(lib, "Other"))
        datas = [open(s, "rb").read() for s in sources]
        for i in range(ALBUM_N):
            with open(os.path.join(album, f"IMG_{i + 1:04d}.jpg"), "wb") as f:
                f.write(datas[i % len(datas)] + b"pickbench %d" % i)
        shutil.copyfile(sources[0], os.path.join(lib, "Other", "other.jpg"))
        with open(done, "w") as f:
            f.write(str(ALBUM_N))
        return lib

    def make_big_album(self):
        out = os.path.join(self.work, "pick-big")
        camera = os.path.join(self.args.testdata, "camera-photos", "Nikon_D90_12mp.jpg")
        big_library.build(camera, out, BIG_N, per_folder=BIG_N, log=lambda *a: print(*a, file=sys.stderr))
        return out

    # -- one pick

    def pick(self, sock, mode, log, session, *args):
        argv = [self.pickerctl, "--socket", sock, "--session", session, "pick", *args]
        return PtyPick(argv, mode, PICK_COLS, PICK_ROWS, PICK_CELL, log_path=log,
                       stdout_path=os.path.join(self.out, f"pick-{session}.stdout"))

    def session_json(self, sock, session):
        r = subprocess.run([self.pickerctl, "--socket", sock, "--json", "session", "show", session],
                           capture_output=True, text=True)
        return json.loads(r.stdout) if r.returncode == 0 and r.stdout.strip() else {}

    @staticmethod
    def loadavg():
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])

    # -- scenarios

    def pick_scenario(self, rounds):
        print("bench: pick libraries (2,000 camera JPEGs, 100,000 small JPEGs)", file=sys.stderr)
        lib = self.make_pick_library()
        big = self.make_big_album()
        self.pick_rows = []
        self.pick_details = []  # every measured key: its figure and the daemon log lines around it
        self.pick_notes = [f"load average at the start of the pick rows: {self.loadavg()}"]
        debug = {"PICKERD_LOG_LEVEL": "debug"}
        self.pick_open(lib, debug, rounds["open"])
        # The same without prefetch: how much the neighbours' renders, started 100 ms after the
        # photo changed, slow the first picture on two cores.
        self.pick_open(lib, debug, rounds["open"], extra=["--no-prefetch"])
        _, sock = self.start_daemon("pick-j", library=lib, env=debug)
        log = os.path.join(self.work, "pick-j.log")
        for mode in ("sixel", "symbols"):
            self.pick_steps(sock, log, mode, rounds["j"])
        self.pick_burst(sock, log, rounds["burst"])
        self.stop_daemons()
        _, sock = self.start_daemon("pick-big", library=big, env=debug, scan_timeout=600)
        self.pick_end(sock, os.path.join(self.work, "pick-big.log"), rounds["end"])
        self.stop_daemons()
        self.pick_notes.append(f"load average at the end of the pick rows: {self.loadavg()}")
        with open(os.path.join(self.work, "pick-details.json"), "w") as f:
            json.dump(self.pick_details, f, indent=1)
        self.pick_notes.append(f"per key: the figure and the daemon's log lines (ms after the key) in "
                               f"{os.path.join(self.work, 'pick-details.json')}")

    def detail(self, row, p, t, drawn, **extra):
        self.pick_details.append(dict(row=row, ms=ms(drawn - t) if drawn else None,
                                      log=p.log_since(t, (drawn or time.monotonic()) + 0.05), **extra))

    def pick_open(self, lib, env, rounds, extra=()):
        print(f"bench: pick, album opened -> first picture ({rounds} fresh daemons {' '.join(extra)})", file=sys.stderr)
        for mode in ("sixel", "symbols"):
            times, start_times = [], []
            for r in range(rounds):
                name = f"pick-open-{mode}-{r}"
                _, sock = self.start_daemon(name, library=lib, env=env, extra=extra)
                p = self.pick(sock, mode, os.path.join(self.work, f"{name}.log"), "open", "--album", "Other")
                first = p.wait_picture(0)
                if first is None:
                    sys.exit(f"bench: pick drew no first picture ({mode}); see {self.out}")
                start_times.append(first - p.started)
                p.send(b"h")
                p.settle(0.3)
                # The albums sort by name: Album2000 is above Other.
                p.send(b"k")
                p.settle(0.3)
                t, at = p.send(b"\r")
                drawn = p.wait_picture(at)
                if drawn is None:
                    sys.exit(f"bench: Enter on {ALBUM} drew no picture ({mode})")
                times.append(drawn - t)
                self.detail(f"open-{mode}{''.join(extra)}", p, t, drawn)
                album = self.session_json(sock, "open").get("album")
                if album != ALBUM:
                    sys.exit(f"bench: Enter opened {album}, not {ALBUM} ({mode})")
                p.quit()
                self.stop_daemons()
            if extra:
                self.pick_rows.append(dict(label=f"(for reference) album opened -> first picture drawn, {mode}, "
                                                 f"daemon {' '.join(extra)}", times=times, target="", ok=None))
                continue
            self.pick_rows.append(dict(label=f"album opened (Enter on {ALBUM}) -> first picture drawn, {mode}",
                                       times=times, target="<= 150 ms", ok=statistics.median(times) <= 0.150))
            self.pick_rows.append(dict(label=f"(for reference) pick started -> first picture drawn, {mode} "
                                             "(process start, terminal queries, session, album Other)",
                                       times=start_times, target="", ok=None))

    @staticmethod
    def _renders(lines, session):
        """(getImage lines, prefetch lines, cache hits) among daemon log lines for `session`."""
        gets = sum(1 for _, l in lines if f"getImage {session} " in l)
        pre = sum(1 for _, l in lines if ("prefetched " in l or "prefetch of " in l) and f"session {session}" in l
                  and "thumbnail" not in l)
        hits = sum(1 for _, l in lines if "render cache hit:" in l)
        return gets, pre, hits

    def pick_steps(self, sock, log, mode, rounds):
        print(f"bench: pick, j -> next picture, {mode}, prefetched ({rounds} keys)", file=sys.stderr)
        session = f"steps-{mode}"
        p = self.pick(sock, mode, log, session, "--album", ALBUM)
        if p.wait_picture(0) is None:
            sys.exit(f"bench: pick drew no first picture ({mode})")
        times, hits, cold = [], 0, []
        mark = 0
        for i in range(rounds):
            # The neighbours are rendered once the photo is current (since the last j): next and
            # previous (none before the first photo).
            want = 1 if i == 0 else 2
            if not p.wait_log(lambda ls: self._renders(ls[mark:], session)[1] >= want, timeout=20):
                self.pick_notes.append(f"{mode} step {i}: the daemon logged no prefetch within 20 s")
            p.settle(0.1)
            mark = len(p.log_lines)
            t, at = p.send(b"j")
            drawn = p.wait_picture(at)
            if drawn is None:
                sys.exit(f"bench: j drew no picture ({mode}, step {i})")
            times.append(drawn - t)
            p.wait_log(lambda ls: self._renders(ls[mark:], session)[0] >= 1, timeout=5)
            self.detail(f"j-{mode}", p, t, drawn)
            gets = [(tt, l) for tt, l in p.log_lines[mark:] if f"getImage {session} " in l or "render cache hit:" in l]
            if any("render cache hit:" in l for _, l in gets[:2]):
                hits += 1
            else:
                cold.append(i)
        p.quit()
        target = "median <= 60 ms, p95 <= 150 ms" if mode == "sixel" else "<= 30 ms"
        ok = (statistics.median(times) <= 0.060 and percentile(times, 0.95) <= 0.150) if mode == "sixel" \
            else statistics.median(times) <= 0.030
        self.pick_rows.append(dict(label=f"j -> next picture drawn, {mode}, neighbours prefetched "
                                         f"(getImage hit the render cache {hits}/{rounds})",
                                   times=times, target=target, ok=ok))
        if cold:
            self.pick_notes.append(f"{mode}: j steps {cold} missed the render cache (prefetch did not serve them)")

    def pick_burst(self, sock, log, rounds):
        print(f"bench: pick, 10 j within 200 ms ({rounds} bursts)", file=sys.stderr)
        results = []
        for r in range(rounds):
            # Each burst on photos no earlier row rendered (the j rows walked the album's first ones).
            session = f"burst-{r}"
            start = f"IMG_{1001 + 100 * r:04d}.jpg"
            p = self.pick(sock, "sixel", log, session, "--album", ALBUM, "--photo", start)
            if p.wait_picture(0) is None:
                sys.exit("bench: pick drew no first picture (burst)")
            # The bursts start once the first photo's neighbours are prefetched (as when the user looked at it).
            p.wait_log(lambda ls: self._renders(ls, session)[1] >= 2, timeout=20)
            p.settle(0.3)
            mark = len(p.log_lines)
            sent = []
            for k in range(10):
                sent.append(p.send(b"j"))
                if k < 9:
                    until = time.monotonic() + 0.020
                    while time.monotonic() < until:
                        p.pump(until - time.monotonic())
            t_last, at_last = sent[-1]
            drawn = p.wait_picture(at_last)
            p.settle(1.0)  # what the burst still causes: the prefetch of the new neighbours
            got = p.pictures(at_last)
            state = self.session_json(sock, session)
            final = state.get("photo") or ""
            account = self._burst_decodes(p.log_lines[mark:], session, final)
            self.detail("burst", p, sent[0][0], drawn, last_key_ms=ms(t_last - sent[0][0]),
                        after=p.log_since(sent[0][0])[-12:], account=account)
            results.append(dict(span=sent[-1][0] - sent[0][0], pictures=len(got),
                                during=len(p.pictures(sent[0][1], at_last)),
                                last_ms=ms(drawn - t_last) if drawn else None, start=start, photo=final, **account))
            p.quit()
        self.pick_burst_results = results
        self.pick_rows.append(dict(label="10 j 20 ms apart -> last key to the one picture drawn after it, sixel",
                                   times=[x["last_ms"] / 1000 for x in results if x["last_ms"] is not None],
                                   target="", ok=None))
        ok = all(x["pictures"] == 1 for x in results) and all(x["burst_decodes"] <= 2 for x in results)
        self.pick_notes.append(
            "10 j bursts (sixel, each from a photo whose neighbours were prefetched; per burst: keys' span ms / "
            "pictures drawn during the burst / pictures drawn after the last key / getImage renders (decodes + cache "
            "hits) / prefetch decodes of photos passed over / prefetch decodes of the stopped-on photo's two "
            "neighbours, until 1 s after its picture / photos from -> to): "
            + "; ".join(f"{ms(x['span'])} / {x['during']} / {x['pictures']} / {x['get_decodes']}+{x['get_hits']} / "
                        f"{len(x['passed_over'])} / {len(x['neighbours'])} / {x['start']} -> {x['photo']}"
                        for x in results)
            + ". Decodes begun for the burst = getImage decodes + prefetch decodes of photos passed over (the "
              "neighbours' prefetch is the one any stop on a photo starts). Target exactly 1 picture after the last "
              f"key and <= 2 decodes: **{'met' if ok else 'missed'}**.")

    @staticmethod
    def _burst_decodes(lines, session, final):
        """What the daemon rendered for the burst, from its debug log: getImage renders split into decodes and
        cache hits, and the photos prefetch decoded (not cache hits), split into the final photo's neighbours and
        the photos passed over."""
        hit_photos, gets, get_hits, prefetched = [], 0, 0, []
        for _, line in lines:
            if "render cache hit: " in line:
                hit_photos.append(line.split("render cache hit: ", 1)[1].rsplit(" at ", 1)[0])
            elif f"getImage {session} " in line:
                gets += 1
            elif ("prefetched " in line or "prefetch of " in line) and f"session {session}" in line \
                    and "thumbnail" not in line:
                photo = line.split("prefetched " if "prefetched " in line else "prefetch of ", 1)[1].split(" for ", 1)[0]
                if photo in hit_photos:
                    hit_photos.remove(photo)
                else:
                    prefetched.append(photo)
        get_hits = min(gets, len(hit_photos))  # the hits prefetch did not account for are getImage's
        stem = final.rsplit(".", 1)[0]
        number = int(stem[4:]) if stem.startswith("IMG_") and stem[4:].isdigit() else None
        near = {f"{ALBUM}/IMG_{n:04d}.jpg" for n in ((number - 1, number + 1) if number else ())}
        neighbours = [x for x in prefetched if x in near]
        passed = [x for x in prefetched if x not in near]
        return dict(get_decodes=gets - get_hits, get_hits=get_hits, neighbours=neighbours, passed_over=passed,
                    burst_decodes=gets - get_hits + len(passed))

    def pick_end(self, sock, log, rounds):
        print(f"bench: pick, End on {BIG_N:,} photos ({rounds} rounds)", file=sys.stderr)
        last = f"IMG_{BIG_N - 1:06d}.jpg".encode()
        first = b"IMG_000000.jpg"
        pictures, names = [], []
        for r in range(rounds):
            session = f"end-{r}"
            p = self.pick(sock, "symbols", log, session, "--album", BIG_ALBUM)
            if p.wait_picture(0, timeout=60) is None or not p.wait_text(first):
                sys.exit("bench: pick on the big album drew no first picture")
            p.settle(0.5)
            t, at = p.send(b"\x1b[F")  # xterm's End
            drawn = p.wait_picture(at)
            if not p.wait_text(last, at) or drawn is None:
                sys.exit("bench: End drew no last photo")
            named = next((f for f in p.frames(at) if last in p.buf[f[0]:f[1]]), None)
            pictures.append(drawn - t)
            self.detail("end", p, t, drawn)
            if named:
                names.append(p.time_of(named[1] - 1) - t)
            p.settle(0.3)
            p.quit()
        self.pick_rows.append(dict(label=f"End on a {BIG_N:,}-photo album -> last photo's picture drawn, symbols "
                                         "(64x48 photos)", times=pictures, target="<= 150 ms",
                                   ok=statistics.median(pictures) <= 0.150))
        self.pick_rows.append(dict(label=f"End on a {BIG_N:,}-photo album -> frame naming the last photo",
                                   times=names, target="", ok=None))

    # -- the table

    def pick_table(self):
        L = [f"pickerctl pick on a pty, {PICK_COLS}x{PICK_ROWS} cells of {PICK_CELL[0]}x{PICK_CELL[1]} px "
             "(key's bytes written -> picture's last byte read; pick_pty.py)", "",
             "| scenario | n | median ms | p95 ms | min–max ms | target | |", "|---|---:|---:|---:|---:|---|---|"]
        for r in self.pick_rows:
            xs = r["times"]
            verdict = "" if r["ok"] is None else ("**met**" if r["ok"] else "**missed**")
            if not xs:
                L.append(f"| {r['label']} | 0 | | | | {r['target']} | {verdict} |")
                continue
            L.append(f"| {r['label']} | {len(xs)} | {ms(statistics.median(xs))} | {ms(percentile(xs, 0.95))} "
                     f"| {ms(min(xs))}–{ms(max(xs))} | {r['target']} | {verdict} |")
        return "\n".join(L + [""] + self.pick_notes)
