#!/usr/bin/env python3
"""The attacker of the swap-race test: someone who can write in the library.

  swap_race.py make LIBRARY OUTSIDE
      LIBRARY/Album/p.png is bright (grey 230), OUTSIDE/Album/p.png, same size and name, dark
      (grey 20); LIBRARY/.swap is a symlink to OUTSIDE/Album (hidden, so never indexed).
  swap_race.py swap LIBRARY SECONDS
      Exchanges LIBRARY/Album and LIBRARY/.swap with renameat2(RENAME_EXCHANGE) in a tight loop
      for SECONDS, then leaves Album as the symlink to the outside folder. Prints the swap count.
"""
import ctypes
import os
import sys
import time

from PIL import Image

AT_FDCWD = -100
RENAME_EXCHANGE = 2


def make(library, outside):
    for root, grey in ((library, 230), (outside, 20)):
        os.makedirs(os.path.join(root, "Album"), exist_ok=True)
        Image.new("RGB", (640, 480), (grey, grey, grey)).save(os.path.join(root, "Album", "p.png"))
    os.symlink(os.path.join(outside, "Album"), os.path.join(library, ".swap"))


def swap(library, seconds):
    libc = ctypes.CDLL(None, use_errno=True)
    album = os.path.join(library, "Album").encode()
    other = os.path.join(library, ".swap").encode()

    def exchange():
        if libc.renameat2(AT_FDCWD, album, AT_FDCWD, other, RENAME_EXCHANGE) != 0:
            err = ctypes.get_errno()
            sys.exit(f"swap_race: renameat2: {os.strerror(err)}")

    count = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        exchange()
        count += 1
    if not os.path.islink(album):
        exchange()
        count += 1
    print(count)


def main(argv):
    if argv[1] == "make":
        make(argv[2], argv[3])
    elif argv[1] == "swap":
        swap(argv[2], float(argv[3]))
    else:
        sys.exit(f"swap_race: unknown command {argv[1]}")


if __name__ == "__main__":
    main(sys.argv)
