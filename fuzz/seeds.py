#!/usr/bin/env python3
"""Writes the seed corpora for the fuzz targets into fuzz/corpus/<target>/.

Image targets (jpeg, png, webp, heif, gif, jxl, header) are seeded from the shared test corpus
(--testdata, else as scripts/testcorpus.py finds it: $PICKER_TESTDATA, else
../shared/testdata next to the repo, else Tests/Fixtures), sorted by magic bytes, not by name.
Protocol targets (frame, message) are seeded from the hex blocks of docs/PROTOCOL.md
(the golden vectors and the refused frames). Existing corpus files are kept: the
corpus grows across runs. Standard library only.
"""
import argparse, hashlib, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MAX_IMAGE_SEED = 512 * 1024      # bigger files slow every execution; their first bytes still go in
HEADER_SEED_BYTES = 128 * 1024   # the header reader reads a 64 KiB window first
IMAGE_TARGET_SEED = 256 * 1024   # image target: whole files only (a cut file is only a broken one)


sys.path.insert(0, os.path.join(ROOT, "scripts"))
import testcorpus  # noqa: E402  (the one corpus finder of the Python tools)


def testdata_dir(arg):
    folder = testcorpus.find(arg)
    if not os.path.isdir(folder):
        sys.exit(f"seeds.py: no test corpus at {folder}")
    return folder


def kind(head):
    if head[:2] == b"\xff\xd8":
        return "jpeg"
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if head[4:12] == b"ftypcrx ":  # CR3: the raw target
        return "raw"
    if head[4:8] == b"ftyp":  # HEIC/AVIF (and broken HEIF files): the heif target
        return "heif"
    if head[:2] == b"\xff\x0a" or head[:12] == b"\x00\x00\x00\x0cJXL \r\n\x87\n":  # JPEG XL
        return "jxl"
    if head[:4] in (b"II*\x00", b"MM\x00*", b"IIRO", b"IIRS", b"MMOR", b"IIU\x00") or head[:12] == b"FUJIFILMCCD-":
        return "raw"  # camera RAW (TIFF-based, ORF, RW2, RAF)
    return None


def put(target, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "seed-" + hashlib.sha1(data).hexdigest())
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
        return 1
    return 0


def protocol_frames():
    """Every hex block of PROTOCOL.md, as bytes (comments after '#' dropped)."""
    text = open(os.path.join(ROOT, "docs", "PROTOCOL.md"), encoding="utf-8").read()
    for block in re.findall(r"```hex\n(.*?)```", text, re.S):
        hexes = []
        for line in block.splitlines():
            hexes += re.findall(r"\b[0-9a-fA-F]{2}\b", line.split("#", 1)[0])
        if hexes:
            yield bytes(int(h, 16) for h in hexes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--testdata")
    args = ap.parse_args()
    src = testdata_dir(args.testdata)
    counts = {}
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if d != "LICENSES")
        for name in sorted(filenames):
            with open(os.path.join(dirpath, name), "rb") as f:
                data = f.read()
            k = kind(data[:12])
            if k is None:
                continue
            counts[k] = counts.get(k, 0) + put(k, data[:MAX_IMAGE_SEED])
            counts["header"] = counts.get("header", 0) + put("header", data[:HEADER_SEED_BYTES])
            if len(data) <= IMAGE_TARGET_SEED:  # the Swift decode layer: whole, small files
                counts["image"] = counts.get("image", 0) + put("image", data)
    frames = list(protocol_frames())
    for fr in frames:
        # frame target: one control byte (read size, max length, one read or pieces), then the stream
        for control in (0x00, 0x03, 0x40, 0x80):
            counts["frame"] = counts.get("frame", 0) + put("frame", bytes([control]) + fr)
        if len(fr) >= 9:
            # message target: type, id, payload (the frame without its length prefix)
            counts["message"] = counts.get("message", 0) + put("message", fr[4:])
    # a pipelined stream of every vector back to back
    put("frame", b"\x07" + b"".join(frames))
    print(f"seeds.py: from {src}: " + ", ".join(f"{k} +{v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
