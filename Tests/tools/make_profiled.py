#!/usr/bin/env python3
"""Writes a copy of a picture with a given ICC profile embedded, for colour-management tests.

  make_profiled.py SOURCE OUTPUT PROFILE_FILE|garbage
      OUTPUT's extension picks the format (.jpg: APP2 chunks, .png: iCCP, .webp: ICCP).
      `garbage` embeds 3000 bytes that are no ICC profile (an ICC-sized header of junk).
The pixels are SOURCE's, unconverted: a viewer that ignores the profile shows SOURCE.
"""
import sys

from PIL import Image


def main(argv):
    source, output, profile = argv[1], argv[2], argv[3]
    if profile == "garbage":
        icc = bytes((i * 37 + 11) % 256 for i in range(3000))
    else:
        with open(profile, "rb") as f:
            icc = f.read()
    img = Image.open(source).convert("RGB")
    options = {"icc_profile": icc}
    if output.endswith(".jpg"):
        options["quality"] = 95
    img.save(output, **options)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
