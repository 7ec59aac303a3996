"""Cancellation, supersession and oversized frames."""

import socket
import struct
import unittest

from support import connect, pc, png_size, socket_path, unique


class CancelTest(unittest.TestCase):
    def setUp(self):
        self.c = connect()
        self.addCleanup(self.c.close)
        # The largest photo, in a huge pane, uncached: slow enough to cancel behind it.
        best = None
        for album in self.c.albums():
            if album.index == 1 or album.photo_count == 0:
                continue
            s = self.c.create_session(unique("cx"), 8192, 8192)
            try:
                s.select_album(album.name)
                for p in s.photos():
                    if best is None or p.width * p.height > best[2]:
                        best = (album.name, p.name, p.width * p.height)
            finally:
                s.close()
        if best is None:
            self.skipTest("no photos")
        self.s = self.c.create_session(unique("cancel"), 8192, 8192)
        self.addCleanup(self._close)
        self.s.select_album(best[0])
        self.s.select_photo(best[1])

    def _close(self):
        if not self.c.closed:
            self.s.close()

    def test_cancel_a_waiting_image_request(self):
        first = self.s.get_image(no_cache=True, wait=False)
        second = self.s.get_image(no_cache=True, wait=False)
        self.assertIsInstance(first, pc.Pending)
        self.assertTrue(self.c.cancel(second.id))   # found: still waiting behind the first
        with self.assertRaises(pc.PickerError) as cm:
            second.result()
        self.assertEqual(cm.exception.code, 8)
        self.assertEqual(cm.exception.name, "cancelled")
        self.assertEqual(cm.exception.request_id, second.id)
        self.assertIn("cancelled by the client", cm.exception.message)
        # The first completes, unless the second superseded it before it started.
        try:
            png = first.result()
            self.assertGreater(png_size(png)[0], 0)
        except pc.PickerError as e:
            self.assertEqual(e.code, pc.CANCELLED)
            self.assertIn("superseded", e.message)
        # The cancelled request got exactly one reply; the connection goes on.
        self.assertFalse(self.c.cancel(second.id))
        self.assertTrue(self.c.ping())
        self.assertNotIn(second.id, self.c._replies)

    def test_cancel_of_an_answered_or_unknown_id_is_not_found(self):
        rid = self.c.send(pc.PING)
        self.c.wait(rid)
        self.assertFalse(self.c.cancel(rid))
        self.assertFalse(self.c.cancel(0xFFFFFF))

    def test_newer_image_request_supersedes_a_waiting_one(self):
        pending = [self.s.get_image(no_cache=True, wait=False) for _ in range(3)]
        last = pending[-1].result()
        self.assertGreater(png_size(last)[0], 0)
        with self.assertRaises(pc.PickerError) as cm:
            pending[1].result()                 # waited behind the first: superseded
        self.assertEqual(cm.exception.code, pc.CANCELLED)
        self.assertIn("superseded", cm.exception.message)


class FrameTooLargeTest(unittest.TestCase):
    def test_client_refuses_to_send_an_oversized_request(self):
        with connect() as c:
            with self.assertRaises(pc.PickerError) as cm:
                c.send(pc.PING, b"\0" * c.capabilities.max_request_frame)
            self.assertEqual(cm.exception.code, pc.FRAME_TOO_LARGE)
            self.assertTrue(c.ping())          # nothing was sent; the connection is fine

    def test_server_closes_on_a_frame_over_1_mib(self):
        bystander = connect()
        self.addCleanup(bystander.close)
        with connect() as c:
            # Bypass the client's own check to see what the server does.
            try:
                c._write_frame(pc.PING, 99, b"\0" * (1 << 20))
                c.ping()
            except pc.ConnectionLost as e:
                lost = e
            else:
                self.fail("the connection survived a frame over 1 MiB")
            self.assertEqual(lost.code, 3)
            self.assertEqual(lost.name, "frame_too_large")
            self.assertEqual(lost.request_id, 0)
            self.assertTrue(c.closed)
            with self.assertRaises(pc.ConnectionLost):
                c.ping()
        self.assertTrue(bystander.ping())      # other connections are unaffected

    def test_length_prefix_alone_is_refused(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(30)
        s.connect(socket_path())
        try:
            hello = struct.pack(">HI", 1, 0)
            s.sendall(struct.pack(">IBI", 5 + len(hello), 0x01, 1) + hello)
            s.sendall(struct.pack(">I", 2000000))   # PROTOCOL.md's refused vector
            frames, data = [], b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            while data:
                (n,) = struct.unpack(">I", data[:4])
                frames.append((data[4], struct.unpack(">I", data[5:9])[0], data[9:4 + n]))
                data = data[4 + n:]
            self.assertEqual([(t, i) for t, i, _ in frames], [(0x02, 1), (0x03, 0)])
            self.assertEqual(struct.unpack(">H", frames[1][2][:2])[0], pc.FRAME_TOO_LARGE)
        finally:
            s.close()


if __name__ == "__main__":
    unittest.main()
