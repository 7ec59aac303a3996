"""The wire codec against every hex vector of docs/PROTOCOL.md (the bytes the Swift tests
check): each ``vector`` block decodes to its named message and re-encodes byte for byte;
each ``refused`` block fails with the error code it names."""

import unittest

from support import pc, protocol_blocks

wire = pc.wire


class ProtocolVectorTest(unittest.TestCase):
    def test_every_vector_round_trips(self):
        seen = set()
        vectors = list(protocol_blocks("vector"))
        self.assertGreaterEqual(len(vectors), 60, "PROTOCOL.md lost its vectors")
        for title, data in vectors:
            with self.subTest(vector=title):
                framer = wire.Framer()
                for i in range(len(data)):  # one byte at a time: "need more" until the end
                    self.assertIsNone(framer.next())
                    framer.feed(data[i:i + 1])
                frame = framer.next()
                self.assertIsNotNone(frame)
                self.assertEqual(len(framer.buffer), 0)
                name, _, rest = title.partition(" ")
                self.assertEqual(frame.name, name)
                self.assertEqual("id=%d" % frame.id, rest.split()[0])
                fields = frame.fields()
                self.assertEqual(wire.encode_frame(frame.type, frame.id, fields), data)
                seen.add(frame.type)
        # Every message type has a vector, as PROTOCOL.md promises.
        self.assertEqual(set(wire.MESSAGES) - seen, set())

    def test_every_refused_block_fails_with_its_code(self):
        refused = list(protocol_blocks("refused"))
        self.assertGreaterEqual(len(refused), 5)
        for title, data in refused:
            with self.subTest(refused=title):
                with self.assertRaises(wire.WireError) as caught:
                    wire.decode_request(data)
                self.assertEqual(wire.error_name(caught.exception.code), title.split()[0])

    def test_unknown_error_codes_and_event_kinds_are_kept(self):
        self.assertIs(wire.error_code(16), wire.ErrorCode.SELECTION_FULL)
        self.assertEqual(wire.error_code(4242), 4242)
        self.assertEqual(wire.error_name(4242), "internal")
        framer = wire.Framer()
        framer.feed(wire.frame(0x9A, 30, b"\x01\x02\x03"))
        frame = framer.next()
        self.assertTrue(frame.is_event)
        self.assertFalse(frame.known)
        event = pc.decode_event(frame)
        self.assertIsInstance(event, pc.UnknownEvent)
        self.assertEqual((event.subscription, event.type, event.payload), (30, 0x9A, b"\x01\x02\x03"))

    def test_preview_flags_are_optional_trailing_and_cells_ranged(self):
        T = wire.MessageType.PREVIEW
        base = dict(session="main", width=1920, height=1080, format=wire.Format.JPEG, quality=0)
        old = wire.encode_payload(T, base)
        self.assertEqual(wire.decode_payload(T, old), dict(base, flags=0, cells=None, extensions={}))
        self.assertEqual(wire.decode_payload(T, old + b"\x00"), dict(base, flags=0, cells=None, extensions={}))
        cells = dict(base, format=wire.Format.SYMBOLS, flags=2, cells={"cols": 120, "rows": 40}, extensions={})
        self.assertEqual(wire.encode_payload(T, cells), old[:-2] + b"\x07\x00\x02\x00\x78\x00\x28")
        self.assertEqual(wire.decode_payload(T, wire.encode_payload(T, cells)), cells)
        for bad in (0, 1001):
            with self.assertRaises(wire.WireError) as caught:
                wire.decode_payload(T, wire.encode_payload(T, cells, cells={"cols": 120, "rows": bad}))
            self.assertEqual(caught.exception.code, wire.ErrorCode.OUT_OF_RANGE)
        with self.assertRaises(wire.WireError) as caught:
            wire.decode_payload(T, old + b"\x02\x00\x78")  # cells cut short
        self.assertEqual(caught.exception.code, wire.ErrorCode.MALFORMED_FRAME)

    def test_many_frames_in_one_read_and_trailing_bytes(self):
        ping = wire.encode_frame(wire.MessageType.PING, 7)
        framer = wire.Framer()
        framer.feed(ping * 3 + ping[:4])
        self.assertEqual([f.id for f in framer.frames()], [7, 7, 7])
        self.assertEqual(framer.wanted(), 5)
        with self.assertRaises(wire.WireError):
            wire.decode_payload(wire.MessageType.PONG, b"\x00\x00\x00\x01ab")


if __name__ == "__main__":
    unittest.main()
