#!/usr/bin/env python3
"""How much of a screen rectangle is not the terminal's background, and where the rest sits.

usage: panecover.py SCREENSHOT LEFT TOP RIGHT BOTTOM [BACKGROUND]

BACKGROUND is the terminal's background as RRGGBB (default ffffff: xterm's default, black on white). Prints JSON:
  {"covered": fraction of the rectangle's pixels differing from the background by more than 24 (any channel),
   "box": [left, top, right, bottom] (screen coordinates) of the longest runs of rows and of columns more than a
          quarter covered (a picture; lines of text and a window border are not), or null}
"""
import json
import sys

from PIL import Image, ImageChops


def longest_run(values):
    """The longest stretch of consecutive numbers in a sorted list, as [start, end): a window's
    one-pixel border line apart from the picture is not part of it."""
    best, start = (0, 0), None
    for i, v in enumerate(values):
        if start is None or v != values[i - 1] + 1:
            start = v
        if v + 1 - start > best[1] - best[0]:
            best = (start, v + 1)
    return best


def main():
    screen = Image.open(sys.argv[1]).convert("RGB")
    left, top, right, bottom = (int(v) for v in sys.argv[2:6])
    hex_colour = sys.argv[6] if len(sys.argv) > 6 else "ffffff"
    background = tuple(int(hex_colour[i:i + 2], 16) for i in (0, 2, 4))
    region = screen.crop((left, top, right, bottom))
    difference = ImageChops.difference(region, Image.new("RGB", region.size, background)).convert("L")
    mask = difference.point(lambda v: 255 if v > 24 else 0)
    covered = sum(1 for v in mask.getdata() if v) / max(1, region.width * region.height)
    pixels = mask.load()
    columns = [x for x in range(region.width) if sum(1 for y in range(region.height) if pixels[x, y]) * 4 > region.height]
    rows = [y for y in range(region.height) if sum(1 for x in range(region.width) if pixels[x, y]) * 4 > region.width]
    c0, c1 = longest_run(columns)
    r0, r1 = longest_run(rows)
    box = (c0, r0, c1, r1) if columns and rows else None
    print(json.dumps({"covered": round(covered, 3), "background": background,
                      "box": [box[0] + left, box[1] + top, box[2] + left, box[3] + top] if box else None}))


if __name__ == "__main__":
    main()
