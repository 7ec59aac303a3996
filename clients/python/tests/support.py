"""Shared helpers for the tests: they run against the live pickerd started by run-tests.sh
(PICKER_SOCKET names its socket, PICKER_BIN_DIR holds pickerctl)."""

import itertools
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pickerd_client as pc  # noqa: E402  (the package in this folder)

TIMEOUT = 60.0
_counter = itertools.count(1)
PROTOCOL_MD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "PROTOCOL.md")
_HEX_BLOCK = re.compile(r"<!-- (vector|refused|extended): ([^>]*?) -->\s*```hex\n(.*?)```", re.S)


def protocol_blocks(kind):
    """The hex blocks of docs/PROTOCOL.md marked `kind` (vector, refused, extended): (title, bytes)."""
    with open(PROTOCOL_MD, encoding="utf-8") as f:
        text = f.read()
    for found, title, body in _HEX_BLOCK.findall(text):
        if found == kind:
            yield title.strip(), bytes.fromhex(" ".join(line.split("#", 1)[0] for line in body.splitlines()))


def assert_extended_round_trips(test, word, tag, expected):
    """The `extended` blocks whose title has `word` are exactly `expected` (title -> the entry's bytes):
    each decodes with that one entry under `tag` and re-encodes byte for byte."""
    blocks = {t: b for t, b in protocol_blocks("extended") if word in t}
    test.assertEqual(set(blocks), set(expected))
    for title, data in blocks.items():
        with test.subTest(block=title):
            framer = pc.wire.Framer()
            framer.feed(data)
            frame = framer.next()
            test.assertEqual(frame.name, title.split()[0])
            fields = frame.fields()
            test.assertEqual(fields["extensions"], {tag: expected[title]})
            test.assertEqual(pc.wire.encode_frame(frame.type, frame.id, fields), data)


def socket_path() -> str:
    path = os.environ.get("PICKER_SOCKET")
    if not path:
        raise unittest.SkipTest("PICKER_SOCKET is not set: run the tests through run-tests.sh")
    return path


def connect() -> pc.Client:
    return pc.Client(socket_path(), timeout=TIMEOUT, client_name="pickerd_client tests")


def unique(prefix: str) -> str:
    return "%s-%d-%d" % (prefix, os.getpid(), next(_counter))


def png_size(data: bytes):
    """(width, height) from a PNG's IHDR; fails the test if it is not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise AssertionError("not a PNG: %r" % (data[:16],))
    return struct.unpack(">II", data[16:24])


def pickerctl(*args: str) -> subprocess.CompletedProcess:
    bin_dir = os.environ.get("PICKER_BIN_DIR")
    if not bin_dir or not os.path.exists(os.path.join(bin_dir, "pickerctl")):
        raise unittest.SkipTest("PICKER_BIN_DIR has no pickerctl")
    return subprocess.run([os.path.join(bin_dir, "pickerctl"), "--socket", socket_path()] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT, check=False)


def album_with(client: pc.Client, min_photos: int = 1) -> pc.Album:
    """A folder album (not "All Photos") with at least min_photos photos."""
    for album in client.albums():
        if album.index != 1 and album.photo_count >= min_photos:
            return album
    raise unittest.SkipTest("the test library has no album with %d photos" % min_photos)


class OwnDaemon:
    """A pickerd of a test's own on a temporary library: ``files`` maps album names to the
    files copied into them. ``with OwnDaemon(...) as d:`` starts it and waits for its first
    scan; leaving the block stops it (SIGTERM) and removes everything."""

    def __init__(self, files, *args: str):
        self.files, self.args = files, args

    def __enter__(self) -> "OwnDaemon":
        bin_dir = os.environ.get("PICKER_BIN_DIR") or ""
        if not os.path.exists(os.path.join(bin_dir, "pickerd")):
            raise unittest.SkipTest("PICKER_BIN_DIR has no pickerd")
        self.tmp = tempfile.mkdtemp(prefix="pkown", dir="/tmp")  # short: sun_path holds 107 bytes
        for album, paths in self.files.items():
            os.makedirs(os.path.join(self.tmp, "lib", album))
            for path in paths:
                shutil.copy(path, os.path.join(self.tmp, "lib", album))
        self.socket = os.path.join(self.tmp, "s.sock")
        self.log = open(os.path.join(self.tmp, "pickerd.log"), "wb")
        self.process = subprocess.Popen(
            [os.path.join(bin_dir, "pickerd"), "--library", os.path.join(self.tmp, "lib"), "--socket", self.socket,
             "--state-dir", os.path.join(self.tmp, "state")] + list(self.args),
            stdout=self.log, stderr=self.log, env=dict(os.environ, XDG_CACHE_HOME=os.path.join(self.tmp, "cache")))
        deadline = time.monotonic() + 20
        while not self._ready():
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.__exit__()
                raise AssertionError("pickerd did not start")
            time.sleep(0.1)
        return self

    def _ready(self) -> bool:
        try:
            with pc.Client(self.socket, timeout=5) as c:
                return c.library().ready
        except (pc.PickerError, OSError, TimeoutError):
            return False

    def client(self) -> pc.Client:
        return pc.Client(self.socket, timeout=30)

    def __exit__(self, *exc) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)
