#!/usr/bin/python3
"""Builds the benchmark library for `make bench` (Python stdlib + Pillow).

    make_library.py CAMERA_DIR OUT_DIR [--grid N]

OUT_DIR gets three albums:
  camera/  the camera JPEGs of CAMERA_DIR (12-22 MP) and 3 copies of each
           (copies have their own path, so no cache or page sharing by name)
  big/     24 MP (6000x4000) files made from the largest camera photo, upscaled:
           big_baseline.jpg (q90, 4:2:0), big_progressive.jpg (same, progressive),
           big.webp (q90), big.png (8-bit RGB, zlib 6)
  grid/    N (default 100) JPEGs for the thumbnail scenario: hard links (or
           copies) of the camera photos, cycled, 12-22 MP each
Prints one line per file made. Re-running over an existing OUT_DIR is fine.
"""
import os
import shutil
import sys

from PIL import Image, ImageOps

BIG = (6000, 4000)


def link_or_copy(src, dst):
    if os.path.exists(dst):
        return
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


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

    # grid/: N real camera JPEGs (hard links where possible, so generation stays cheap)
    for i in range(grid_n):
        p = photos[i % len(photos)]
        link_or_copy(p, os.path.join(out, "grid", f"cell_{i + 1:03d}.jpg"))
    print(f"make_library: {out}: camera {4 * len(photos)}, big {len(targets)}, grid {grid_n}")


if __name__ == "__main__":
    main(sys.argv)
