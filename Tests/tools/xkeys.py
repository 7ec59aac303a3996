#!/usr/bin/env python3
"""Types keys into the X window under the pointer, through the XTEST extension (libXtst), no xdotool.

usage: xkeys.py DISPLAY X Y KEYSYM...

A KEYSYM may be a chord, names joined by "+" (Alt_L+x: held in order, released in reverse).

Moves the pointer to X,Y (the window there gets the keys: Xvfb without a window manager focuses the
window under the pointer), then presses and releases each keysym (X names: g, p, q, Escape, Return...).
"""
import ctypes
import sys
import time

x11 = ctypes.CDLL("libX11.so.6")
xtst = ctypes.CDLL("libXtst.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XStringToKeysym.restype = ctypes.c_ulong
x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
x11.XKeysymToKeycode.restype = ctypes.c_ubyte
x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
x11.XFlush.argtypes = [ctypes.c_void_p]
x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]


def main():
    display = x11.XOpenDisplay(sys.argv[1].encode())
    if not display:
        sys.exit("cannot open display " + sys.argv[1])
    xtst.XTestFakeMotionEvent(display, -1, int(sys.argv[2]), int(sys.argv[3]), 0)
    x11.XFlush(display)
    time.sleep(0.1)
    for key in sys.argv[4:]:
        names = key.split("+") if len(key) > 1 else [key]
        codes = [x11.XKeysymToKeycode(display, x11.XStringToKeysym(name.encode())) for name in names]
        if 0 in codes:
            sys.exit("no keycode for " + key)
        for code in codes:
            xtst.XTestFakeKeyEvent(display, code, 1, 0)
        for code in reversed(codes):
            xtst.XTestFakeKeyEvent(display, code, 0, 0)
        x11.XFlush(display)
        time.sleep(0.05)
    x11.XCloseDisplay(display)


if __name__ == "__main__":
    main()
