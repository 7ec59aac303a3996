"""What bench.py's scenarios share: the wire connection, a file's bytes without its ICC profile, and
the quality check (a float Lanczos reference picture and PSNR against it)."""
import math
import os
import sys

from PIL import Image, ImageChops, ImageOps

# The wire codec is the Python client package's (clients/python), not a copy.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from pickerd_client import RawConnection  # noqa: E402
from pickerd_client.wire import MessageType as T  # noqa: E402


# Colour rows: corpus files with an embedded ICC profile, each beside a copy without it.
COLOUR_BENCH_FILES = ("colour/adobergb.jpg", "colour/prophoto.png")


def without_profile(data):
    """The file's bytes with its ICC profile removed (JPEG APP2 ICC_PROFILE segments, PNG iCCP)."""
    if data[:2] == b"\xff\xd8":
        out, i = bytearray(data[:2]), 2
        while i + 4 <= len(data) and data[i] == 0xFF and data[i + 1] not in (0xDA, 0xD9):
            n = int.from_bytes(data[i + 2:i + 4], "big")
            seg = data[i:i + 2 + n]
            if not (data[i + 1] == 0xE2 and seg[4:16] == b"ICC_PROFILE\0"):
                out += seg
            i += 2 + n
        return bytes(out + data[i:])
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        out, i = bytearray(data[:8]), 8
        while i + 8 <= len(data):
            n = int.from_bytes(data[i:i + 4], "big")
            if data[i + 4:i + 8] != b"iCCP":
                out += data[i:i + 12 + n]
            i += 12 + n
        return bytes(out)
    return data


# ------------------------------------------------------------ protocol client

class Wire:
    """The in-daemon scenarios' connection: pickerd_client's RawConnection (the one wire codec)."""

    def __init__(self, path):
        self.c = RawConnection(path, "bench")

    def session_new(self, name, w, h):
        self.c.call(T.SESSION_NEW, name=name, width=w, height=h)

    def select_album(self, session, album):
        self.c.call(T.SELECT_ALBUM, session=session, album=album)

    def select_and_get(self, session, photo_index, no_cache):
        """selectPhoto + getImage (PNG), pipelined; returns the PNG bytes."""
        self.c.sock.sendall(self.c.frame(T.SELECT_PHOTO, session=session, photo=photo_index)
                            + self.c.frame(T.GET_IMAGE, session=session, format=2, flags=1 if no_cache else 0))
        replies = []
        while len(replies) < 2:
            f = self.c.recv()
            if f.is_event:
                continue
            if f.type == T.ERROR:
                e = f.fields()
                raise RuntimeError(f"pickerd error {e['code']}: {e['message']}")
            replies.append(f)
        if [f.type for f in replies] != [T.SESSION_STATE, T.IMAGE]:
            raise RuntimeError(f"unexpected reply types {[hex(f.type) for f in replies]}")
        return replies[1].fields()["data"]

    def close(self):
        self.c.close()


# ------------------------------------------------------------------- quality

_refs = {}


def forget_references():
    """Drops the reference pictures kept for one scenario's files (they are large)."""
    _refs.clear()


def reference(src, size):
    """Full decode, upright, float Lanczos-3 per channel ('F' mode) to size, rounded to 8 bit."""
    key = (src, size)
    if key not in _refs:
        im = ImageOps.exif_transpose(Image.open(src))
        im = im.convert("RGB")
        chans = [c.convert("F").resize(size, Image.LANCZOS) for c in im.split()]
        _refs[key] = [_round(c) for c in chans]
    return _refs[key]


def _round(f):
    # 'F' -> 'L' truncates after clamping; add 0.5 first to round to nearest.
    return f.point(lambda v: v + 0.5).convert("L")


def psnr(out_path, src):
    """PSNR (dB, RGB) of an output file against the float reference at its own size."""
    out = Image.open(out_path)
    out.load()
    if out.mode != "RGB":
        out = out.convert("RGBA").convert("RGB") if out.mode != "RGBA" else out.convert("RGB")
    ref = reference(src, out.size)
    se, n = 0, 0
    for a, b in zip(out.split(), ref):
        h = ImageChops.difference(a, b).histogram()
        se += sum(c * v * v for v, c in enumerate(h))
        n += a.size[0] * a.size[1]
    mse = se / n
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)
