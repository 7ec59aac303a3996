#!/usr/bin/env python3
"""How much of a screen rectangle is not the terminal's background, and where the rest sits.

usage: panecover.py SCREENSHOT LEFT TOP RIGHT BOTTOM [BACKGROUND]

BACKGROUND is the terminal's background as RRGGBB (default ffffff: xterm's default, black on white). Prints JSON:
  {"covered": fraction of the rectangle's pixels differing from the background by more than 24 (any channel),
   "box": [left, top, right, bottom] (screen coordinates) of the rows and columns more than a quarter covered
          (a picture; lines of text are not), or null}
"""
import json
import sys

from PIL import Image, ImageChops


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
    box = (columns[0], rows[0], columns[-1] + 1, rows[-1] + 1) if columns and rows else None
    print(json.dumps({"covered": round(covered, 3), "background": background,
                      "box": [box[0] + left, box[1] + top, box[2] + left, box[3] + top] if box else None}))


if __name__ == "__main__":
    main()
