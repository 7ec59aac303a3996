#!/usr/bin/env python3
"""Independent image checks for the end-to-end tests (Pillow, not pickerd's code).

  imagecheck.py info FILE
      {"format", "width", "height", "mode"}
  imagecheck.py compare OUTPUT REFERENCE [--upright] [--turn-left]
      Mean absolute difference per channel (0-255) between OUTPUT and REFERENCE
      scaled to OUTPUT's size with a full decode and Lanczos. --upright applies the
      reference's EXIF orientation first; each --turn-left turns it 90 degrees anticlockwise; --crop X,Y,W,H
      then cuts that rectangle out of it. {"mad", "edge_mad" (outermost rows and
      columns only: catches dark borders from a bad resample), "channel_mad" ([R, G, B]), "width", "height"}
  imagecheck.py regions FILE '[[x, y, w, h], ...]'
      Mean brightness (0-255) of each rectangle.
  imagecheck.py text FILE
      A PNG's tEXt/iTXt chunks as a JSON object.
"""
import json
import sys

from PIL import Image, ImageOps, ImageStat


def rgb(img):
    if img.mode in ("RGBA", "LA", "P"):
        img = img.convert("RGBA")
        background = Image.new("RGBA", img.size, (255, 255, 255, 255))
        img = Image.alpha_composite(background, img)
    return img.convert("RGB")


def main(argv):
    cmd = argv[1]
    if cmd == "info":
        with Image.open(argv[2]) as im:
            im.load()
            print(json.dumps({"format": im.format, "width": im.width, "height": im.height, "mode": im.mode}))
    elif cmd == "compare":
        out = rgb(Image.open(argv[2]))
        ref = Image.open(argv[3])
        if "--upright" in argv:
            ref = ImageOps.exif_transpose(ref)
        for _ in range(argv.count("--turn-left")):
            ref = ref.transpose(Image.Transpose.ROTATE_90)
        if "--crop" in argv:
            x, y, w, h = (int(v) for v in argv[argv.index("--crop") + 1].split(","))
            ref = ref.crop((x, y, x + w, y + h))
        ref = rgb(ref).resize(out.size, Image.LANCZOS)
        diff = [abs(a - b) for a, b in zip(out.tobytes(), ref.tobytes())]
        w, h = out.size
        edge = []
        for box in ((0, 0, w, 1), (0, h - 1, w, h), (0, 0, 1, h), (w - 1, 0, w, h)):
            edge += [abs(a - b) for a, b in zip(out.crop(box).tobytes(), ref.crop(box).tobytes())]
        channels = [sum(diff[c::3]) / max(1, len(diff) // 3) for c in range(3)]
        print(json.dumps({"mad": sum(diff) / max(1, len(diff)), "edge_mad": sum(edge) / max(1, len(edge)),
                          "channel_mad": channels, "width": out.width, "height": out.height}))
    elif cmd == "regions":
        im = rgb(Image.open(argv[2])).convert("L")
        boxes = json.loads(argv[3])
        print(json.dumps([ImageStat.Stat(im.crop((x, y, x + w, y + h))).mean[0] for x, y, w, h in boxes]))
    elif cmd == "text":
        with Image.open(argv[2]) as im:
            print(json.dumps(dict(im.text)))
    else:
        print("unknown command", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
