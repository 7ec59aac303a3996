#!/usr/bin/env python3
"""Judges terminal pictures (chafa-style symbols and sixel) independently of pickerd.

  termcheck.py symbols FILE            -> {"rows": R, "columns": [c, ...], "ends_with_reset": bool,
                                           "cursor_moves": n}
  termcheck.py compare-symbols A B     -> {"rows_a", "rows_b", "columns_a", "columns_b",
                                           "mean_difference", "compared"}
      Each cell's colour is the mean of its 24-bit foreground and background (a symbol and its
      inverse with swapped colours give the same value); mean_difference is the mean absolute
      difference per channel (0-255) over the cells both grids have.
  termcheck.py symbols-vs-picture FILE PICTURE.png -> {"mean_difference", "compared"}
      The picture box-averaged to the symbol grid (one value a cell) against each cell's colour
      as above: an independent check that the cells show the picture, not chafa against itself.
  termcheck.py sixel FILE REFERENCE.png -> {"raster_width", "raster_height", "decoded_width",
                                           "decoded_height", "mad", "ends_with_reset": bool}
      Decodes the DCS sixel sequence itself (colour registers in RGB percent, repeats, bands)
      and compares its pixels with the reference (mean absolute difference, 0-255, over the
      area both cover).

Standard library plus Pillow (Debian's /usr/bin/python3 has it).
"""
import json
import re
import sys

SGR = re.compile(r"\x1b\[([0-9;]*)m")
CSI_OTHER = re.compile(r"\x1b\[[0-9;?]*[A-Za-ln-z]")


def parse_symbols(text):
    """Returns rows of cells; each cell is (char, fg, bg) with RGB tuples or None."""
    rows = []
    fg = bg = None
    for line in text.split("\n"):
        if line == "" and rows:
            continue
        cells = []
        pos = 0
        while pos < len(line):
            m = SGR.match(line, pos)
            if m:
                params = [p for p in m.group(1).split(";")]
                i = 0
                while i < len(params):
                    p = params[i]
                    if p in ("", "0"):
                        fg = bg = None
                        i += 1
                    elif p == "38" and i + 4 < len(params) and params[i + 1] == "2":
                        fg = tuple(int(v) for v in params[i + 2:i + 5])
                        i += 5
                    elif p == "48" and i + 4 < len(params) and params[i + 1] == "2":
                        bg = tuple(int(v) for v in params[i + 2:i + 5])
                        i += 5
                    elif p == "7":
                        fg, bg = bg, fg
                        i += 1
                    else:
                        i += 1
                pos = m.end()
                continue
            other = CSI_OTHER.match(line, pos)
            if other:
                pos = other.end()
                continue
            cells.append((line[pos], fg, bg))
            pos += 1
        rows.append(cells)
    return rows


def cell_colour(cell):
    _, fg, bg = cell
    fg = fg or bg or (0, 0, 0)
    bg = bg or fg
    return tuple((a + b) / 2 for a, b in zip(fg, bg))


def symbols(path):
    text = open(path, encoding="utf-8").read()
    body = text[:-1] if text.endswith("\n") else text
    rows = parse_symbols(body)
    return {"rows": len(rows), "columns": [len(r) for r in rows],
            "ends_with_reset": body.endswith("\x1b[0m"),
            "cursor_moves": len(CSI_OTHER.findall(body))}


def compare_symbols(a_path, b_path):
    a = parse_symbols(open(a_path, encoding="utf-8").read().rstrip("\n"))
    b = parse_symbols(open(b_path, encoding="utf-8").read().rstrip("\n"))
    total = 0.0
    count = 0
    for ra, rb in zip(a, b):
        for ca, cb in zip(ra, rb):
            total += sum(abs(x - y) for x, y in zip(cell_colour(ca), cell_colour(cb))) / 3
            count += 1
    return {"rows_a": len(a), "rows_b": len(b), "columns_a": [len(r) for r in a],
            "columns_b": [len(r) for r in b], "mean_difference": total / max(1, count), "compared": count}


def symbols_vs_picture(path, picture):
    from PIL import Image
    rows = parse_symbols(open(path, encoding="utf-8").read().rstrip("\n"))
    columns = max((len(r) for r in rows), default=0)
    small = Image.open(picture).convert("RGB").resize((max(1, columns), max(1, len(rows))), Image.BOX)
    px = small.load()
    total = 0.0
    count = 0
    for y, row in enumerate(rows):
        for x, cell in enumerate(row):
            total += sum(abs(a - b) for a, b in zip(cell_colour(cell), px[x, y])) / 3
            count += 1
    return {"mean_difference": total / max(1, count), "compared": count}


def decode_sixel(data):
    start = data.index("\x1bP")
    q = data.index("q", start)
    end = data.index("\x1b\\", q)
    body = data[q + 1:end]
    pos = 0
    raster = (0, 0)
    m = re.match(r'"(\d+);(\d+);(\d+);(\d+)', body)
    if m:
        raster = (int(m.group(3)), int(m.group(4)))
        pos = m.end()
    palette = {}
    pixels = {}
    x = 0
    band = 0
    colour = 0
    width = 0
    while pos < len(body):
        c = body[pos]
        if c == "#":
            m = re.compile(r"#(\d+)(?:;(\d+);(\d+);(\d+);(\d+))?").match(body, pos)
            pos = m.end()
            colour = int(m.group(1))
            if m.group(2) is not None:
                if m.group(2) != "2":
                    raise ValueError("only RGB colour registers are decoded")
                palette[colour] = tuple(round(int(m.group(i)) * 255 / 100) for i in (3, 4, 5))
            continue
        if c == "!":
            m = re.compile(r"!(\d+)(.)").match(body, pos)
            pos = m.end()
            count, ch = int(m.group(1)), m.group(2)
        elif "?" <= c <= "~":
            count, ch = 1, c
            pos += 1
        elif c == "$":
            x = 0
            pos += 1
            continue
        elif c == "-":
            x = 0
            band += 1
            pos += 1
            continue
        else:
            pos += 1
            continue
        bits = ord(ch) - 63
        for _ in range(count):
            for k in range(6):
                if bits & (1 << k):
                    pixels[(x, band * 6 + k)] = palette.get(colour, (0, 0, 0))
            x += 1
        width = max(width, x)
    height = max((y for _, y in pixels), default=-1) + 1
    return raster, width, height, pixels


def sixel(path, reference):
    from PIL import Image
    text = open(path, encoding="utf-8").read()
    raster, width, height, pixels = decode_sixel(text)
    ref = Image.open(reference).convert("RGB")
    rw, rh = ref.size
    ref_px = ref.load()
    total = 0.0
    count = 0
    for y in range(min(height, rh)):
        for x in range(min(width, rw)):
            p = pixels.get((x, y), (0, 0, 0))
            r = ref_px[x, y]
            total += (abs(p[0] - r[0]) + abs(p[1] - r[1]) + abs(p[2] - r[2])) / 3
            count += 1
    return {"raster_width": raster[0], "raster_height": raster[1], "decoded_width": width,
            "decoded_height": height, "mad": total / max(1, count),
            "ends_with_reset": text.rstrip("\n").endswith("\x1b[0m")}


def main(argv):
    if argv[1] == "symbols":
        result = symbols(argv[2])
    elif argv[1] == "compare-symbols":
        result = compare_symbols(argv[2], argv[3])
    elif argv[1] == "symbols-vs-picture":
        result = symbols_vs_picture(argv[2], argv[3])
    elif argv[1] == "sixel":
        result = sixel(argv[2], argv[3])
    else:
        print("unknown command " + argv[1], file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
