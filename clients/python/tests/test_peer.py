"""The client talks only to a server of its own uid, through a folder that is its own."""

import os
import shutil
import socket
import tempfile
import unittest
from unittest import mock

from support import connect, pc


def _serve_once_as(uid: int, path: str, report_fd: int, ready_fd: int) -> None:
    """In a forked child: listen on `path` as `uid`, accept one connection and report how many
    bytes its first read brought (0 when the client closed without sending)."""
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
        s.listen(1)  # the credentials a client sees are taken here, after setuid
        os.write(ready_fd, b"r")
        s.settimeout(60)  # a safety net if the parent never connects
        c, _ = s.accept()
        c.settimeout(60)
        os.write(report_fd, str(len(c.recv(65536))).encode())
    finally:
        os._exit(0)


class PeerCheckTest(unittest.TestCase):
    def test_server_of_our_uid_is_spoken_to(self):
        with connect() as c:
            self.assertTrue(c.ping())

    @unittest.skipUnless(os.getuid() == 0, "needs root to run a server as another uid")
    def test_server_of_another_uid_is_refused_before_any_byte(self):
        with tempfile.TemporaryDirectory(dir="/tmp") as d:
            path = os.path.join(d, "impostor.sock")
            ready_r, ready_w = os.pipe()
            report_r, report_w = os.pipe()
            pid = os.fork()
            if pid == 0:
                _serve_once_as(65534, path, report_w, ready_w)
            os.close(ready_w)
            os.close(report_w)
            try:
                self.assertEqual(os.read(ready_r, 1), b"r")
                with self.assertRaises(pc.UntrustedServer) as cm:
                    pc.Client(path, timeout=30)
                self.assertIn("served by uid 65534, not by you (uid 0)", str(cm.exception))
                self.assertEqual(os.read(report_r, 32), b"0", "the impostor received bytes")
            finally:
                os.waitpid(pid, 0)
                os.close(ready_r)
                os.close(report_r)

    def test_fallback_folder_open_to_others_is_refused(self):
        # Pretend to be a throwaway uid, so the fallback folder is one this test may create and remove.
        uid = 48000 + os.getpid() % 1000
        folder = "/tmp/pickerd-%d" % uid
        if os.path.lexists(folder):
            self.skipTest("%s exists already" % folder)
        os.mkdir(folder)
        try:
            os.chmod(folder, 0o777)
            if os.getuid() == 0:
                os.chown(folder, uid, uid)
            with mock.patch("os.getuid", return_value=uid):
                with self.assertRaises(pc.UntrustedServer) as cm:
                    pc.Client(os.path.join(folder, "pickerd.sock"))
            expected = "has mode 777" if os.getuid() == 0 else "not to you (uid %d)" % uid
            self.assertIn(expected, str(cm.exception))
        finally:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
