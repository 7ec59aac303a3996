"""Connection, handshake, ping, library, path resolution, client-side checks."""

import os
import socket
import struct
import tempfile
import unittest
from unittest import mock

from support import connect, pc, socket_path


class HandshakeTest(unittest.TestCase):
    def test_handshake_capabilities_and_ping(self):
        with connect() as c:
            caps = c.capabilities
            self.assertEqual(caps.version, 1)
            self.assertTrue(caps.server_version)
            self.assertEqual(caps.max_request_frame, 1048576)
            self.assertGreaterEqual(caps.max_reply_frame, 1048576)
            self.assertIn("png", caps.output_formats)
            self.assertIn("jpeg", caps.input_formats)
            self.assertEqual(c.ping(), caps.server_version)
            self.assertEqual(c.ping(), caps.server_version)  # the connection stays usable
        self.assertTrue(c.closed)
        with self.assertRaises(pc.ConnectionLost):
            c.ping()

    def test_library_and_albums(self):
        with connect() as c:
            info = c.library()
            self.assertTrue(os.path.isabs(info.root))
            self.assertGreater(info.photo_count, 0)
            albums = c.albums()
            self.assertEqual(len(albums), info.album_count)
            self.assertEqual(albums[0].name, "All Photos")
            self.assertEqual(albums[0].photo_count, info.photo_count)
            self.assertEqual([a.index for a in albums], list(range(1, len(albums) + 1)))

    def test_scan_progress_after_the_scan(self):
        with connect() as c:
            info = c.library()
            progress = c.scan_progress()
            self.assertFalse(progress.scanning)
            # Every file the scan looked at: the photos, plus files that are not images.
            self.assertGreaterEqual(progress.files_done, info.photo_count)
            self.assertEqual(progress.files_done, progress.files_expected)

    def test_many_connections(self):
        clients = [connect() for _ in range(5)]
        try:
            versions = {c.ping() for c in clients}
            self.assertEqual(len(versions), 1)
        finally:
            for c in clients:
                c.close()

    def test_pipelined_requests_are_matched_by_id(self):
        with connect() as c:
            ids = [c.send(pc.PING) for _ in range(20)]
            lib = c.send(pc.LIBRARY_INFO)
            self.assertEqual(len(set(ids + [lib])), 21)
            self.assertNotIn(0, ids)
            # Wait in reverse order: replies are routed by id whatever order they come in.
            t, payload = c.wait(lib)
            self.assertEqual(t, pc.LIBRARY_INFO_REPLY)
            for i in reversed(ids):
                t, payload = c.wait(i)
                self.assertEqual(t, pc.PONG)

    def test_unknown_message_type_keeps_the_connection(self):
        with connect() as c:
            rid = c.send(0x05)  # a reply type sent as a request
            with self.assertRaises(pc.PickerError) as cm:
                c.wait(rid)
            self.assertEqual(cm.exception.code, pc.UNKNOWN_MESSAGE_TYPE)
            self.assertEqual(cm.exception.name, "unknown_message_type")
            self.assertEqual(cm.exception.request_id, rid)
            self.assertTrue(c.ping())


class RawSocketTest(unittest.TestCase):
    """What the server does to a client that breaks the rules (PROTOCOL.md, Connection lifecycle)."""

    def _raw(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(30)
        s.connect(socket_path())
        return s

    def _read_frame(self, s):
        def exact(n):
            buf = b""
            while len(buf) < n:
                chunk = s.recv(n - len(buf))
                if not chunk:
                    raise EOFError
                buf += chunk
            return buf
        (length,) = struct.unpack(">I", exact(4))
        body = exact(length)
        return body[0], struct.unpack(">I", body[1:5])[0], body[5:]

    def test_request_before_hello_is_handshake_required(self):
        s = self._raw()
        try:
            s.sendall(struct.pack(">IBI", 5, 0x04, 7))  # ping before hello
            t, rid, payload = self._read_frame(s)
            self.assertEqual((t, rid), (0x03, 7))
            self.assertEqual(struct.unpack(">H", payload[:2])[0], pc.HANDSHAKE_REQUIRED)
            self.assertEqual(s.recv(1), b"")  # closed
        finally:
            s.close()

    def test_unsupported_version(self):
        s = self._raw()
        try:
            name = b"future"
            payload = struct.pack(">HI", 99, len(name)) + name
            s.sendall(struct.pack(">IBI", 5 + len(payload), 0x01, 1) + payload)
            t, rid, payload = self._read_frame(s)
            self.assertEqual((t, rid), (0x03, 1))
            self.assertEqual(struct.unpack(">H", payload[:2])[0], pc.UNSUPPORTED_VERSION)
        finally:
            s.close()


class SocketPathTest(unittest.TestCase):
    def test_default_socket_path_resolution(self):
        env = {"PICKER_SOCKET": "/x/p.sock", "XDG_RUNTIME_DIR": "/run/user/5"}
        with mock.patch.dict(os.environ, env):
            self.assertEqual(pc.default_socket_path(), "/x/p.sock")
        with mock.patch.dict(os.environ, dict(env, PICKER_SOCKET="")):
            self.assertEqual(pc.default_socket_path(), "/run/user/5/pickerd.sock")
        with mock.patch.dict(os.environ, {"PICKER_SOCKET": "", "XDG_RUNTIME_DIR": ""}):
            self.assertEqual(pc.default_socket_path(), "/tmp/pickerd-%d/pickerd.sock" % os.getuid())

    def test_client_uses_picker_socket(self):
        with mock.patch.dict(os.environ, {"PICKER_SOCKET": socket_path()}):
            with pc.Client(timeout=30) as c:
                self.assertEqual(c.socket_path, socket_path())
                self.assertTrue(c.ping())

    def test_daemon_not_running(self):
        with tempfile.TemporaryDirectory(dir="/tmp") as d:
            with self.assertRaises(pc.DaemonNotRunning) as cm:
                pc.Client(os.path.join(d, "nobody.sock"))
            self.assertIn("not running", str(cm.exception))
            # A socket file nobody listens on: ECONNREFUSED.
            path = os.path.join(d, "stale.sock")
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(path)
            s.close()
            with self.assertRaises(pc.DaemonNotRunning):
                pc.Client(path)


if __name__ == "__main__":
    unittest.main()
