"""Paged listings (photosPage) and the session's photo order (setSort)."""

import unittest

from support import connect, pc, unique


class PagingTest(unittest.TestCase):
    def setUp(self):
        self.c = connect()
        self.addCleanup(self.c.close)
        self.s = self.c.create_session(unique("page"), 640, 480)
        self.addCleanup(self.s.close)
        self.s.select_album(1)  # All Photos
        self.total = self.c.albums()[0].photo_count
        if self.total < 3:
            raise unittest.SkipTest("the test library has fewer than 3 photos")

    def test_pages_return_every_photo_exactly_once_with_the_total(self):
        paths, offset = [], 0
        while offset < self.total:
            page = self.s.photos_page(offset, 2)
            self.assertEqual((page.album, page.total, page.offset, page.sort), ("All Photos", self.total, offset, "name"))
            self.assertEqual([p.index for p in page], list(range(offset + 1, offset + 1 + len(page))))
            paths += [p.path for p in page]
            offset += 2
        self.assertEqual(len(paths), self.total)
        self.assertEqual(len(set(paths)), self.total)
        self.assertEqual(paths, [p.path for p in self.s.iter_photos(page_size=2)])
        self.assertEqual(paths, [p.path for p in self.s.photos()])

    def test_sort_is_session_state_that_indexes_follow(self):
        state = self.s.sort("date")
        self.assertEqual(state.name, self.s.name)
        page = self.s.photos_page(0, pc.MAX_PAGE_LIMIT)
        self.assertEqual(page.sort, "date")
        # Version 1 photos (sort byte 0) lists in the session's order too.
        self.assertEqual([p.path for p in self.s.photos()], [p.path for p in page])
        dated = [p.date for p in page if p.date_from_exif]
        self.assertEqual(dated, sorted(dated, reverse=True), "date order is newest first")
        self.assertTrue(all(p.date_from_exif for p in page.photos[:len(dated)]), "undated photos come last")
        last = len(page)
        st = self.s.select_photo(last)
        self.assertEqual((st.photo, st.photo_index), (page[last - 1].name, last))
        self.assertEqual(self.s.prev().photo_index, last - 1)
        self.assertEqual(self.s.sort("name").name, self.s.name)
        self.assertEqual(self.s.photos_page(0, 1).sort, "name")

    def test_a_changed_order_is_a_photo_event_carrying_the_new_index(self):
        by_date = [p.path for p in self.s.photos(sort="date")]  # version 1 photos, sort 1: sets the order
        self.assertEqual(self.s.photos_page(0, 1).sort, "date")
        self.s.sort("name")
        by_name = [p.path for p in self.s.photos_page(0, pc.MAX_PAGE_LIMIT)]
        self.s.select_photo(1)
        sub = self.s.subscribe()
        self.addCleanup(self.c.unsubscribe)
        self.s.sort("date")
        # The events a request causes arrive before its reply: the event is queued already.
        event = self.c.next_event(timeout=0)
        self.assertIsNotNone(event)
        self.assertEqual((event.subscription, event.change), (sub.id, "photo"))
        self.assertEqual(event.state.photo_index, by_date.index(by_name[0]) + 1)
        self.s.sort("date")
        self.assertIsNone(self.c.next_event(timeout=0), "an unchanged order sends no event")

    def test_an_offset_past_the_end_is_no_such_photo_and_a_zero_limit_out_of_range(self):
        with self.assertRaises(pc.PickerError) as cm:
            self.s.photos_page(self.total, 10)
        self.assertEqual(cm.exception.code, pc.NO_SUCH_PHOTO)
        self.assertIn("no page at offset", cm.exception.message)
        with self.assertRaises(pc.PickerError) as cm:
            self.s.photos_page(0, 0)
        self.assertEqual(cm.exception.code, pc.OUT_OF_RANGE)
        with self.assertRaises(ValueError):
            self.s.sort("size")


if __name__ == "__main__":
    unittest.main()


class BrokenMarksTest(unittest.TestCase):
    def test_a_page_asked_with_marks_names_broken_rows_and_leaves_others_unmarked(self):
        fields = {"album": "A", "sort": 0, "total": 2, "offset": 0,
                  "photos": [{"index": i, "name": n, "path": "A/" + n, "width": 1, "height": 1, "bytes": 1,
                              "format": 1, "date": 0, "date_source": 0} for i, n in ((1, "a.jpg"), (2, "b.jpg"))],
                  "broken": [{"index": 2, "reason": "corrupt JPEG data: Premature end of JPEG file"}]}
        page = pc.PhotoPage.from_fields(pc.wire.decode_payload(pc.MessageType.PHOTOS_PAGE_REPLY,
                                                          pc.wire.encode_payload(pc.MessageType.PHOTOS_PAGE_REPLY, fields)))
        self.assertEqual([p.broken for p in page], [None, "corrupt JPEG data: Premature end of JPEG file"])

    def test_the_daemon_answers_a_marked_page_request(self):
        c = connect()
        self.addCleanup(c.close)
        s = c.create_session(unique("marks"), 640, 480)
        self.addCleanup(s.close)
        s.select_album(1)
        page = s.photos_page(0, 10, mark_broken=True)
        self.assertEqual([p.path for p in page], [p.path for p in s.photos_page(0, 10)])
        self.assertTrue(all(p.broken is None for p in page), "the test library holds no broken photo")
