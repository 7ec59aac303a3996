"""photoInfo's extension raw_companion (PROTOCOL.md, "Image formats"): the `extended` blocks of
photoInfo and photoInfoReply decode with the entry and re-encode byte for byte; no daemon needed."""

import unittest

from support import pc
from test_symbol_classes import extended_blocks

wire = pc.wire


class RawCompanionTest(unittest.TestCase):
    def test_the_documents_raw_companion_frames_round_trip(self):
        blocks = {t: b for t, b in extended_blocks() if "raw_companion" in t}
        expected = {"photoInfo id=70 asking for raw_companion": b"",
                    "photoInfoReply id=70 with raw_companion": b"2024/Kyoto/IMG_2.CR2"}
        self.assertEqual(set(blocks), set(expected))
        for title, data in blocks.items():
            with self.subTest(block=title):
                framer = wire.Framer()
                framer.feed(data)
                frame = framer.next()
                self.assertEqual(frame.name, title.split()[0])
                fields = frame.fields()
                self.assertEqual(fields["extensions"], {wire.RAW_COMPANION_TAG: expected[title]})
                self.assertEqual(wire.encode_frame(frame.type, frame.id, fields), data)


if __name__ == "__main__":
    unittest.main()
