"""pickerd closes idle connections (--idle-timeout): the client opens a new one for the next
request, or says clearly why it cannot. Runs a pickerd of its own with a 1-second idle timeout."""

import os
import shutil
import subprocess
import tempfile
import struct
import time
import unittest
import zlib
from unittest import mock

from support import pc

IDLE_SECONDS = 1
# The close comes within a second after the timeout; a loaded machine gets some more.
WAIT_FOR_CLOSE = IDLE_SECONDS + 2.5


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


# A 2x2 RGB PNG.
PNG = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
       + chunk(b"IDAT", zlib.compress(b"\0" + b"\x80" * 6 + b"\0" + b"\x40" * 6)) + chunk(b"IEND", b""))


class IdleCloseTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        bin_dir = os.environ.get("PICKER_BIN_DIR")
        if not bin_dir or not os.path.exists(os.path.join(bin_dir, "pickerd")):
            raise unittest.SkipTest("PICKER_BIN_DIR has no pickerd")
        cls.tmp = tempfile.mkdtemp(prefix="pkidle", dir="/tmp")  # short: sun_path holds 107 bytes
        os.makedirs(os.path.join(cls.tmp, "lib", "A"))
        with open(os.path.join(cls.tmp, "lib", "A", "one.png"), "wb") as f:
            f.write(PNG)
        cls.sock = os.path.join(cls.tmp, "s.sock")
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(cls.tmp, "cache"))
        cls.log = open(os.path.join(cls.tmp, "pickerd.log"), "wb")
        cls.daemon = subprocess.Popen(
            [os.path.join(bin_dir, "pickerd"), "--library", os.path.join(cls.tmp, "lib"), "--socket", cls.sock,
             "--state-dir", os.path.join(cls.tmp, "state"), "--idle-timeout", str(IDLE_SECONDS)],
            stdout=cls.log, stderr=cls.log, env=env)
        deadline = time.monotonic() + 20
        while True:
            try:
                with pc.Client(cls.sock, timeout=5) as c:
                    if c.library().ready:
                        return
            except (pc.PickerError, OSError, TimeoutError):
                pass
            if time.monotonic() > deadline or cls.daemon.poll() is not None:
                cls.tearDownClass()
                raise AssertionError("pickerd --idle-timeout %d did not start" % IDLE_SECONDS)
            time.sleep(0.1)

    @classmethod
    def tearDownClass(cls):
        cls.daemon.terminate()
        cls.daemon.wait(timeout=10)
        cls.log.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def client(self, **kw) -> pc.Client:
        return pc.Client(self.sock, timeout=10, client_name="idle-close test", **kw)

    def test_a_request_after_an_idle_close_reconnects_transparently(self):
        with self.client() as c:
            session = c.create_session("idle-%d" % os.getpid(), 80, 60)
            session.select_album("A")
            time.sleep(WAIT_FOR_CLOSE)
            self.assertEqual(c.ping(), c.capabilities.server_version)
            self.assertEqual(c.reconnects, 1, "the daemon closed the idle connection, the client opened another")
            self.assertEqual(session.status().album, "A", "the session lives in the daemon")
            time.sleep(WAIT_FOR_CLOSE)
            self.assertEqual(len(session.photos().photos), 1)
            self.assertEqual(c.reconnects, 2)

    def test_without_reconnect_the_error_says_why(self):
        with self.client(reconnect=False) as c:
            time.sleep(WAIT_FOR_CLOSE)
            with self.assertRaises(pc.ConnectionLost) as caught:
                c.ping()
            self.assertIn("idle", str(caught.exception))
            self.assertIn("--idle-timeout", str(caught.exception))

    def test_a_request_written_into_the_closed_connection_is_sent_again(self):
        # As when the daemon closes just as the request goes out: the client does not look first,
        # so the frame is written into the closed socket and the loss is seen after it.
        with self.client() as c:
            time.sleep(WAIT_FOR_CLOSE)
            original = pc.Client._reopen_if_idle_closed
            looks = []

            def look_later(client):
                looks.append(1)
                if len(looks) > 1:
                    original(client)

            with mock.patch.object(pc.Client, "_reopen_if_idle_closed", look_later):
                version = c.ping()
            self.assertEqual(version, c.capabilities.server_version)
            self.assertEqual(c.reconnects, 1)

    def test_a_subscriber_is_not_closed_and_not_reopened(self):
        with self.client() as c:
            name = "idle-sub-%d" % os.getpid()
            c.create_session(name, 80, 60)
            c.subscribe(session=name)
            time.sleep(WAIT_FOR_CLOSE)
            c.ping()
            self.assertEqual(c.reconnects, 0)

    def test_closing_the_client_is_final(self):
        c = self.client()
        c.close()
        with self.assertRaises(pc.ConnectionLost):
            c.ping()
        self.assertEqual(c.reconnects, 0)


if __name__ == "__main__":
    unittest.main()
