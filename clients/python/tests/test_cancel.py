"""Cancellation, supersession and oversized frames."""

import contextlib
import socket
import struct
import unittest

from support import album_with, connect, pc, png_size, socket_path, unique


# pickerd runs at most this many image requests of one connection at once; later ones wait,
# in order, until one of those is answered (ServerLimits.maxImageWorkPerConnection).
IMAGE_WORK_PER_CONNECTION = 4


@contextlib.contextmanager
def one_write(client):
    """Requests sent inside the block leave in a single write when it ends, so pickerd reads
    them in one go and acts on all of them before it learns that any of their work finished."""
    frames = []
    client._write_frame = lambda type_, rid, payload: frames.append(
        struct.pack(">IBI", 5 + len(payload), type_, rid) + payload)
    try:
        yield
    finally:
        del client._write_frame
    client._sock.sendall(b"".join(frames))


class CancelTest(unittest.TestCase):
    """Deterministic on any machine: four image requests on other sessions fill the connection's
    image slots, so a later image request waits until the test has read (none can finish first)."""

    def setUp(self):
        self.c = connect()
        self.addCleanup(self.c.close)
        album = album_with(self.c)
        self.sessions = []
        for prefix in ["filler"] * IMAGE_WORK_PER_CONNECTION + ["cancel"]:
            s = self.c.create_session(unique(prefix), 240, 180)
            self.sessions.append(s)
            s.select_album(album.name)
            s.select_photo(1)
        self.fillers, self.s = self.sessions[:-1], self.sessions[-1]
        self.addCleanup(self._close)

    def _close(self):
        if not self.c.closed:
            for s in self.sessions:
                s.close()

    def _fill_image_slots(self):
        return [f.get_image(no_cache=True, wait=False) for f in self.fillers]

    def test_cancel_a_waiting_image_request(self):
        with one_write(self.c):
            busy = self._fill_image_slots()
            waiting = self.s.get_image(no_cache=True, wait=False)
            cancel_id = self.c.send(pc.CANCEL, struct.pack(">I", waiting.id))
        self.assertIsInstance(waiting, pc.Pending)
        type_, payload = self.c.wait(cancel_id)
        self.assertEqual((type_, payload), (pc.CANCEL_REPLY, struct.pack(">IB", waiting.id, 1)))  # found
        with self.assertRaises(pc.PickerError) as cm:
            waiting.result()
        self.assertEqual(cm.exception.code, 8)
        self.assertEqual(cm.exception.name, "cancelled")
        self.assertEqual(cm.exception.request_id, waiting.id)
        self.assertIn("cancelled by the client", cm.exception.message)
        for pending in busy:                      # the ones running are not touched
            self.assertGreater(png_size(pending.result())[0], 0)
        # The cancelled request got exactly one reply; the connection goes on.
        self.assertFalse(self.c.cancel(waiting.id))
        self.assertTrue(self.c.ping())
        self.assertNotIn(waiting.id, self.c._replies)

    def test_cancel_of_an_answered_or_unknown_id_is_not_found(self):
        rid = self.c.send(pc.PING)
        self.c.wait(rid)
        self.assertFalse(self.c.cancel(rid))
        self.assertFalse(self.c.cancel(0xFFFFFF))

    def test_newer_image_request_supersedes_a_waiting_one(self):
        with one_write(self.c):
            busy = self._fill_image_slots()
            pending = [self.s.get_image(no_cache=True, wait=False) for _ in range(3)]
        last = pending[-1].result()
        self.assertGreater(png_size(last)[0], 0)
        for older in pending[:-1]:                # all waited: each superseded by the next
            with self.assertRaises(pc.PickerError) as cm:
                older.result()
            self.assertEqual(cm.exception.code, pc.CANCELLED)
            self.assertIn("superseded", cm.exception.message)
        for p in busy:
            self.assertGreater(png_size(p.result())[0], 0)


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
