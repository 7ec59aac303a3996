"""Symbol classes (PROTOCOL.md, "Symbol classes"): the `extended` blocks of getImage, image and
preview decode with the class in the extension area and re-encode byte for byte; no daemon needed."""

import os
import re
import unittest

from support import pc

wire = pc.wire
PROTOCOL_MD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "PROTOCOL.md")
BLOCK = re.compile(r"<!-- extended: ([^>]*?) -->\s*```hex\n(.*?)```", re.S)


def extended_blocks():
    with open(PROTOCOL_MD, encoding="utf-8") as f:
        text = f.read()
    for title, body in BLOCK.findall(text):
        yield title.strip(), bytes.fromhex(" ".join(line.split("#", 1)[0] for line in body.splitlines()))


class SymbolClassTest(unittest.TestCase):
    def test_the_documents_symbol_class_frames_round_trip(self):
        blocks = {t: b for t, b in extended_blocks() if "symbols" in t}
        expected = {"getImage id=66 symbols asking for ascii": 2, "image id=66 symbols drawn as ascii": 2,
                    "preview id=67 symbols asking for sextant": 1}
        self.assertEqual(set(blocks), set(expected))
        for title, data in blocks.items():
            with self.subTest(block=title):
                framer = wire.Framer()
                framer.feed(data)
                frame = framer.next()
                self.assertEqual(frame.name, title.split()[0])
                fields = frame.fields()
                self.assertEqual(fields["extensions"], {wire.SYMBOLS_TAG: bytes([expected[title]])})
                self.assertEqual(wire.encode_frame(frame.type, frame.id, fields), data)

    def test_the_image_model_names_the_class_drawn(self):
        base = dict(format=wire.Format.SYMBOLS, width=2, height=1, data=b"ab")
        self.assertIsNone(pc.Image.from_fields(dict(base, extensions={})).symbols)
        self.assertEqual(pc.Image.from_fields(dict(base, extensions={1: b"\x01"})).symbols, "sextant")
        self.assertEqual(pc.Image.from_fields(dict(base, extensions={1: b"\x09"})).symbols, 9)


if __name__ == "__main__":
    unittest.main()
