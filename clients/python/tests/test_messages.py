"""The daemon's error text as a Python caller sees it (issue 25 #5): client-neutral (no
`pickerctl` command in it, the hint is Python's), and a decode reason said once
("corrupt JPEG data: premature end of data segment", not "corrupt JPEG data: Corrupt JPEG
data: ..."). Runs a pickerd of its own on the fixtures' broken JPEGs."""

import os
import re
import unittest

from support import OwnDaemon, pc

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BROKEN = os.path.join(REPO, "Tests", "Fixtures", "jpeg-broken")
# Decoded by libjpeg, whose own messages start "Corrupt JPEG data: ..." or "Premature end ...".
FILES = ["jpegdec_partial_progressive.jpg", "sharp_truncated.jpg"]


class DecodeReasonTest(unittest.TestCase):
    def test_a_corrupt_jpeg_says_its_reason_once_in_get_image_and_in_the_listing(self):
        with OwnDaemon({"Broken": [os.path.join(BROKEN, f) for f in FILES]}) as d, d.client() as c:
            s = c.create_session("messages", 320, 240)
            s.select_album("Broken")
            for name in FILES:
                s.select_photo(name)
                with self.assertRaises(pc.PickerError) as caught:
                    s.get_image()
                e = caught.exception
                self.assertIs(e.code, pc.ErrorCode.CORRUPT_IMAGE, e.message)
                self.assertEqual(len(re.findall("corrupt jpeg data", e.message, re.I)), 1, e.message)
                self.assertTrue(e.message.startswith(name + ": corrupt JPEG data: "), e.message)
                self.assertNotIn("pickerctl", e.message)
            for photo in s.photos_page(mark_broken=True).photos:
                self.assertIsNotNone(photo.broken, photo.name)
                self.assertEqual(len(re.findall("corrupt jpeg data", photo.broken, re.I)), 1, photo.broken)


if __name__ == "__main__":
    unittest.main()
