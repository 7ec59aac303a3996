#!/usr/bin/python3
"""Pillow as the benchmark's third competitor, timed inside one long-lived process.

Reads one JSON request a line on stdin, answers one JSON line on stdout:
  {"op": "fit", "src": F, "dst": OUT.png, "w": 600, "h": 400}
      open + draft (JPEG DCT scaling to at least 2x the box, as Image.thumbnail
      does with reducing_gap=2) + EXIF transpose + LANCZOS resize to fit + PNG
      save (Pillow's defaults) -> {"t": seconds, "w": W, "h": H}
  {"op": "thumbs", "srcs": [...], "dir": D, "size": 100}
      the same per file, but fill-and-crop (ImageOps.fit, centre) to size x size
      -> {"t": seconds for all files}
  {"op": "quit"}
Interpreter start-up and imports are not in the times (they would add ~60 ms
a command): this is Pillow's best case, as a library inside a running program.
"""
import json
import os
import sys
import time

from PIL import Image, ImageOps


def fit_size(w, h, bw, bh):
    """Largest size with w:h inside bw x bh, never upscaled, each side >= 1."""
    if w <= bw and h <= bh:
        return w, h
    s = min(bw / w, bh / h)
    return max(1, int(w * s)), max(1, int(h * s))


def upright_size(im):
    o = im.getexif().get(0x0112, 1)
    w, h = im.size
    return (h, w) if o in (5, 6, 7, 8) else (w, h)


def fit(src, dst, bw, bh):
    im = Image.open(src)
    uw, uh = upright_size(im)
    tw, th = fit_size(uw, uh, bw, bh)
    # draft works in stored axes
    dw, dh = (2 * th, 2 * tw) if (uw, uh) != im.size else (2 * tw, 2 * th)
    im.draft("RGB", (dw, dh))
    im = ImageOps.exif_transpose(im)
    if im.mode not in ("RGB", "RGBA"):
        im = im.convert("RGBA" if "A" in im.mode or "transparency" in im.info else "RGB")
    im = im.resize((tw, th), Image.LANCZOS)
    im.save(dst)
    return tw, th


def thumb(src, dst, size):
    im = Image.open(src)
    im.draft("RGB", (2 * size, 2 * size))
    im = ImageOps.exif_transpose(im).convert("RGB")
    ImageOps.fit(im, (size, size), Image.LANCZOS).save(dst)


def main():
    for line in sys.stdin:
        req = json.loads(line)
        op = req["op"]
        if op == "quit":
            break
        t0 = time.perf_counter()
        if op == "fit":
            w, h = fit(req["src"], req["dst"], req["w"], req["h"])
            out = {"t": time.perf_counter() - t0, "w": w, "h": h}
        elif op == "thumbs":
            for i, src in enumerate(req["srcs"]):
                thumb(src, os.path.join(req["dir"], f"{i}.png"), req["size"])
            out = {"t": time.perf_counter() - t0}
        else:
            out = {"error": f"unknown op {op}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
