"""A big camera RAW for the bench, made from a JPEG, laid out as Adobe's DNG Converter writes one: IFD0
a 256 px RGB thumbnail (uncompressed), SubIFD 1 the 16-bit RGGB sensor image of the given size
(uncompressed: ~48 MB for 6000x4000), SubIFD 2 that JPEG as the full-size preview (NewSubfileType 1,
a JPEG-compressed strip). No licensed
full-size RAW of 50 MB was found for the corpus (issue 27), so the size is made; the preview is real.
The sensor data is a smooth gradient (what it holds does not matter to a preview decode; a develop of
it gives a plausible picture, not noise)."""
import struct
import sys


def _entry(tag, typ, count, value):
    return struct.pack("<HHI", tag, typ, count) + value


def _short(tag, v):
    return _entry(tag, 3, 1, struct.pack("<HH", v, 0))


def _long(tag, v):
    return _entry(tag, 4, 1, struct.pack("<I", v))


def _ifd(entries, next_offset=0):
    entries = sorted(entries, key=lambda e: struct.unpack("<H", e[:2])[0])
    return struct.pack("<H", len(entries)) + b"".join(entries) + struct.pack("<I", next_offset)


def jpeg_size(data):
    """(width, height) from a JPEG's SOF marker."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        i += 2 + length
    raise ValueError("no SOF in the JPEG")


def make(jpeg_path, out_path, sensor=(6000, 4000)):
    from PIL import Image
    jpeg = open(jpeg_path, "rb").read()
    pw, ph = jpeg_size(jpeg)
    sw, sh = sensor
    thumb = Image.open(jpeg_path).convert("RGB")
    thumb.thumbnail((256, 256))
    tw, th = thumb.size
    thumb_bytes = thumb.tobytes()
    make_text = b"pickerd bench\0"
    counts = (13, 12, 9)  # entries of IFD0, the sensor SubIFD, the preview SubIFD
    sizes = [2 + 12 * n + 4 for n in counts]
    ifd0_at = 8
    sensor_ifd_at = ifd0_at + sizes[0]
    preview_ifd_at = sensor_ifd_at + sizes[1]
    subifds_at = preview_ifd_at + sizes[2]
    bits_at = subifds_at + 8
    make_at = bits_at + 6
    thumb_at = make_at + len(make_text)
    jpeg_at = thumb_at + len(thumb_bytes)
    jpeg_at += (-jpeg_at) % 4
    sensor_at = jpeg_at + len(jpeg)
    sensor_at += (-sensor_at) % 4
    sensor_bytes = sw * sh * 2
    ifd0 = _ifd([
        _long(0x00FE, 1), _long(0x0100, tw), _long(0x0101, th), _entry(0x0102, 3, 3, struct.pack("<I", bits_at)),
        _short(0x0103, 1), _short(0x0106, 2), _entry(0x010F, 2, len(make_text), struct.pack("<I", make_at)),
        _long(0x0111, thumb_at), _short(0x0115, 3), _long(0x0116, th), _long(0x0117, len(thumb_bytes)),
        _entry(0x014A, 4, 2, struct.pack("<I", subifds_at)), _entry(0xC612, 1, 4, bytes([1, 4, 0, 0])),
    ])
    sensor_ifd = _ifd([
        _long(0x00FE, 0), _long(0x0100, sw), _long(0x0101, sh), _short(0x0102, 16), _short(0x0103, 1),
        _short(0x0106, 32803), _long(0x0111, sensor_at), _short(0x0115, 1), _long(0x0116, sh),
        _long(0x0117, sensor_bytes), _entry(0x828D, 3, 2, struct.pack("<HH", 2, 2)),
        _entry(0x828E, 1, 4, bytes([0, 1, 1, 2])),
    ])
    preview_ifd = _ifd([
        _long(0x00FE, 1), _long(0x0100, pw), _long(0x0101, ph), _entry(0x0102, 3, 3, struct.pack("<I", bits_at)),
        _short(0x0103, 7), _short(0x0106, 6), _long(0x0111, jpeg_at), _short(0x0115, 3), _long(0x0117, len(jpeg)),
    ])
    assert [len(ifd0), len(sensor_ifd), len(preview_ifd)] == sizes
    with open(out_path, "wb") as f:
        f.write(b"II*\0" + struct.pack("<I", ifd0_at) + ifd0 + sensor_ifd + preview_ifd)
        f.write(struct.pack("<II", sensor_ifd_at, preview_ifd_at) + struct.pack("<HHH", 8, 8, 8) + make_text)
        f.write(thumb_bytes)
        f.write(bytes(jpeg_at - f.tell()) + jpeg)
        f.write(bytes(sensor_at - f.tell()))
        row = b"".join(struct.pack("<H", (x * 4095 // max(1, sw - 1)) & 0xFFFF) for x in range(sw))
        for _ in range(sh):
            f.write(row)
    return out_path


if __name__ == "__main__":
    make(sys.argv[1], sys.argv[2])
