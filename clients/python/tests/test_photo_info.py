"""photoInfo (issue 22 item 6) against the live daemon: a camera photo's EXIF fields, and the
current photo versus one named."""

import unittest

from support import album_with, connect, pc, unique


class PhotoInfoTest(unittest.TestCase):
    def setUp(self):
        self.c = connect()
        self.addCleanup(self.c.close)
        self.s = self.c.create_session(unique("py"), 640, 480)
        self.addCleanup(self.s.close)

    def test_a_camera_photo_names_its_camera_and_exposure(self):
        self.s.select_album("Camera")
        self.s.select_photo(1)
        info = self.s.photo_info()
        self.assertTrue(info["path"].startswith("Camera/"), info)
        self.assertEqual(pc.wire.PHOTO_FORMATS[info["format"]], "jpeg")
        self.assertRegex(info["camera_make"], "(?i)canon|nikon")
        self.assertTrue(info["camera_model"], info)
        self.assertGreater(info["exposure_time"]["denominator"], 0)
        self.assertGreater(info["f_number"]["denominator"], 0)
        self.assertGreater(info["iso"], 0)
        self.assertGreater(info["width"] * info["height"], 0)
        self.assertGreater(info["bytes"], 0)
        self.assertIsInstance(info["gps"], bool)
        # Asked for its RAW companion: an empty entry, no pair here.
        self.assertEqual(info["extensions"], {pc.wire.RAW_COMPANION_TAG: b""})
        self.assertIsNone(info["raw_companion"])

    def test_a_named_photo_and_nothing_selected(self):
        album = album_with(self.c, 2)
        self.s.select_album(album.name)
        with self.assertRaises(pc.PickerError) as cm:
            self.s.photo_info()
        self.assertEqual(cm.exception.code, pc.NOTHING_SELECTED)
        second = self.s.photos()[1]
        info = self.s.photo_info(2)
        self.assertEqual(info["name"], second.name)
        self.assertEqual(self.s.photo_info(second.name)["path"], info["path"])
        self.assertIsNone(self.s.status().photo)  # asking changes nothing


if __name__ == "__main__":
    unittest.main()
