"""Plants a solid-colour freedesktop shared thumbnail for a photo, as another program would
have written it: PNG with Thumb::URI and Thumb::MTime, named by the MD5 of the URI.

usage: plant_thumbnail.py CACHE_HOME FLAVOR PHOTO WIDTH HEIGHT R G B
"""
import hashlib
import os
import sys
import urllib.parse

from PIL import Image
from PIL.PngImagePlugin import PngInfo


def main(argv):
    cache_home, flavor, photo = argv[1], argv[2], os.path.realpath(argv[3])
    width, height, r, g, b = (int(v) for v in argv[4:9])
    uri = "file://" + urllib.parse.quote(photo)
    folder = os.path.join(cache_home, "thumbnails", flavor)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    info = PngInfo()
    info.add_text("Thumb::URI", uri)
    info.add_text("Thumb::MTime", str(int(os.stat(photo).st_mtime)))
    out = os.path.join(folder, hashlib.md5(uri.encode()).hexdigest() + ".png")
    Image.new("RGB", (width, height), (r, g, b)).save(out, pnginfo=info)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
