#!/usr/bin/env python3
"""Pictures made and read by Pillow for the README-claims tests (not pickerd's code).

  claimimages.py solid FILE W H R G B
      A solid-colour picture; the format follows FILE's extension. PNGs are stored
      uncompressed, so two of the same size have the same byte count whatever the colour.
  claimimages.py dated FILE W H 'YYYY:MM:DD HH:MM:SS'
      A grey JPEG whose EXIF carries that DateTimeOriginal.
  claimimages.py pixels FILE '[[x, y], ...]'
      The RGB of each pixel, as a JSON list of [r, g, b].
  claimimages.py fill FILE '[x, y, w, h]' THRESHOLD
      Fraction of the box's pixels brighter than THRESHOLD (luma), and of the rest of the picture.
"""
import json
import sys

from PIL import Image


def main(argv):
    cmd = argv[1]
    if cmd == "solid":
        path, w, h, r, g, b = argv[2], int(argv[3]), int(argv[4]), int(argv[5]), int(argv[6]), int(argv[7])
        im = Image.new("RGB", (w, h), (r, g, b))
        if path.lower().endswith(".png"):
            im.save(path, compress_level=0)
        else:
            im.save(path, quality=95)
    elif cmd == "dated":
        path, w, h, when = argv[2], int(argv[3]), int(argv[4]), argv[5]
        exif = Image.Exif()
        exif[0x8769] = {0x9003: when}  # Exif IFD: DateTimeOriginal
        Image.new("RGB", (w, h), (120, 120, 120)).save(path, exif=exif.tobytes())
    elif cmd == "pixels":
        im = Image.open(argv[2]).convert("RGB")
        print(json.dumps([list(im.getpixel((x, y))) for x, y in json.loads(argv[3])]))
    elif cmd == "fill":
        im = Image.open(argv[2]).convert("L")
        x, y, w, h = json.loads(argv[3])
        threshold = int(argv[4])
        inside = outside = inside_n = outside_n = 0
        px = im.load()
        for j in range(im.height):
            for i in range(im.width):
                bright = px[i, j] > threshold
                if x <= i < x + w and y <= j < y + h:
                    inside_n += 1
                    inside += bright
                else:
                    outside_n += 1
                    outside += bright
        print(json.dumps({"inside": inside / max(1, inside_n), "outside": outside / max(1, outside_n)}))
    else:
        print("unknown command", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
