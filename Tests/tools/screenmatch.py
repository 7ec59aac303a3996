#!/usr/bin/env python3
"""Finds a picture on a screenshot: where it matches best, and how well.

usage: screenmatch.py SCREENSHOT REFERENCE [--fit WxH]

--fit resizes the reference to WxH first: a terminal that scales a picture to cells (kitty's c=, r=)
shows it at the size of those cells, not at its own.

Both are read with Pillow (PPM/PNG). The reference is searched over the whole screenshot at a quarter of
the size (Pillow's C code does the per-offset work). Prints JSON:
  {"x": .., "y": .., "mad": mean absolute difference at the best place (0-255, all channels),
   "baseline": the same against the screenshot's mean colour (how far a flat guess would be),
   "region_mean" / "reference_mean": mean R, G, B of the matched region and of the reference,
   "screen": [w, h], "reference": [w, h]}
"""
import json
import sys

from PIL import Image, ImageChops, ImageStat

SCALE = 4


def mad(a, b):
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def main():
    screen = Image.open(sys.argv[1]).convert("RGB")
    reference = Image.open(sys.argv[2]).convert("RGB")
    if len(sys.argv) == 5 and sys.argv[3] == "--fit":
        width, height = (int(v) for v in sys.argv[4].split("x"))
        reference = reference.resize((width, height), Image.LANCZOS)
    small_screen = screen.resize((screen.width // SCALE, screen.height // SCALE), Image.BOX)
    small_ref = reference.resize((max(1, reference.width // SCALE), max(1, reference.height // SCALE)), Image.BOX)
    best = None
    for y in range(0, small_screen.height - small_ref.height + 1):
        for x in range(0, small_screen.width - small_ref.width + 1):
            crop = small_screen.crop((x, y, x + small_ref.width, y + small_ref.height))
            d = mad(crop, small_ref)
            if best is None or d < best[0]:
                best = (d, x, y)
    if best is None:
        print(json.dumps({"error": "reference larger than screenshot"}))
        return
    _, x, y = best
    # Refine at full size around the best coarse place.
    fine = None
    for fy in range(max(0, y * SCALE - SCALE), min(screen.height - reference.height, y * SCALE + SCALE) + 1):
        for fx in range(max(0, x * SCALE - SCALE), min(screen.width - reference.width, x * SCALE + SCALE) + 1):
            d = mad(screen.crop((fx, fy, fx + reference.width, fy + reference.height)), reference)
            if fine is None or d < fine[0]:
                fine = (d, fx, fy)
    d, fx, fy = fine if fine else (best[0], x * SCALE, y * SCALE)
    flat = Image.new("RGB", reference.size, tuple(int(v) for v in ImageStat.Stat(screen).mean))
    region = screen.crop((fx, fy, fx + reference.width, fy + reference.height))
    print(json.dumps({"x": fx, "y": fy, "mad": round(d, 2), "baseline": round(mad(flat, reference), 2),
                      "region_mean": [round(v, 1) for v in ImageStat.Stat(region).mean],
                      "reference_mean": [round(v, 1) for v in ImageStat.Stat(reference).mean],
                      "screen": [screen.width, screen.height], "reference": [reference.width, reference.height]}))


if __name__ == "__main__":
    main()
