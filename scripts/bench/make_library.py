#!/usr/bin/python3
"""Builds the benchmark library for `make bench` (Python stdlib + Pillow).

    make_library.py CAMERA_DIR OUT_DIR [--grid N]

OUT_DIR gets three albums:
  camera/  the camera JPEGs of CAMERA_DIR (12-22 MP) and 3 copies of each
           (copies have their own path, so no cache or page sharing by name)
  big/     24 MP (6000x4000) files made from the largest camera photo, upscaled:
           big_baseline.jpg (q90, 4:2:0), big_progressive.jpg (same, progressive),
           big.webp (q90), big.png (8-bit RGB, zlib 6)
  grid/    N (default 100) distinct JPEGs for the thumbnail and browsing scenarios, a
           phone-album mix: each a different crop (90-100 % of both sides, same aspect, offset by
           its number) of a camera photo, re-encoded at quality 86-95, so contents and
           inodes differ (no cache or page sharing by identity); 8 of every 10 keep the
           camera's EXIF block (with its EXIF thumbnail, of the uncropped photo), the
           other 2 have no EXIF at all (no thumbnail: a decode per cell)
Prints one line per file made. Re-running over an existing OUT_DIR is fine.
"""
import os
import shutil
import sys

from PIL import Image, ImageOps

BIG = (6000, 4000)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    camera_dir, out = argv[1], argv[2]
    grid_n = int(argv[argv.index("--grid") + 1]) if "--grid" in argv else 100
    photos = sorted(
        os.path.join(camera_dir, f) for f in os.listdir(camera_dir)
        if f.lower().endswith((".jpg", ".jpeg")))
    if not photos:
        sys.exit(f"make_library: no camera JPEGs in {camera_dir}")
    for album in ("camera", "big", "grid"):
        os.makedirs(os.path.join(out, album), exist_ok=True)

    # camera/: originals plus copies (real copies: separate files, separate page-cache pages)
    for p in photos:
        stem, ext = os.path.splitext(os.path.basename(p))
        for i in range(4):
            dst = os.path.join(out, "camera", f"{stem}{ext}" if i == 0 else f"{stem}_copy{i}{ext}")
            if not os.path.exists(dst):
                shutil.copyfile(p, dst)

    # big/: 24 MP files in four encodings, from the largest photo, upright, upscaled.
    targets = {
        "big_baseline.jpg": dict(format="JPEG", quality=90, subsampling=2, optimize=False),
        "big_progressive.jpg": dict(format="JPEG", quality=90, subsampling=2, progressive=True),
        "big.webp": dict(format="WEBP", quality=90, method=4),
        "big.png": dict(format="PNG", compress_level=6),
    }
    missing = {n: o for n, o in targets.items() if not os.path.exists(os.path.join(out, "big", n))}
    if missing:
        largest = max(photos, key=lambda p: Image.open(p).size[0] * Image.open(p).size[1])
        src = ImageOps.exif_transpose(Image.open(largest)).convert("RGB")
        big = src.resize(BIG, Image.LANCZOS)
        for name, opts in missing.items():
            dst = os.path.join(out, "big", name)
            big.save(dst + ".tmp", **opts)
            os.replace(dst + ".tmp", dst)
            print(f"make_library: {dst} ({os.path.getsize(dst) // 1024} KiB)")

    # grid/: N distinct JPEGs. Hard links (the old way) shared one inode per source photo, so
    # pickerd's cell cache (keyed by device/inode) made 97 of 100 "cold" cells hits.
    sources = {}
    for i in range(grid_n):
        dst = os.path.join(out, "grid", f"cell_{i + 1:03d}.jpg")
        if os.path.exists(dst):
            continue
        p = photos[i % len(photos)]
        if p not in sources:
            im = Image.open(p)
            sources[p] = (im.convert("RGB"), im.info.get("exif", b""))
        im, exif = sources[p]
        # One scale for both sides: the picture keeps the aspect of its EXIF thumbnail, which
        # pickerd uses only when the aspects match (a real phone album's thumbnails do).
        fx = fy = 0.90 + (i * 7 % 11) / 100
        w, h = int(im.width * fx), int(im.height * fy)
        x0, y0 = (im.width - w) * (i % 5) // 4, (im.height - h) * (i % 3) // 2
        opts = dict(quality=86 + i % 10, subsampling=2)
        if i % 10 not in (3, 7) and exif:
            opts["exif"] = exif
        im.crop((x0, y0, x0 + w, y0 + h)).save(dst + ".tmp", "JPEG", **opts)
        os.replace(dst + ".tmp", dst)
    print(f"make_library: {out}: camera {4 * len(photos)}, big {len(targets)}, grid {grid_n}")


if __name__ == "__main__":
    main(sys.argv)
