"""bench.py's format rows (HEIC, GIF, JPEG XL, RAW): pickerd's cold get-image of one file against
vipsthumbnail on the same file (`compare_with_vips`), and the RAW grid. A mixin of `Bench`."""
import os
import shutil
import signal

from bench_run import CELL, PANE, must, spawn

HEIC_BENCH_FILE = "heic/ianare_iphone_13_pro_max.heic"
JXL_BENCH_FILE = "jxl/immich_8bit-sRGB.jxl"  # the corpus's one real JPEG XL photo (1440x1080, 1.7 MB)
JXL_CAMERA_NAME = "camera-22mp-lossy.jxl"  # made at bench time by cjxl from the largest camera JPEG
# RAW rows: the largest RAW files the corpus has (no full-size RAW of 4 MiB or more was found with a licence).
RAW_BENCH_FILES = ["raw/photoprism_canon_eos_6d.dng", "raw/nomexif_canon-r6_truncated.cr3"]
# Each format's grid album holds this many copies of each of its files (distinct files, not links).
FORMAT_GRID_COPIES = 10


class FormatScenarios:
    def copy_for_format_rows(self, src, album):
        """src into the format's album and FORMAT_GRID_COPIES copies into its grid album (ALBUMgrid)."""
        for a in (album, album + "grid"):
            os.makedirs(os.path.join(self.lib, a), exist_ok=True)
        shutil.copyfile(src, os.path.join(self.lib, album, os.path.basename(src)))
        stem, ext = os.path.splitext(os.path.basename(src))
        for i in range(FORMAT_GRID_COPIES):
            shutil.copyfile(src, os.path.join(self.lib, album + "grid", f"{stem}-{i:02d}{ext}"))

    def format_grid_row(self, album, label, runs, ref_times, ref_name):
        """One `thumbnails` grid of album's copies at CELL px, cold on a fresh daemon without shared
        thumbnails, each run: the whole command's time divided by the cells (start-up included)."""
        cells = sorted(os.listdir(os.path.join(self.lib, album)))
        per_cell = []
        for rep in range(runs):
            gp, gsock = self.start_daemon(f"{album}{rep}", fresh_cache=True)
            side = 10 * CELL + 9 * 10  # room for 100 cells, as the grid row: every cell is drawn
            must(self.ctl(gsock, "session", "new", "--width", str(side), "--height", str(side)))
            must(self.ctl(gsock, "select-album", album))
            t = must(self.ctl(gsock, "-o", os.path.join(self.out, f"{album}.png"), "thumbnails", "--size", str(CELL)))
            per_cell.append(t / len(cells))
            gp.send_signal(signal.SIGTERM)  # only this one: the main daemon serves the rows after
            gp.wait(10)
            self.daemons.remove(gp)
        self.rows.append(dict(label=f"cold thumbnails grid, {len(cells)} {label} cells of {CELL} px (per cell, whole command)",
                              times={"pickerd": per_cell, "ref": ref_times}, ref_name=ref_name, n=runs))

    def compare_with_vips(self, sock, album, name, label, runs, key, vips_may_fail=False):
        """One row: pickerd's cold get-image of album/name against vipsthumbnail on the same file,
        run by run in turn. With vips_may_fail a file vips cannot read gets a note and no ratio."""
        src = os.path.join(self.lib, album, name)
        must(self.ctl(sock, "select-album", album))
        must(self.ctl(sock, "select-photo", name))
        times = {"pickerd": [], "ref": []}
        for i in range(runs):
            times["pickerd"].append(self.t_pickerd(sock, album, name, os.path.join(self.out, f"{key}-pickerd-{i}.png")))
            vips = [self.vips, src, "-s", f"{PANE[0]}x{PANE[1]}", "-o", os.path.join(self.out, f"{key}-vips-{i}.png")]
            if not vips_may_fail:
                times["ref"].append(must(vips))
                continue
            t, rc, _ = spawn(vips)
            if rc == 0:
                times["ref"].append(t)
        if not times["ref"]:
            self.notes.append(f"{name}: vipsthumbnail cannot read it (no LibRaw loader in vips 8.14; ImageMagick fails).")
            times["ref"] = [float("nan")]
        self.rows.append(dict(label=label, times=times, ref_name="vipsthumbnail", n=runs))

    def heic_scenario(self, sock, runs):
        """HEIC 12 MP -> 600x400, cold, against vipsthumbnail on the same file (Debian's vips reads
        HEIC through libheif too; Pillow and convert are left out: Debian's Pillow has no HEIF)."""
        album = os.path.join(self.lib, "heic")
        names = sorted(os.listdir(album)) if os.path.isdir(album) else []
        if not names:
            self.notes.append(f"HEIC row skipped: the corpus has no {HEIC_BENCH_FILE}.")
            return
        self.compare_with_vips(sock, "heic", names[0], "cold get-image --no-cache, HEIC 12 MP (iPhone: HEVC grid + irot) -> 600x400",
                               runs, "heic")
        # Issue 27: a HEIC grid cell from the file's `thmb` item, <= 5 ms.
        self.format_grid_row("heicgrid", "HEIC", runs, [0.005], "5 ms target")

    def make_gif_album(self):
        """The GIF row's album (before the daemon starts): the corpus's largest animation and a 3-frame
        2400x1600 animation made by Pillow from the first camera photo."""
        album = os.path.join(self.lib, "gif")
        os.makedirs(album, exist_ok=True)
        chi = os.path.join(self.args.testdata, "gif/pillow_chi.gif")
        if os.path.exists(chi):
            shutil.copyfile(chi, os.path.join(album, "chi.gif"))
        try:
            from PIL import Image
            photo = Image.open(os.path.join(self.lib, "camera", self.camera[0])).convert("RGB").resize((2400, 1600))
            frames = [photo.quantize(256), photo.rotate(180).quantize(256), photo.transpose(Image.FLIP_LEFT_RIGHT).quantize(256)]
            frames[0].save(os.path.join(album, "big.gif"), save_all=True, append_images=frames[1:], duration=100, loop=0)
        except Exception as e:  # no Pillow, or no camera photo: the corpus file alone
            self.notes.append(f"GIF row: no generated 2400x1600 GIF ({e}).")

    def gif_scenario(self, sock, runs):
        """GIF first frame -> 600x400, cold, against vipsthumbnail (which reads page 0 only by default;
        convert decodes every frame of an animation, so it is left out)."""
        album = os.path.join(self.lib, "gif")
        for name, label in (("big.gif", "animated GIF 2400x1600 (3 frames, made by Pillow)"),
                            ("chi.gif", "animated GIF 320x240 (31 frames, corpus pillow_chi.gif)")):
            if os.path.exists(os.path.join(album, name)):
                self.compare_with_vips(sock, "gif", name, f"cold get-image --no-cache, {label}, first frame -> 600x400",
                                       runs, "gif")
        self.notes.append("GIF rows: vipsthumbnail -s 600x400 upscales the 320x240 file to 533x400 (pickerd never "
                          "upscales), so that row times start-up and GIF reading more than resampling.")

    def make_jxl_album(self):
        """The JPEG XL rows' album (before the daemon starts): the corpus's one real JPEG XL photo, and a
        lossy (VarDCT) JPEG XL of the largest camera JPEG made by cjxl, whose copies fill the grid album."""
        corpus = os.path.join(self.args.testdata, JXL_BENCH_FILE)
        if os.path.exists(corpus):
            os.makedirs(os.path.join(self.lib, "jxl"), exist_ok=True)
            shutil.copyfile(corpus, os.path.join(self.lib, "jxl", os.path.basename(corpus)))
        src = max((os.path.join(self.lib, "camera", n) for n in self.camera), key=os.path.getsize, default=None)
        made = os.path.join(self.out, JXL_CAMERA_NAME)
        cjxl = shutil.which("cjxl")
        if not src or not cjxl or spawn([cjxl, src, made, "--lossless_jpeg=0", "-d", "1.0", "-e", "3"])[1] != 0:
            self.notes.append("JPEG XL camera row skipped: no cjxl (libjxl-tools) or no camera photo.")
            return
        self.copy_for_format_rows(made, "jxl")

    def jxl_scenario(self, sock, runs):
        """JPEG XL -> 600x400, cold, against vipsthumbnail (Debian's vips 8.14 reads JXL through the
        same libjxl 0.7, with its own threads); then the grid of the camera file's copies."""
        album = os.path.join(self.lib, "jxl")
        names = sorted(os.listdir(album)) if os.path.isdir(album) else []
        if not names:
            self.notes.append(f"JPEG XL rows skipped: no {JXL_BENCH_FILE} in the corpus and no cjxl.")
            return
        labels = {os.path.basename(JXL_BENCH_FILE): "JPEG XL 1440x1080 lossless (immich)",
                  JXL_CAMERA_NAME: "JPEG XL 22 MP lossy (cjxl -d 1 of a camera JPEG)"}
        full = [float("nan")]
        for name in names:
            self.compare_with_vips(sock, "jxl", name, f"cold get-image --no-cache, {labels.get(name, name)} -> 600x400", runs, "jxl")
            if name == JXL_CAMERA_NAME:
                full = self.rows[-1]["times"]["pickerd"]
        if os.path.isdir(os.path.join(self.lib, "jxlgrid")):
            # Issue 27: a cell <= 0.3x of a full decode of the same file (its row above, pickerd's times).
            self.format_grid_row("jxlgrid", "JPEG XL 22 MP", runs, full, "cold get-image of the file")

    def raw_scenario(self, sock, runs):
        """RAW -> 600x400 by its embedded preview, cold, against vipsthumbnail on the same file (vips 8.14
        has no LibRaw loader: it reads a DNG through libtiff's tiffload, which takes IFD0 - the 256x171
        thumbnail - and upscales it; CR3 goes to magickload, which fails). Then one `thumbnails` grid
        of the rawgrid album (copies of both), cold on a fresh daemon without shared thumbnails: per cell."""
        album = os.path.join(self.lib, "raw")
        names = sorted(os.listdir(album)) if os.path.isdir(album) else []
        if not names:
            self.notes.append("RAW rows skipped: the corpus has no raw/ files.")
            return
        for name in names:
            self.compare_with_vips(sock, "raw", name, f"cold get-image --no-cache, RAW {name} (embedded preview) -> 600x400",
                                   runs, "raw", vips_may_fail=True)
        self.format_grid_row("rawgrid", "RAW", runs, [0.025], "25 ms target")
