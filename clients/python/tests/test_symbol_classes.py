"""Symbol classes (PROTOCOL.md, "Symbol classes"): the `extended` blocks of getImage, image and
preview decode with the class in the extension area and re-encode byte for byte; no daemon needed."""

import unittest

from support import assert_extended_round_trips, pc

wire = pc.wire


class SymbolClassTest(unittest.TestCase):
    def test_the_documents_symbol_class_frames_round_trip(self):
        assert_extended_round_trips(self, "symbols", wire.SYMBOLS_TAG, {
            "getImage id=66 symbols asking for ascii": bytes([2]), "image id=66 symbols drawn as ascii": bytes([2]),
            "preview id=67 symbols asking for sextant": bytes([1])})

    def test_the_image_model_names_the_class_drawn(self):
        base = dict(format=wire.Format.SYMBOLS, width=2, height=1, data=b"ab")
        self.assertIsNone(pc.Image.from_fields(dict(base, extensions={})).symbols)
        self.assertEqual(pc.Image.from_fields(dict(base, extensions={1: b"\x01"})).symbols, "sextant")
        self.assertEqual(pc.Image.from_fields(dict(base, extensions={1: b"\x09"})).symbols, 9)


if __name__ == "__main__":
    unittest.main()
