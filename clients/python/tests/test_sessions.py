"""Sessions, albums, photos, images, the pick list, thumbnails and preview."""

import re
import unittest

from support import album_with, connect, pc, png_size, unique


class SessionTest(unittest.TestCase):
    def setUp(self):
        self.c = connect()
        self.addCleanup(self.c.close)

    def new_session(self, width=640, height=480, **kw):
        s = self.c.create_session(unique("py"), width, height, **kw)
        self.addCleanup(self._close_quietly, s)
        return s

    @staticmethod
    def _close_quietly(s):
        try:
            if not s.client.closed:
                s.close()
        except pc.PickerError:
            pass

    def test_create_and_duplicate(self):
        s = self.new_session(800, None, max_selection=3, title="Trip")
        st = s.state
        self.assertEqual((st.name, st.title, st.width, st.height), (s.name, "Trip", 800, None))
        self.assertEqual((st.max_selection, st.selection_count), (3, 0))
        self.assertIsNone(st.album)
        self.assertIsNone(st.photo)
        self.assertEqual(st.message, "")
        with self.assertRaises(pc.PickerError) as cm:
            self.c.create_session(s.name, 640)
        self.assertEqual(cm.exception.code, 14)
        self.assertEqual(cm.exception.name, "session_exists")
        self.assertIn(s.name, cm.exception.message)
        again = self.c.create_session(s.name, 640, exist_ok=True)
        self.assertEqual(again.state.title, "Trip")  # reused as it is
        self.assertIn(s.name, [x.name for x in self.c.sessions()])
        self.assertEqual(self.c.session(s.name).show(), st)

    def test_defaults_and_argument_errors(self):
        s = self.new_session(640, None)
        self.assertEqual(s.state.title, "Photo Library")
        self.assertEqual(s.state.max_selection, 10)
        with self.assertRaises(pc.PickerError) as cm:
            self.c.create_session(unique("py"), 8)
        self.assertEqual(cm.exception.code, pc.OUT_OF_RANGE)
        self.assertIn("16", cm.exception.message)
        with self.assertRaises(pc.PickerError) as cm:
            self.c.create_session("a/b", 640)
        self.assertEqual(cm.exception.code, pc.INVALID_NAME)
        with self.assertRaises(pc.PickerError) as cm:
            self.c.session(unique("missing")).status()
        self.assertEqual(cm.exception.code, pc.NO_SUCH_SESSION)
        self.assertEqual(self.c.ping(), self.c.capabilities.server_version)

    def test_resize_and_close(self):
        s = self.new_session(640, 480)
        st = s.resize(1024)
        self.assertEqual((st.width, st.height), (1024, None))
        s.close()
        with self.assertRaises(pc.PickerError) as cm:
            s.status()
        self.assertEqual(cm.exception.code, pc.NO_SUCH_SESSION)

    def test_albums_and_photos(self):
        album = album_with(self.c, 2)
        s = self.new_session()
        with self.assertRaises(pc.PickerError) as cm:
            s.photos()
        self.assertEqual(cm.exception.code, pc.NOTHING_SELECTED)
        st = s.select_album(album.name)
        self.assertEqual((st.album, st.album_index, st.photo_count), (album.name, album.index, album.photo_count))
        self.assertEqual(s.select_album(album.index).album, album.name)
        self.assertEqual(s.select_album(album.name.upper()).album, album.name)  # unique case-insensitive
        photos = s.photos()
        self.assertEqual(photos.album, album.name)
        self.assertEqual(len(photos), album.photo_count)
        self.assertEqual([p.index for p in photos], list(range(1, len(photos) + 1)))
        for p in photos:
            self.assertEqual(p.path, album.name + "/" + p.name)
            self.assertGreater(p.width, 0)
            self.assertGreater(p.file_size, 0)
            self.assertIn(p.format, ("jpeg", "png", "webp"))
        by_date = s.photos(sort="date")
        self.assertEqual(sorted(by_date.names), sorted(photos.names))
        with self.assertRaises(pc.PickerError) as cm:
            s.select_album(10000)
        self.assertEqual(cm.exception.code, pc.NO_SUCH_ALBUM)
        with self.assertRaises(ValueError):
            s.photos(sort="size")

    def test_select_and_status_message(self):
        album = album_with(self.c, 2)
        s = self.new_session()
        s.select_album(album.name)
        photos = s.photos()
        st = s.select_photo(photos[1].name)
        self.assertEqual((st.photo, st.photo_index), (photos[1].name, 2))
        st = s.status()
        self.assertEqual(st.photo, photos[1].name)
        m = re.fullmatch(r"(\d+)x(\d+) px, [0-9.]+ [kKMG]?B, (JPEG|PNG|WebP|WEBP)", st.message)
        self.assertIsNotNone(m, st.message)
        self.assertEqual((int(m.group(1)), int(m.group(2))), (photos[1].width, photos[1].height))
        self.assertEqual(s.select_photo(1).photo, photos[0].name)
        self.assertEqual(s.next().photo_index, 2)
        self.assertEqual(s.prev().photo_index, 1)
        with self.assertRaises(pc.PickerError) as cm:
            s.prev()  # past the start
        self.assertEqual(cm.exception.code, pc.NO_SUCH_PHOTO)
        self.assertEqual(s.status().photo_index, 1)  # unchanged
        with self.assertRaises(pc.PickerError) as cm:
            s.select_photo("no such photo.jpg")
        self.assertEqual(cm.exception.code, pc.NO_SUCH_PHOTO)
        # Switching album clears the current photo.
        st = s.select_album("All Photos")
        self.assertIsNone(st.photo)
        self.assertEqual(st.message, "")

    def test_get_image(self):
        album = album_with(self.c)
        s = self.new_session(320, 200)
        self.assertIsNone(s.get_image())          # no album
        s.select_album(album.name)
        self.assertIsNone(s.get_image())          # no current photo
        self.assertIsNone(s.image())
        st = s.next()
        photo = s.photos()[0]
        png = s.get_image()
        self.assertIsInstance(png, bytes)
        w, h = png_size(png)
        self.assertLessEqual(w, 320)
        self.assertLessEqual(h, 200)
        self.assertTrue(w == 320 or h == 200 or (w, h) == (photo.width, photo.height), (w, h))
        # Never upscaled: a pane bigger than the photo gives the photo's own size.
        img = s.image(no_cache=True)
        self.assertEqual((img.format, img.width, img.height), ("png", w, h))
        jpeg = s.get_image("jpeg", quality=70)
        self.assertEqual(jpeg[:3], b"\xff\xd8\xff")
        s.resize(8192, 8192)
        w2, h2 = png_size(s.get_image())
        self.assertEqual((w2, h2), (photo.width, photo.height))
        with self.assertRaises(pc.PickerError) as cm:
            s.get_image(quality=101)
        self.assertEqual(cm.exception.code, pc.OUT_OF_RANGE)
        self.assertEqual(st.photo, photo.name)

    def test_toggle_limit_and_selection_order(self):
        album = album_with(self.c, 3)
        s = self.new_session(max_selection=2)
        s.select_album(album.name)
        names = s.photos().names
        self.assertEqual(len(s.selection()), 0)
        sel = s.toggle(names[2])
        self.assertEqual(sel.names, [names[2]])
        sel = s.toggle(1)
        self.assertEqual(sel.names, [names[2], names[0]])  # pick order, not album order
        self.assertEqual(sel.max_selection, 2)
        with self.assertRaises(pc.PickerError) as cm:
            s.toggle(names[1])
        self.assertEqual(cm.exception.code, 16)
        self.assertEqual(cm.exception.name, "selection_full")
        self.assertIn("2", cm.exception.message)
        self.assertEqual(s.selection().names, [names[2], names[0]])  # nothing changed
        self.assertEqual(s.toggle(names[2]).names, [names[0]])       # removing is never refused
        sel = s.toggle(names[1])
        self.assertEqual(sel.names, [names[0], names[1]])
        for p in sel:
            self.assertEqual(p.album, album.name)
            self.assertEqual(p.path, album.name + "/" + p.name)
            self.assertTrue(p.absolute_path.endswith("/" + p.path))
        # The pick list survives an album switch and belongs to the session.
        s.select_album("All Photos")
        self.assertEqual(s.selection().names, [names[0], names[1]])
        # In "All Photos" names may repeat; the relative paths are unique and match the picks'.
        everything = s.photos()
        all_paths = [p.path for p in everything]
        self.assertEqual(len(set(all_paths)), len(all_paths))
        self.assertTrue({p.path for p in s.selection()} <= set(all_paths))
        for p in everything:
            self.assertTrue(p.path == p.name or p.path.endswith("/" + p.name), p.path)
        st = s.select_photo(all_paths[-1])
        self.assertEqual((st.photo, st.photo_index), (everything[-1].name, everything[-1].index))
        self.assertEqual(s.status().selection_count, 2)
        self.assertEqual(len(s.clear_selection()), 0)
        self.assertEqual(s.selection().names, [])

    def test_thumbnails_and_preview(self):
        album = album_with(self.c, 2)
        s = self.new_session(640, None)
        s.select_album(album.name)
        s.toggle(2)
        s.select_photo(1)
        geo = s.thumbnail_geometry()
        self.assertIsNone(geo.image)
        self.assertEqual((geo.cell_size, geo.spacing, geo.padding, geo.page, geo.pages), (100, 10, 16, 1, 1))
        self.assertEqual(geo.columns, (640 - 32 + 10) // 110)
        self.assertEqual(len(geo.cells), album.photo_count)
        self.assertTrue(geo.cells[0].current and not geo.cells[0].picked)
        self.assertTrue(geo.cells[1].picked and not geo.cells[1].current)
        self.assertEqual(geo.hit(16, 16), geo.cells[0])
        self.assertIsNone(geo.hit(0, 0))
        thumbs = s.thumbnails(size=64)
        self.assertEqual(png_size(thumbs.png), (thumbs.width, thumbs.height))
        with self.assertRaises(pc.PickerError) as cm:
            s.thumbnails(size=8)
        self.assertEqual(cm.exception.code, pc.OUT_OF_RANGE)
        prev = s.preview(200, 100, format="png")
        self.assertEqual((prev.width, prev.height), (200, 100))
        self.assertEqual(png_size(prev.data), (200, 100))

    def test_terminal_formats(self):
        album = album_with(self.c)
        s = self.new_session(640, 480)
        s.select_album(album.name)
        s.next()
        sym = s.image("symbols", cells=(80, 24))
        self.assertEqual(sym.format, "symbols")
        self.assertTrue(1 <= sym.width <= 80 and 1 <= sym.height <= 24, (sym.width, sym.height))
        self.assertEqual(sym.text.count("\n"), sym.height - 1)
        self.assertIsInstance(s.get_image(pc.Format.SYMBOLS, cells=(40, 12)), bytes)
        six = s.image("sixel")
        self.assertEqual(six.format, "sixel")
        self.assertTrue(six.text.startswith("\x1bP"), six.text[:8])
        prev = s.preview(320, 200, format="symbols", cells=(120, 40))
        self.assertEqual(prev.format, "symbols")
        self.assertTrue(prev.width <= 120 and prev.height <= 40)
        self.assertEqual(s.preview(200, 100, format="png", cells=(10, 10)).format, "png")  # ignored
        with self.assertRaises(pc.PickerError) as cm:
            s.get_image("symbols", cells=(0, 24))
        self.assertEqual(cm.exception.code, pc.OUT_OF_RANGE)
        with self.assertRaises(pc.PickerError) as cm:
            s.preview(320, 200, format="symbols", cells=(120, 1001))
        self.assertEqual(cm.exception.code, pc.OUT_OF_RANGE)
        with self.assertRaises(pc.PickerError) as cm:
            s.get_image("symbols")
        self.assertEqual(cm.exception.code, pc.INVALID_ARGUMENT)
        with self.assertRaises(TypeError):
            s.get_image("symbols", cells=80)

    def test_symbol_classes(self):
        """PROTOCOL.md, "Symbol classes": the class asked is drawn and named in the reply."""
        album = album_with(self.c)
        s = self.new_session(640, 480)
        s.select_album(album.name)
        s.next()
        self.assertIsNone(s.image("symbols", cells=(40, 12)).symbols)  # not asked: block, no entry
        text = re.sub("\x1b\\[[0-9;]*m", "", s.image("symbols", cells=(40, 12)).text)
        self.assertTrue(all(c in " \n" or 0x2580 <= ord(c) <= 0x259F for c in text), set(text))
        ascii_image = s.image("symbols", cells=(40, 12), symbols="ascii")
        self.assertEqual(ascii_image.symbols, "ascii")
        self.assertTrue(all(0x0A == b or 0x20 <= b < 0x7F or b == 0x1B for b in ascii_image.data))
        self.assertEqual(s.preview(320, 200, format="symbols", cells=(60, 20), symbols="sextant").symbols, "sextant")
        self.assertEqual(s.image("symbols", cells=(40, 12), symbols=200).symbols, "block")  # unknown: block
        self.assertIsInstance(s.get_image("symbols", cells=(40, 12), symbols="block"), bytes)
        with self.assertRaises(ValueError):
            s.image("symbols", cells=(40, 12), symbols="braille")
        with self.assertRaises(ValueError):
            s.image("symbols", symbols="ascii")  # the class goes with cells


if __name__ == "__main__":
    unittest.main()
