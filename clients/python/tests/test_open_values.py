"""Values a newer daemon may add (PROTOCOL.md, "Open values") survive decode and re-encode
byte for byte: error codes, photo and output formats, sort, scan state, date source, session
change. The codec keeps them as plain ints; only names fall back (internal, format-N)."""

import unittest

from support import pc

wire = pc.wire
T = wire.MessageType

ROW = dict(index=1, name="a.new", path="a.new", width=2, height=3, bytes=4, format=77, date=5,
           date_source=9)
NEWER = [
    (T.ERROR, dict(code=4242, message="a newer code")),
    (T.HELLO_REPLY, dict(version=1, server_version="pickerd 9", max_request_frame=1, max_reply_frame=2,
                         input_formats=[1, 77], output_formats=[2, 42])),
    (T.IMAGE, dict(format=42, width=1, height=1, data=b"\x01")),
    (T.PHOTOS_PAGE_REPLY, dict(album="All Photos", sort=9, total=1, offset=0, photos=[ROW], broken=None)),
    (T.LIBRARY_INFO_REPLY, dict(root="/p", album_count=1, photo_count=1, scan_state=5, scanned_at=0,
                                skipped_count=0)),
    (T.SCAN_PROGRESS_REPLY, dict(state=5, files_done=1, files_expected=2, elapsed_ms=3)),
]


class OpenValuesTest(unittest.TestCase):
    def test_newer_values_round_trip_byte_for_byte(self):
        for type_, fields in NEWER:
            with self.subTest(message=type_.name):
                data = wire.encode_payload(type_, fields)
                decoded = wire.decode_payload(type_, data)
                for key, value in fields.items():
                    self.assertEqual(decoded[key], value, key)
                self.assertEqual(wire.encode_payload(type_, decoded), data)

    def test_a_newer_session_change_is_kept_in_the_event(self):
        frame_bytes = wire.encode_frame(T.SESSION_EVENT, 30, dict(change=42, name="s", width=100))
        framer = wire.Framer()
        framer.feed(frame_bytes)
        frame = framer.next()
        self.assertEqual(frame.fields()["change"], 42)
        self.assertEqual(wire.encode_frame(frame.type, frame.id, frame.fields()), frame_bytes)

    def test_unknown_values_are_named_by_their_number_or_read_as_internal(self):
        self.assertEqual(wire.error_name(4242), "internal")
        self.assertEqual(wire.error_code(4242), 4242)
        self.assertNotIn(42, wire.FORMATS)
        self.assertNotIn(77, wire.PHOTO_FORMATS)

    def test_models_keep_newer_values_instead_of_failing(self):
        # Failed before: Malformed("scan_state 5"), Malformed("sort 9"), output format 42 dropped.
        models = pc.models
        info = models.LibraryInfo.from_fields(dict(NEWER[4][1]))
        self.assertFalse(info.ready)
        page = models.PhotoPage.from_fields(dict(NEWER[3][1]))
        self.assertEqual((page.sort, page.photos[0].format, page.photos[0].date_from_exif),
                         ("sort-9", "format-77", False))
        caps = models.Capabilities.from_fields(dict(NEWER[1][1]))
        self.assertEqual((caps.input_formats, caps.output_formats), (["jpeg", "format-77"], ["png", "format-42"]))


if __name__ == "__main__":
    unittest.main()
