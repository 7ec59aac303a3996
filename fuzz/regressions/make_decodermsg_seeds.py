#!/usr/bin/env python3
"""Seeds of the "decodermsg" fuzz target (the decoder worker's protocol, DecodeMessages.swift):
first byte 0 = a job, 1 = a result; then the message, big-endian, strings as u32 length + UTF-8.
    python3 fuzz/regressions/make_decodermsg_seeds.py   (writes fuzz/regressions/decodermsg/)"""
import os
import struct

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "decodermsg")


def string(text):
    b = text.encode()
    return struct.pack(">I", len(b)) + b


def job(kind, name, rest):
    return b"\x00" + bytes([1, kind]) + string(name) + struct.pack(">QQ", 200_000_000, 2_270_597) + rest


seeds = {
    "job-fitted.bin": job(1, "IMG_0042.jpg", struct.pack(">II?", 1280, 960, False)),
    "job-fitted-width-only.bin": job(1, "a.png", struct.pack(">II?", 640, 0, True)),
    "job-upright.bin": job(2, "b.heic", struct.pack(">II?", 96, 64, True)),
    "job-upright-full.bin": job(2, "c.webp", struct.pack(">II?", 0, 0, False)),
    "job-embedded-thumbnail.bin": job(3, "d.jpg", struct.pack(">BIIBII", 1, 5760, 3840, 6, 100, 150)),
    "job-cell.bin": job(4, "f.avif", struct.pack(">I", 100)),
    "job-misbehave-crash.bin": job(100, "misbehave-crash.png", b""),
    "job-unknown-kind.bin": job(77, "e.png", b""),
    "result-pixels.bin": b"\x01\x00" + struct.pack(">IIB", 800, 533, 3),
    "result-error.bin": b"\x01\x01" + struct.pack(">H", 20) + string("x.jpg: corrupt JPEG data: premature end"),
    "result-none.bin": b"\x01\x02",
}
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print("%d seeds in %s" % (len(seeds), out))
