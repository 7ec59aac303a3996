"""photoInfo's extension raw_companion (PROTOCOL.md, "Image formats"): the `extended` blocks of
photoInfo and photoInfoReply decode with the entry and re-encode byte for byte; no daemon needed."""

import unittest

from support import assert_extended_round_trips, pc


class RawCompanionTest(unittest.TestCase):
    def test_the_documents_raw_companion_frames_round_trip(self):
        assert_extended_round_trips(self, "raw_companion", pc.wire.RAW_COMPANION_TAG, {
            "photoInfo id=70 asking for raw_companion": b"",
            "photoInfoReply id=70 with raw_companion": b"2024/Kyoto/IMG_2.CR2"})


if __name__ == "__main__":
    unittest.main()
