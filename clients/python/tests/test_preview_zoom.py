"""preview's extension zoom (PROTOCOL.md, "Zoom (1:1)"): the `extended` blocks of preview and its image
reply decode with the entry and re-encode byte for byte; no daemon needed."""

import struct
import unittest

from support import assert_extended_round_trips, connect, pc, png_size, unique


class PreviewZoomTest(unittest.TestCase):
    def test_the_documents_zoom_frames_round_trip(self):
        assert_extended_round_trips(self, "zoom", pc.wire.ZOOM_TAG, {
            "preview id=68 zoom at 0.25,0.75": struct.pack(">II", 250_000, 750_000),
            "image id=68 zoom window": struct.pack(">6I", 800, 2520, 1280, 720, 5760, 3840)})


class PreviewZoomLiveTest(unittest.TestCase):
    """Against the live daemon: a camera photo at 1:1 in its bottom-right corner."""

    def test_a_zoomed_preview_is_a_window_of_the_photo_at_full_size(self):
        c = connect()
        self.addCleanup(c.close)
        s = c.create_session(unique("zoom"), 640, 480)
        self.addCleanup(s.close)
        s.select_album("Camera")
        s.select_photo(1)
        info = s.photo_info()
        fitted = s.preview(320, 200, format="png")
        self.assertIsNone(fitted.zoom)
        corner = s.preview(320, 200, format="png", zoom=(1, 1))
        self.assertEqual(png_size(corner.data), (320, 200))
        self.assertEqual(corner.zoom, {"left": info["width"] - 320, "top": info["height"] - 200, "width": 320,
                                       "height": 200, "photo_width": info["width"], "photo_height": info["height"]})
        self.assertNotEqual(corner.data, fitted.data)


if __name__ == "__main__":
    unittest.main()
