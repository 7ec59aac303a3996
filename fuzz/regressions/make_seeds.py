#!/usr/bin/env python3
"""Writes the hand-made seeds of fuzz/regressions/<target>/ (run once; the files are checked in).

Each seed is named after what it exercises. Files found by a fuzzer are added by hand next to
them (see fuzz/README.md), so this script never deletes anything. Standard library only.
"""
import json, os, shutil, struct, sys, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from seeds import protocol_frames  # noqa: E402  (the hex blocks of docs/PROTOCOL.md)


def put(target, name, data):
    d = os.path.join(HERE, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


PNG_SIG = b"\x89PNG\r\n\x1a\n"


def png(width, height, extra=b"", idat=True):
    ihdr = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    rows = b"".join(b"\x00" + b"\x80\x40\x20" * width for _ in range(height)) if idat else b""
    return PNG_SIG + ihdr + extra + (chunk(b"IDAT", zlib.compress(rows)) if idat else b"") + chunk(b"IEND", b"")


def jpeg_sof(width, height):
    """SOI, a baseline SOF0 declaring width x height (3 components), EOI: a header and no data."""
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    return b"\xff\xd8" + sof + b"\xff\xd9"


def webp_vp8x(width, height):
    """RIFF/WEBP with a VP8X chunk declaring width x height (24-bit minus one) and nothing else."""
    vp8x = b"VP8X" + struct.pack("<I", 10) + b"\x00\x00\x00\x00" + \
        (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    return b"RIFF" + struct.pack("<I", 4 + len(vp8x)) + b"WEBP" + vp8x


def gif_screen(width, height):
    """GIF89a with a width x height screen, a 2-colour table and one 1x1 frame (LZW: clear, 0, end)."""
    return (b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + b"\xff\x00\x00\x00\xff\x00"
            + b"\x2c" + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00" + b"\x3b")


def jxl_codestream(width, height):
    """A bare JPEG XL codestream: signature, a SizeHeader declaring width x height (30-bit fields),
    default ImageMetadata, then zeros (no frame): a header and no picture."""
    bits = []

    def put_bits(value, count):  # JPEG XL packs fields least significant bit first
        bits.extend((value >> i) & 1 for i in range(count))

    put_bits(0, 1)                               # small (div8): no
    put_bits(3, 2); put_bits(height - 1, 30)     # ysize_minus1: U32 selector 3, Bits(30)
    put_bits(0, 3)                               # ratio 0: xsize follows
    put_bits(3, 2); put_bits(width - 1, 30)      # xsize_minus1
    put_bits(1, 1)                               # ImageMetadata all_default
    bits.extend([0] * (-len(bits) % 8))
    body = bytes(sum(bits[i + j] << j for j in range(8)) for i in range(0, len(bits), 8))
    return b"\xff\x0a" + body + b"\x00" * 16


def image_seeds():
    fixtures = os.path.join(ROOT, "Tests", "Fixtures")
    for rel in ["pngsuite/basn2c08.png", "pngsuite/basn6a08.png", "pngsuite/basi0g16.png",
                "pngsuite/s01n3p01.png", "png-broken/its_94e1bdbb03c42581d8407602634636ea.png",
                "jpeg-edge/moz_jpg-gray.jpg", "jpeg-edge/moz_jpg-cmyk-1.jpg",
                "exif-orientation/pillow_orientation_rectangle.jpg", "bombs/jpegdec_max_size.jpg",
                "jpeg-broken/jpegdec_partial_progressive.jpg",
                "exif-orientation/hopper_orientation_6.webp",
                "webp/mei_fuzz_crash-1c881e4b93d62a1bd98138a5be0c45d134e24812.webp",
                "gif/sharp_grey-plus-alpha.gif", "gif/oiio_tahoe-tiny.gif",
                "gif/imagegif_issue-117-out-of-range.gif",
                "jxl/kif_orientation6.jxl", "jxl/oiio_truncated.jxl",
                "jxl/jxltd_clusterfuzz-djxl-4816304719134720.jxl"]:
        src = os.path.join(fixtures, rel)
        shutil.copyfile(src, os.path.join(HERE, "image", "fixture-" + rel.replace("/", "-")))
    # Declared sizes over the daemon's 200 Mpx cap: refused as image_too_large before allocating.
    put("image", "gif-screen-65535x65535.gif", gif_screen(65535, 65535))
    put("image", "jpeg-declares-65535x65535.jpg", jpeg_sof(65535, 65535))
    put("image", "jxl-declares-30000x30000.jxl", jxl_codestream(30000, 30000))
    put("image", "png-declares-20000x20000.png", png(20000, 20000, idat=False))
    put("image", "webp-declares-16384x16384.webp", webp_vp8x(16384, 16384))
    # Between the fuzzing cap (4 Mpx) and 200 Mpx: the same branch with the smaller cap.
    put("image", "png-declares-5000x1000.png", png(5000, 1000, idat=False))
    put("image", "jpeg-declares-1x1-no-scan.jpg", jpeg_sof(1, 1))
    put("image", "png-3x2.png", png(3, 2))


def pngtext_seeds():
    text = chunk(b"tEXt", b"Thumb::URI\x00file:///home/u/Pictures/a%20b.jpg") + \
        chunk(b"tEXt", b"Thumb::MTime\x001700000000") + \
        chunk(b"iTXt", b"Software\x00\x00\x00\x00\x00GIMP \xc3\xa9") + \
        chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"compressed"))
    put("pngtext", "thumbnail-text-chunks.png", png(2, 2, text))
    bad_crc = bytearray(chunk(b"tEXt", b"Thumb::URI\x00file:///x"))
    bad_crc[-1] ^= 0xFF
    put("pngtext", "text-chunk-bad-crc.png", png(1, 1, bytes(bad_crc)))
    put("pngtext", "text-chunk-length-past-end.png",
        PNG_SIG + chunk(b"IHDR", b"\x00" * 13) + struct.pack(">I", 0x7FFFFFFF) + b"tEXtkey\x00v")
    put("pngtext", "text-keyword-80-bytes.png", png(1, 1, chunk(b"tEXt", b"K" * 80 + b"\x00v")))
    put("pngtext", "itxt-compressed-flag.png", png(1, 1, chunk(b"iTXt", b"k\x00\x01\x00\x00\x00x")))
    put("pngtext", "not-a-png.txt", b"GIF89a")
    put("pngtext", "signature-only.png", PNG_SIG)
    put("pngtext", "many-empty-chunks.png", PNG_SIG + chunk(b"aaAa", b"") * 300)


def session(name, **over):
    s = {"name": name, "title": "Photo Library", "width": 800, "height": 600, "maxSelection": 10,
         "album": "All Photos", "photo": "a/b.jpg", "selection": ["a/b.jpg"]}
    s.update(over)
    return s


def sessions_seeds():
    def put_json(name, value):
        put("sessions", name, json.dumps(value, indent=2, sort_keys=True).encode())
    put_json("valid-two-sessions.json", {"version": 1, "sessions": [session("main"), session("side", height=None, album=None, photo=None, selection=[])]})
    put_json("rule-breaking-entries.json", {"version": 1, "sessions": [
        session("ok"), session("ok"), session("", title="x"), session("w", width=10),
        session("sel", maxSelection=1, selection=["a.jpg", "b.jpg"]), session("dots", photo="../etc/passwd"),
        session("ctl", title="a\u0007b"), {"name": 3}, "not an object", session("big", width=2**62)]})
    put("sessions", "truncated.json", json.dumps({"version": 1, "sessions": [session("main")]}).encode()[:-9])
    put("sessions", "not-json.json", b"\x00\xff sessions")
    put("sessions", "deep-nesting.json", b'{"sessions":' + b"[" * 5000 + b"]" * 5000 + b"}")
    put("sessions", "sessions-not-array.json", b'{"version":1,"sessions":{"a":1}}')


def handshake_seeds():
    frames = list(protocol_frames())
    hello = next(f for f in frames if len(f) >= 9 and f[4] == 0x01 and f[9:11] == b"\x00\x01")
    others = b"".join(frames)
    put("handshake", "hello-then-every-vector-in-8-byte-reads.bin", b"\x07" + hello + others)
    put("handshake", "hello-twice-one-read.bin", b"\x40" + hello + hello)
    put("handshake", "every-vector-before-hello.bin", b"\x0f" + others)
    put("handshake", "hello-then-partial-frame-timeout.bin", b"\xc0" + hello + hello[:6])
    wrong = bytearray(hello)
    wrong[9:11] = b"\x00\x02"
    put("handshake", "hello-version-2.bin", b"\x00" + bytes(wrong) + hello)
    put("handshake", "oversized-length.bin", b"\x40" + hello + b"\xff\xff\xff\xff\x01")


def tiff(entries, ifd_offset=8, extra=b"", next_ifd=0):
    """A little-endian TIFF: header, one IFD at ifd_offset (entries: tag, type, count, value), extra bytes."""
    head = b"II*\x00" + struct.pack("<I", ifd_offset)
    body = head.ljust(ifd_offset, b"\x00") + struct.pack("<H", len(entries))
    body += b"".join(struct.pack("<HHII", *e) for e in entries) + struct.pack("<I", next_ifd)
    return body + extra


CAMERA = [(0x010F, 7, 4, 0x4E4F4B49), (0xC612, 1, 4, 0x00000401), (0x0100, 4, 1, 64), (0x0101, 4, 1, 48)]


def raw_seeds():
    # A DNG-like file whose preview is a real JPEG (the tiny JPEG of the image seeds has no scan:
    # it reaches the preview decoder and is refused there).
    jpeg = jpeg_sof(64, 48)
    put("raw", "dng-preview-ifd0.dng", tiff(CAMERA + [(0x0201, 4, 1, 8 + 2 + 6 * 12 + 4), (0x0202, 4, 1, len(jpeg))],
                                            extra=jpeg))
    put("raw", "dng-ifd-loop.dng", tiff(CAMERA + [(0x014A, 4, 1, 8), (0x8769, 4, 1, 8)], next_ifd=8))
    put("raw", "dng-ifd0-past-end.dng", b"II*\x00\x00\xff\xff\xff" + b"\x00" * 16)
    put("raw", "dng-absurd-counts.dng", tiff(CAMERA + [(0x0106, 3, 1, 32803), (0x0111, 4, 0x3FFFFFFF, 8),
                                                     (0x0117, 4, 0x3FFFFFFF, 8), (0x0201, 4, 1, 0xFFFFFFF0),
                                                     (0x0202, 4, 1, 0x7FFFFFFF)]))
    put("raw", "dng-sensor-strip-past-end.dng", tiff(CAMERA + [(0x0106, 3, 1, 32803), (0x0111, 4, 1, 0x7FFFFFF0),
                                                             (0x0117, 4, 1, 0x10)]))
    put("raw", "cr3-boxes-past-end.cr3", struct.pack(">I", 24) + b"ftypcrx " + struct.pack(">I", 1) + b"crx isom"
        + b"\xff\xff\xff\xf0moov" + struct.pack(">I", 1) + b"uuid" + b"\xff" * 8)
    put("raw", "rw2-header-only.rw2", b"IIU\x00\x08\x00\x00\x00" + b"\x00" * 8)
    put("raw", "raf-offsets-past-end.raf", b"FUJIFILMCCD-RAW 0201FF383501".ljust(84, b"\x00")
        + struct.pack(">II", 0xFFFFFF00, 0x1000) + b"\x00" * 32)
    for name in ("exiftool_Nikon_D70.nef", "exiftool_Panasonic_DMC-LX3.rw2"):
        shutil.copyfile(os.path.join(ROOT, "Tests", "Fixtures", "raw", name), os.path.join(HERE, "raw", "fixture-raw-" + name))


if __name__ == "__main__":
    raw_seeds()
    image_seeds()
    pngtext_seeds()
    sessions_seeds()
    handshake_seeds()
    regression = os.path.join(ROOT, "Tests", "Regressions", "png-text-chunk-length-2gb.png")
    for target in ("image", "pngtext"):
        shutil.copyfile(regression, os.path.join(HERE, target, "png-text-chunk-length-2gb.png"))
    print("make_seeds.py: wrote", sum(len(os.listdir(os.path.join(HERE, t))) for t in ("image", "raw", "pngtext", "sessions", "handshake")), "files")
