#!/usr/bin/env python3
"""Writes animated pictures for AnimationInfoTests with Pillow, and prints, as JSON, what Pillow reads
back from each (and from the extra files named): {"name": {"frames": N, "duration_ms": total}}.

usage: make_animations.py FOLDER [EXTRA_FILE...]
"""
import json
import os
import sys

from PIL import Image


def frames(colours, size=(64, 48)):
    return [Image.new("RGB", size, c) for c in colours]


def measure(path):
    with Image.open(path) as im:
        n = getattr(im, "n_frames", 1)
        total = 0
        for i in range(n):
            im.seek(i)
            im.load()  # WebP sets a frame's duration when the frame is loaded
            total += int(im.info.get("duration", 0))
        return {"frames": n, "duration_ms": total}


folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
made = {
    "spin.gif": dict(format="GIF", duration=[100, 200, 300], loop=0),
    "spin.png": dict(format="PNG", duration=[150, 250], loop=0),
    "spin.webp": dict(format="WEBP", duration=[80, 120, 160, 200], loop=0, lossless=True),
}
colours = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
for name, options in made.items():
    count = len(options["duration"])
    first, *rest = frames(colours[:count])
    first.save(os.path.join(folder, name), save_all=True, append_images=rest, **options)
Image.new("RGB", (64, 48), (9, 9, 9)).save(os.path.join(folder, "still.gif"))
Image.new("RGB", (64, 48), (9, 9, 9)).save(os.path.join(folder, "still.png"))
names = sorted(made) + ["still.gif", "still.png"]
result = {n: measure(os.path.join(folder, n)) for n in names}
for extra in sys.argv[2:]:
    result[os.path.basename(extra)] = measure(extra)
print(json.dumps(result))
