#!/usr/bin/python3
"""Builds the big photo library for `make bench-library` (Python stdlib + Pillow).

    big_library.py CAMERA_JPEG OUT_DIR --photos N [--per-folder 1000] [--rebuild]

OUT_DIR gets N small JPEGs (64x48, baseline, q75) in folders of --per-folder files
(f000/IMG_000000.jpg ...). Every file carries the camera's APP1/Exif block byte for byte,
with its own DateTimeOriginal (and DateTime, DateTimeDigitized): one second apart, so every
photo has a distinct date and `--sort date` has an order to find. Each file is written
separately (its own inode, its own page-cache pages): no hard links, no reflinks.

Building is fast: one template file is made with Pillow, then every photo is that template
with 19 date bytes patched at known offsets. OUT_DIR/.complete records what was built; a
second run with the same N and camera file reuses the folder unless --rebuild.
"""
import argparse
import datetime
import hashlib
import io
import json
import os
import shutil
import struct
import sys
import time

from PIL import Image

SIZE = (64, 48)
DATE_TAGS = {0x0132: "DateTime", 0x9003: "DateTimeOriginal", 0x9004: "DateTimeDigitized"}
EXIF_IFD_POINTER = 0x8769
FIRST_DATE = datetime.datetime(2015, 1, 1, 8, 0, 0)
MARKER = ".complete"


def exif_app1(path):
    """The whole APP1 segment (marker, length, 'Exif\\0\\0' payload) of a JPEG, or exit."""
    with open(path, "rb") as f:
        data = f.read(1 << 20)
    if data[:2] != b"\xff\xd8":
        sys.exit(f"big_library: {path} is not a JPEG")
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if marker == 0xE1 and data[i + 4:i + 10] == b"Exif\x00\x00":
            return data[i:i + 2 + length]
        if marker == 0xDA:
            break
        i += 2 + length
    sys.exit(f"big_library: {path} has no APP1/Exif block")


def date_offsets(app1):
    """Offsets in `app1` of the 19-byte ASCII values of the date tags found (IFD0 and Exif IFD)."""
    tiff = 10  # FF E1, length (2), "Exif\0\0"
    order = {b"II": "<", b"MM": ">"}.get(app1[tiff:tiff + 2])
    if order is None:
        sys.exit("big_library: the Exif block has no TIFF header")

    def u16(o):
        return struct.unpack(order + "H", app1[tiff + o:tiff + o + 2])[0]

    def u32(o):
        return struct.unpack(order + "I", app1[tiff + o:tiff + o + 4])[0]

    found = {}

    def walk(ifd):
        for k in range(u16(ifd)):
            entry = ifd + 2 + 12 * k
            tag, kind, count = u16(entry), u16(entry + 2), u32(entry + 4)
            if tag in DATE_TAGS and kind == 2 and count >= 20:
                found[DATE_TAGS[tag]] = tiff + u32(entry + 8)
            elif tag == EXIF_IFD_POINTER:
                walk(u32(entry + 8))

    walk(u32(4))
    if "DateTimeOriginal" not in found:
        sys.exit("big_library: the Exif block has no DateTimeOriginal")
    return sorted(found.values())


def template(camera_jpeg):
    """(template bytes, offsets of the date values in it): a 64x48 JPEG with the camera's APP1."""
    app1 = exif_app1(camera_jpeg)
    offsets = date_offsets(app1)
    im = Image.new("RGB", SIZE)
    im.putdata([(x * 4, y * 5, 128) for y in range(SIZE[1]) for x in range(SIZE[0])])
    buf = io.BytesIO()
    im.save(buf, format="JPEG", quality=75)
    plain = buf.getvalue()
    # SOI, the camera's APP1 first (where readers expect it), then Pillow's segments after SOI.
    body = plain[2:]
    if body[:2] == b"\xff\xe0":  # drop JFIF APP0: a camera file has Exif, not JFIF
        (n,) = struct.unpack(">H", body[2:4])
        body = body[2 + n:]
    data = b"\xff\xd8" + app1 + body
    offsets = [2 + o for o in offsets]
    check(data, offsets)
    return data, offsets


def check(data, offsets):
    """Exits unless Pillow decodes a patched copy and reads its DateTimeOriginal back."""
    probe = bytearray(data)
    for o in offsets:
        probe[o:o + 19] = date_bytes(1)
    im = Image.open(io.BytesIO(bytes(probe)))
    im.load()
    original = im.getexif().get_ifd(EXIF_IFD_POINTER).get(0x9003)
    if im.size != SIZE or original != date_bytes(1).decode():
        sys.exit(f"big_library: the template does not read back ({im.size}, DateTimeOriginal {original!r})")


def photo_path(out, index, per_folder):
    return os.path.join(out, f"f{index // per_folder:03d}", f"IMG_{index:06d}.jpg")


def date_bytes(index):
    return (FIRST_DATE + datetime.timedelta(seconds=index)).strftime("%Y:%m:%d %H:%M:%S").encode()


def stamp(camera_jpeg, photos, per_folder):
    with open(camera_jpeg, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    return {"photos": photos, "per_folder": per_folder, "camera": os.path.basename(camera_jpeg),
            "camera_sha256": digest, "size": list(SIZE), "version": 1}


def build(camera_jpeg, out, photos, per_folder=1000, rebuild=False, log=print):
    """Makes (or reuses) the library; returns (reused?, seconds, bytes of one photo)."""
    want = stamp(camera_jpeg, photos, per_folder)
    data, offsets = template(camera_jpeg)
    marker = os.path.join(out, MARKER)
    if not rebuild and os.path.exists(marker):
        try:
            with open(marker) as f:
                if json.load(f) == want:
                    return True, 0.0, len(data)
        except (OSError, ValueError):
            pass
    if os.path.isdir(out) and os.listdir(out) and not os.path.exists(marker):
        sys.exit(f"big_library: {out} is not empty and was not made here; not touching it")
    t0 = time.perf_counter()
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    buf = bytearray(data)
    for folder in range((photos + per_folder - 1) // per_folder):
        os.mkdir(os.path.join(out, f"f{folder:03d}"))
    for i in range(photos):
        stamp_bytes = date_bytes(i)
        for o in offsets:
            buf[o:o + 19] = stamp_bytes
        fd = os.open(photo_path(out, i, per_folder), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, buf)
        finally:
            os.close(fd)
        if log and i and i % 100000 == 0:
            log(f"big_library: {i} of {photos} photos written")
    with open(marker, "w") as f:
        json.dump(want, f)
    return False, time.perf_counter() - t0, len(data)


def main(argv):
    ap = argparse.ArgumentParser(description="Builds the big library for make bench-library.")
    ap.add_argument("camera_jpeg")
    ap.add_argument("out")
    ap.add_argument("--photos", type=int, required=True)
    ap.add_argument("--per-folder", type=int, default=1000)
    ap.add_argument("--rebuild", action="store_true")
    a = ap.parse_args(argv[1:])
    reused, secs, size = build(a.camera_jpeg, a.out, a.photos, a.per_folder, a.rebuild)
    print(f"big_library: {a.out}: {a.photos} photos of {size} bytes, "
          + ("reused" if reused else f"built in {secs:.1f} s"))


if __name__ == "__main__":
    main(sys.argv)
