"""Writes small JPEGs with a chosen EXIF DateTimeOriginal, for the sort-order tests.

usage: make_dated_jpegs.py ROOT PATH=DATE ...
  PATH is relative to ROOT (folders are made); DATE is "YYYY:MM:DD HH:MM:SS", or empty for a JPEG
  without EXIF. Each file gets its own flat colour. Needs Pillow (Debian: /usr/bin/python3).
"""
import os
import struct
import sys

from PIL import Image

EXIF_IFD = 0x8769
DATE_TIME_ORIGINAL = 0x9003


def exif_with_date(date):
    """A big-endian TIFF block: IFD0 holding only the Exif IFD pointer, and an Exif IFD holding
    only DateTimeOriginal (written by hand: this Pillow (9.4) drops sub-IFDs it is given)."""
    value = date.encode("ascii") + b"\0"
    ifd0 = 8
    exif_ifd = ifd0 + 2 + 12 + 4
    data_at = exif_ifd + 2 + 12 + 4
    out = b"MM\0\x2a" + struct.pack(">I", ifd0)
    out += struct.pack(">H", 1) + struct.pack(">HHII", EXIF_IFD, 4, 1, exif_ifd) + struct.pack(">I", 0)
    out += struct.pack(">H", 1) + struct.pack(">HHII", DATE_TIME_ORIGINAL, 2, len(value), data_at) + struct.pack(">I", 0)
    return b"Exif\0\0" + out + value


def main(argv):
    root = argv[1]
    for n, spec in enumerate(argv[2:]):
        path, _, date = spec.partition("=")
        dest = os.path.join(root, path)
        os.makedirs(os.path.dirname(dest) or root, exist_ok=True)
        image = Image.new("RGB", (64, 48), ((n * 53) % 256, (n * 97) % 256, (n * 151) % 256))
        if date:
            image.save(dest, "JPEG", quality=90, exif=exif_with_date(date))
        else:
            image.save(dest, "JPEG", quality=90)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
