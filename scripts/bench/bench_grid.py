"""bench.py's thumbnail-grid row: pickerd's cold grid cells on distinct files against vipsthumbnail,
convert and Pillow making the same cells. A mixin of `Bench`."""
import json
import os
import subprocess
import sys
import threading
import time

from bench_run import CELL, HERE, must
from bench_support import Wire


class GridScenarios:
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
