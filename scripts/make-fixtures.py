#!/usr/bin/env python3
"""Regenerate Tests/Fixtures from the shared test corpus.

Tests/Fixtures is the small subset of ../shared/testdata that ships with the
repository, so that `make test` passes in a clone that has no ../shared.
This script copies the files listed in SELECTION (same relative paths), the
LICENSES/ folder of every category used, and writes manifest.json with
exactly the records of the copied files (same schema, `generated_with` kept)
plus README.md.

Usage: scripts/make-fixtures.py [--source DIR] [--dest DIR] [--check]
  --source  the corpus (default: <repo>/../shared/testdata)
  --dest    where to write (default: <repo>/Tests/Fixtures)
  --check   do not write anything; verify that --dest matches its manifest
"""

import argparse
import hashlib
import json
import os
import shutil
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Paths relative to the corpus root. Keep each category small: the whole set
# must stay at a few MB (the camera photo is most of it).
SELECTION = [
    # EXIF orientation: JPEG 1/3/6/8 (recurser), a 2x1 JPEG with orientation 8,
    # the hopper WebP reference and three rotated variants.
    "exif-orientation/Landscape_1.jpg",
    "exif-orientation/Landscape_3.jpg",
    "exif-orientation/Landscape_6.jpg",
    "exif-orientation/Landscape_8.jpg",
    "exif-orientation/pillow_orientation_rectangle.jpg",
    "exif-orientation/hopper_reference.webp",
    "exif-orientation/hopper_orientation_3.webp",
    "exif-orientation/hopper_orientation_6.webp",
    "exif-orientation/hopper_orientation_8.webp",
    # A PNG whose orientation lives only in ImageMagick's raw-profile text: shown as stored.
    "exif-orientation/pillow_exif_imagemagick_orientation.png",
    # PngSuite: gray, RGB, palette, gray+alpha, RGBA, 16-bit interlaced,
    # tRNS, odd sizes, the logo, and two corrupt files.
    "pngsuite/basn0g08.png",
    "pngsuite/basn2c08.png",
    "pngsuite/basn3p04.png",
    "pngsuite/basn4a08.png",
    "pngsuite/basn6a08.png",
    "pngsuite/basi0g16.png",
    "pngsuite/basi6a16.png",
    "pngsuite/tbrn2c08.png",
    "pngsuite/s01n3p01.png",
    "pngsuite/s07n3p02.png",
    "pngsuite/PngSuite.png",
    "pngsuite/xcsn0g01.png",
    "pngsuite/xs2n0g01.png",
    # Damaged PNGs: two that libpng only warns about (must display), three it
    # rejects.
    "png-broken/its_008b8bb75b8a487dc5aac86c9abb06fb.png",
    "png-broken/its_e76546768d4a8f2f4c39339345c7614c.png",
    "png-broken/its_94e1bdbb03c42581d8407602634636ea.png",
    "png-broken/its_c-m1-6bfb149151f58d124d6fa76eaad75520.png",
    "png-broken/its_m1-d4b25a2b8b5fcec0a3e284579d539f35.png",
    # Damaged JPEGs: rejects (truncated = warning only, empty, not a JPEG,
    # two SOF, bad Huffman table), one partial-or-reject, two that decode.
    "jpeg-broken/sharp_truncated.jpg",
    "jpeg-broken/jpegdec_empty.jpg",
    "jpeg-broken/its_f012a4321f00f12af6b1eee7580ffb9c.jpg",
    "jpeg-broken/its_8a9cc8eeed66aeb423a91c44111d9450.jpg",
    "jpeg-broken/its_786b67badc535fc95a4a76c29a0e0146.jpg",
    "jpeg-broken/jpegdec_partial_progressive.jpg",
    "jpeg-broken/jpegdec_extraneous-data.jpg",
    "jpeg-broken/its_3976a754ef0aca80e84e2c403d714579.jpg",
    # Bad EXIF that must not stop the picture from displaying.
    "jpeg-bad-exif/pillow_broken_exif_dpi.jpg",
    "jpeg-bad-exif/pillow_exif-ifd-offset.jpg",
    # JPEG edge cases: CMYK (Mozilla's 32x32 and Pillow's Adobe CMYK sample, which the
    # not-inverted test reads), grayscale, lossless (unsupported on libjpeg-turbo 2.1).
    "jpeg-edge/moz_jpg-cmyk-1.jpg",
    "jpeg-edge/pillow_pil_sample_cmyk.jpg",
    "jpeg-edge/moz_jpg-gray.jpg",
    "jpeg-edge/jpegdec_lossless_sel1.jpg",
    # WebP: lossless+alpha, animated, and a fuzzer crash file.
    "webp/libwebp_lossless1.webp",
    "webp/sharp_rotating-squares.webp",
    "webp/mei_fuzz_crash-1c881e4b93d62a1bd98138a5be0c45d134e24812.webp",
    # HEIC through libheif: a small test image with a clean-aperture crop, and a damaged HEIF.
    "heic/libheif_rainbow-451x461.heic",
    "heic/mei_IllegalArgumentException.heif",
    # AVIF: a photo and the same with an irot 90 property (must display turned, exactly once).
    # Made for the corpus with avifenc from a camera photo; their licence is that photo's.
    "avif/photo.avif",
    "avif/photo-irot90.avif",
    # Colour management: a WebP whose ICCP profile swaps red and green (plainly wrong when shown
    # unmanaged) and the sRGB reference it must look like. Made for the corpus from the camera
    # photos with Pillow ImageCms and colord-data's profile; their licence is the photos'.
    "colour/swapped-red-green.webp",
    "colour/reference-b-srgb.png",
    # GIF: a transparent index (2x1), an interlaced file, a local colour table, and a frame
    # sticking out of its screen (reject). Truncated GIFs are cut by the tests themselves.
    "gif/sharp_grey-plus-alpha.gif",
    "gif/imagegif_interlaced.gif",
    "gif/oiio_tahoe-tiny.gif",
    "gif/imagegif_issue-117-out-of-range.gif",
    # JPEG XL: one picture stored with codestream orientation 1 and 6 (container, ICC profile),
    # a truncated container and a ClusterFuzz file whose second frame header is refused.
    "jxl/kif_orientation1.jxl",
    "jxl/kif_orientation6.jxl",
    "jxl/oiio_truncated.jxl",
    "jxl/jxltd_clusterfuzz-djxl-4816304719134720.jxl",
    # A JPEG header that declares a size over the limit.
    "bombs/jpegdec_max_size.jpg",
    # The smallest full-size camera photo.
    "camera-photos/Canon_EOS_5D_Mark_III_22mp.jpg",
    # Camera RAW: a complete DNG (shown by its 1024x683 preview), a CR3 cut off inside mdat
    # whose 1620x1080 preview is intact, and two stripped stubs that must be refused (a NEF
    # whose previews are 18-29 byte placeholders, an RW2 that LibRaw develops into noise).
    "raw/photoprism_canon_eos_6d.dng",
    "raw/nomexif_canon-r6_truncated.cr3",
    "raw/exiftool_Nikon_D70.nef",
    "raw/exiftool_Panasonic_DMC-LX3.rw2",
]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def derived_licences(src, manifest, records):
    """The LICENSES folder of the category holding the files `records` are derived from."""
    by_name = {os.path.basename(r["path"]): r for r in manifest["files"]}
    for r in records:
        for name in r["source"].get("derived_from", []):
            origin = by_name.get(name)
            if origin and os.path.isdir(os.path.join(src, origin["category"], "LICENSES")):
                return os.path.join(src, origin["category"], "LICENSES")
    raise SystemExit(f"no LICENSES for {[r['path'] for r in records]}")


