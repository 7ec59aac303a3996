#!/usr/bin/env python3
"""Seeds of the "library" fuzz target (fuzz/regressions/library/): small structured files whose
declared sizes, offsets and counts StructureMutator rewrites. Copies of a few image regressions
(PNG, JPEG, WebP, the HEIF grid files, the issue 21 #1 headers) and one built here: a JPEG whose
APP2 carries an ICC profile with a 16-element mpet chain (within the ICC vetting caps), so the
mutator reaches a profile's counts uncompressed. Standard library only; run from anywhere."""
import os, shutil, struct, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "tools"))
import make_hostile_icc  # noqa: E402

COPIED = [
    "fixture-pngsuite-basn2c08.png", "fixture-pngsuite-basn6a08.png", "fixture-pngsuite-s01n3p01.png",
    "fixture-exif-orientation-pillow_orientation_rectangle.jpg", "fixture-jpeg-edge-moz_jpg-gray.jpg",
    "fixture-exif-orientation-hopper_orientation_6.webp", "heic-grid-output-16384-ispe-512.heic",
    "png-ihdr-2147483647-squared.png", "webp-vp8x-2p24-squared.webp", "jpeg-sof-65535-squared.jpg",
    "png-3x2.png",
]


def jpeg_with_icc(jpeg, icc):
    """`jpeg` with an APP2 ICC_PROFILE segment (one chunk) after SOI."""
    body = b"ICC_PROFILE\0" + bytes([1, 1]) + icc
    assert len(body) + 2 <= 0xFFFF
    return jpeg[:2] + b"\xff\xe2" + struct.pack(">H", len(body) + 2) + body + jpeg[2:]


def main():
    image = os.path.join(HERE, "image")
    out = os.path.join(HERE, "library")
    os.makedirs(out, exist_ok=True)
    for name in COPIED:
        shutil.copyfile(os.path.join(image, name), os.path.join(out, name))
    # A plain HEIC (Tests/Fixtures/heic, licence in Tests/Fixtures/LICENSES): ispe, iloc, ipma to rewrite.
    shutil.copyfile(os.path.join(ROOT, "Tests", "Fixtures", "heic", "libheif_rainbow-451x461.heic"),
                    os.path.join(out, "fixture-heic-libheif_rainbow-451x461.heic"))
    jpeg = open(os.path.join(image, "fixture-exif-orientation-pillow_orientation_rectangle.jpg"), "rb").read()
    with open(os.path.join(out, "jpeg-app2-icc-mpet-16.jpg"), "wb") as f:
        f.write(jpeg_with_icc(jpeg, make_hostile_icc.profile(16)))
    print(f"{out}: {len(os.listdir(out))} files")


if __name__ == "__main__":
    main()
