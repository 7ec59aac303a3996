#!/usr/bin/env python3
"""Writes a copy of a picture with a given ICC profile embedded, for colour-management tests.

  make_profiled.py SOURCE OUTPUT PROFILE_FILE|garbage
      OUTPUT's extension picks the format (.jpg: APP2 chunks, .png: iCCP, .webp: ICCP).
      `garbage` embeds 3000 bytes that are no ICC profile (an ICC-sized header of junk).
      The pixels are SOURCE's, unconverted: a viewer that ignores the profile shows SOURCE.
  make_profiled.py --convert SOURCE OUTPUT RGB_PROFILE
      SOURCE (sRGB) converted into RGB_PROFILE's space by Little CMS (Pillow ImageCms) and saved
      with that profile: a colour-managed viewer shows SOURCE.
  make_profiled.py --cmyk SOURCE OUTPUT.jpg CMYK_PROFILE REFERENCE.png
      SOURCE (sRGB) converted into CMYK_PROFILE's space by Little CMS (Pillow ImageCms), saved as
      an Adobe CMYK JPEG with that profile; REFERENCE is that JPEG converted back to sRGB by
      ImageCms: what a colour-managed viewer shows.
"""
import sys

from PIL import Image


def cmyk(argv):
    from PIL import ImageCms
    source, output, profile, reference = argv[2], argv[3], argv[4], argv[5]
    srgb = ImageCms.createProfile("sRGB")
    img = ImageCms.profileToProfile(Image.open(source).convert("RGB"), srgb, profile, outputMode="CMYK")
    with open(profile, "rb") as f:
        img.save(output, quality=95, icc_profile=f.read())
    back = Image.open(output)
    ImageCms.profileToProfile(back, profile, srgb, outputMode="RGB").save(reference)
    return 0


def convert(argv):
    from PIL import ImageCms
    source, output, profile = argv[2], argv[3], argv[4]
    img = ImageCms.profileToProfile(Image.open(source).convert("RGB"), ImageCms.createProfile("sRGB"), profile,
                                    outputMode="RGB")
    with open(profile, "rb") as f:
        img.save(output, icc_profile=f.read())
    return 0


def main(argv):
    if argv[1] == "--cmyk":
        return cmyk(argv)
    if argv[1] == "--convert":
        return convert(argv)
    source, output, profile = argv[1], argv[2], argv[3]
    if profile == "garbage":
        icc = bytes((i * 37 + 11) % 256 for i in range(3000))
    else:
        with open(profile, "rb") as f:
            icc = f.read()
    img = Image.open(source).convert("RGB")
    options = {"icc_profile": icc}
    if output.endswith(".jpg"):
        options["quality"] = 95
    img.save(output, **options)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
