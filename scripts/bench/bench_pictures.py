"""bench.py's picture rows: camera JPEGs and the big JPEG fitted to the pane against vipsthumbnail,
convert and Pillow; colour-managed files; warm (cached) and browsing get-image; ping. A mixin of `Bench`."""
import os
import statistics
import subprocess
import time

import bench_run
from bench_run import PANE, must, proc_cpu
from bench_support import forget_references, psnr


class PictureScenarios:
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
        forget_references()
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
