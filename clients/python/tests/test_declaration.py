"""The Python tables against the Swift declaration (issue 22 item 4): docs/protocol-tables.json is
the declaration as JSON (a Swift test, DeclarationTableTests, proves it equal); every message,
error code, format and session change must match it, so a drift on either side fails."""

import json
import os
import unittest

from support import pc

tables = pc.wire
PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "protocol-tables.json")


class DeclarationTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(PATH, encoding="utf-8") as f:
            cls.declared = json.load(f)

    def test_messages_names_and_directions(self):
        declared = {int(k): v for k, v in self.declared["messages"].items()}
        self.assertEqual({t: name for t, (name, _f) in tables.MESSAGES.items()},
                         {t: v["name"] for t, v in declared.items()})
        self.assertEqual(set(tables.REQUEST_TYPES), {t for t, v in declared.items() if v["direction"] == "request"})
        self.assertEqual({int(t) for t in tables.MessageType}, set(declared))

    def test_error_codes(self):
        self.assertEqual({int(c): c.name.lower() for c in tables.ErrorCode},
                         {int(k): v for k, v in self.declared["errors"].items()})

    def test_formats_and_session_changes(self):
        self.assertEqual(tables.PHOTO_FORMATS, {int(k): v for k, v in self.declared["photo_formats"].items()})
        self.assertEqual(tables.FORMATS, {int(k): v for k, v in self.declared["output_formats"].items()})
        self.assertEqual(tables.SESSION_CHANGES, {int(k): v for k, v in self.declared["session_changes"].items()})


if __name__ == "__main__":
    unittest.main()


class ExtensionAreaTest(unittest.TestCase):
    """A field added later travels in the extension area (PROTOCOL.md, "Extending a message")."""

    def test_a_newer_servers_field_is_kept_and_an_older_servers_reply_has_none(self):
        fields = {"path": "A/p.jpg", "name": "p.jpg", "format": 1, "width": 2, "height": 3, "bytes": 4,
                  "date": 5, "date_source": 1, "gps": True}
        older = tables.encode_frame(0x33, 7, fields)                   # what a server of today sends
        newer = tables.encode_frame(0x33, 7, fields, extensions={9: b"\x01\x02"})
        self.assertEqual(newer[9:], older[9:] + bytes([9, 0, 0, 0, 2, 1, 2]))
        for data, area in ((older, {}), (newer, {9: b"\x01\x02"})):
            framer = tables.Framer()
            framer.feed(data)
            frame = framer.next()
            decoded = frame.fields()
            self.assertEqual(decoded["extensions"], area)
            self.assertEqual(decoded["path"], "A/p.jpg")
            self.assertEqual(tables.encode_frame(frame.type, frame.id, decoded), data)  # kept byte for byte

    def test_an_extension_given_twice_is_malformed(self):
        payload = tables.encode_payload(0x32, session="s") + bytes([9, 0, 0, 0, 0, 9, 0, 0, 0, 0])
        with self.assertRaises(tables.WireError) as cm:
            tables.decode_payload(0x32, payload)
        self.assertEqual(cm.exception.code, tables.ErrorCode.MALFORMED_FRAME)