def check(dest):
    """Verify every manifest record against the file: bytes and sha256."""
    with open(os.path.join(dest, "manifest.json")) as f:
        manifest = json.load(f)
    problems = 0
    for rec in manifest["files"]:
        p = os.path.join(dest, rec["path"])
        if not os.path.isfile(p):
            print(f"missing: {rec['path']}", file=sys.stderr)
            problems += 1
            continue
        size = os.path.getsize(p)
        digest = sha256(p)
        if size != rec["bytes"] or digest != rec["sha256"]:
            print(f"mismatch: {rec['path']} ({size} bytes, {digest})", file=sys.stderr)
            problems += 1
    for cat in sorted({r["category"] for r in manifest["files"]}):
        if not os.path.isdir(os.path.join(dest, cat, "LICENSES")):
            print(f"missing: {cat}/LICENSES/", file=sys.stderr)
            problems += 1
    total = sum(r["bytes"] for r in manifest["files"])
    print(f"{len(manifest['files'])} files, {total} bytes, {problems} problem(s)")
    return problems == 0


def write_readme(dest, records):
    cats = {}
    for r in records:
        cats.setdefault(r["category"], []).append(r)
    total = sum(r["bytes"] for r in records)
    lines = [
        "# Test fixtures",
        "",
        "A small subset of the shared test corpus (`../shared/testdata`), checked in so",
        "that `make test` passes in a clone that has no `../shared`. When the full corpus",
        "is present the tests also run over all of it; these files are only the fallback.",
        "",
        "Generated by `scripts/make-fixtures.py` from `../shared/testdata`; do not edit by",
        "hand. To change the set, edit `SELECTION` in that script and run it again;",
        "`scripts/make-fixtures.py --check` verifies the files against the manifest.",
        "",
        "- Same relative paths as in the corpus (`pngsuite/basn2c08.png`, ...).",
        "- `manifest.json` has the corpus schema (`generated_with`, `files[]` with `path`,",
        "  `category`, `expect`, `width`, `height`, `exif_orientation`, `display`, `frames`,",
        "  `bytes`, `sha256`, `source`, `note`, `verified`, `facts`) and exactly the records",
        "  of the files here. See the corpus README for what each `expect` value means.",
        "- Every file is an unmodified copy of a file made by another project, or (`avif/`, `colour/`)",
        "  made for the corpus from one (`source.derived_from`); each category's `LICENSES/`",
        "  folder holds the licence texts and READMEs of its sources, and each record's",
        "  `source` names the repository, commit, path and licence.",
        "",
        f"{len(records)} files, {total} bytes.",
        "",
        "| file | bytes | expect | display | source licence |",
        "|---|---:|---|---|---|",
    ]
    for cat in cats:
        for r in cats[cat]:
            disp = "x".join(str(v) for v in r["display"]) if r.get("display") else "-"
            lic = r["source"]["license"].split(";")[0]
            lines.append(f"| `{r['path']}` | {r['bytes']} | {r['expect']} | {disp} | {lic} |")
    lines.append("")
    with open(os.path.join(dest, "README.md"), "w") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", default=os.path.join(REPO, "..", "shared", "testdata"))
    ap.add_argument("--dest", default=os.path.join(REPO, "Tests", "Fixtures"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()

    if args.check:
        return 0 if check(args.dest) else 1

    src = os.path.abspath(args.source)
    dest = os.path.abspath(args.dest)
    with open(os.path.join(src, "manifest.json")) as f:
        manifest = json.load(f)
    by_path = {r["path"]: r for r in manifest["files"]}
    missing = [p for p in SELECTION if p not in by_path]
    if missing:
        print("not in the corpus manifest: " + ", ".join(missing), file=sys.stderr)
        return 1

    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)

    wanted = set(SELECTION)
    # Keep the corpus manifest's order.
    records = [r for r in manifest["files"] if r["path"] in wanted]
    for r in records:
        s = os.path.join(src, r["path"])
        if sha256(s) != r["sha256"]:
            print(f"corpus file does not match its manifest: {r['path']}", file=sys.stderr)
            return 1
        d = os.path.join(dest, r["path"])
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copyfile(s, d)
    for cat in sorted({r["category"] for r in records}):
        licences = os.path.join(src, cat, "LICENSES")
        if not os.path.isdir(licences):
            # Files made for the corpus (avif/, colour/) carry the licence of the files they derive from.
            licences = derived_licences(src, manifest, [r for r in records if r["category"] == cat])
        shutil.copytree(licences, os.path.join(dest, cat, "LICENSES"))
        for root, dirs, files in os.walk(os.path.join(dest, cat, "LICENSES")):
            for name in files:
                os.chmod(os.path.join(root, name), 0o644)
            for name in dirs:
                os.chmod(os.path.join(root, name), 0o755)
            os.chmod(root, 0o755)

    out = {"generated_with": manifest["generated_with"], "files": records}
    with open(os.path.join(dest, "manifest.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    write_readme(dest, records)
    # Byte-exact copies: the tests compare sha256 with the manifest, and some
    # files are damaged in ways that end-of-line conversion would change.
    with open(os.path.join(dest, ".gitattributes"), "w") as f:
        f.write("* -text\n")
    return 0 if check(dest) else 1


if __name__ == "__main__":
    sys.exit(main())
