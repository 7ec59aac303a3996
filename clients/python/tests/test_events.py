"""Subscriptions and events (PROTOCOL.md, Events, 0x50 subscribe, 0x80/0x81)."""

import os
import shutil
import time
import unittest

from support import album_with, connect, pc, pickerctl, unique


def collect(sub, until, timeout=20.0):
    """Events of ``sub`` until one satisfies ``until`` (included); fails after ``timeout`` s."""
    events = []
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError("timed out waiting for an event; got %r" % ([e.change for e in events],))
        event = sub.next(remaining)
        if event is None:
            continue
        events.append(event)
        if until(event):
            return events


class SessionEventsTest(unittest.TestCase):
    def setUp(self):
        self.watcher = connect()
        self.driver = connect()
        self.addCleanup(self.watcher.close)
        self.addCleanup(self.driver.close)

    def test_events_from_another_connection_in_order_for_the_subscribed_session_only(self):
        album = album_with(self.driver, 2)
        name, other = unique("ev"), unique("ev-other")
        # The session need not exist yet: the subscriber hears it being created.
        sub = self.watcher.subscribe(name)
        self.assertEqual((sub.session, sub.library), (name, False))
        self.assertTrue(sub.active)

        b = self.driver.create_session(other, 400, 300)
        a = self.driver.create_session(name, 640, 480)
        b.select_album(album.name)
        a.select_album(album.name)
        b.next()
        a.select_photo(2)
        a.select_photo(2)          # no change: no event
        b.toggle(1)
        a.toggle(1)
        a.toggle(2)
        a.resize(800, 600)
        a.resize(800, 600)         # no change: no event
        b.resize(500, 500)
        a.clear_selection()
        b.close()
        a.close()

        events = collect(sub, lambda e: e.change == "closed")
        self.assertEqual([e.change for e in events],
                         ["created", "album", "photo", "selection", "selection", "pane_size", "selection", "closed"])
        for e in events:
            self.assertIsInstance(e, pc.SessionEvent)
            self.assertEqual(e.subscription, sub.id)
            self.assertEqual(e.state.name, name)
        created, album_ev, photo_ev, sel1, sel2, pane, cleared, closed = events
        self.assertEqual((created.state.width, created.state.height), (640, 480))
        self.assertEqual((album_ev.state.album, album_ev.state.photo), (album.name, None))
        self.assertEqual(photo_ev.state.photo_index, 2)
        self.assertEqual([sel1.state.selection_count, sel2.state.selection_count, cleared.state.selection_count], [1, 2, 0])
        self.assertEqual((pane.state.width, pane.state.height), (800, 600))
        self.assertEqual(closed.state.selection_count, 0)
        # Nothing else arrives (in particular nothing about the other session).
        self.driver.ping()
        self.assertIsNone(sub.next(0.5))

    def test_events_on_the_same_connection_come_before_the_reply(self):
        album = album_with(self.watcher, 2)
        c = self.watcher
        s = c.create_session(unique("ev-same"), 640, 480)
        self.addCleanup(s.close)
        with c.subscribe(s.name) as sub:
            s.select_album(album.name)
            # The event a request causes is already here when its reply is.
            self.assertEqual(c.next_event(0).change, "album")
            s.next()
            self.assertEqual(c.next_event(0).change, "photo")
            sel = s.toggle(1)
            e = c.next_event(0)
            self.assertEqual((e.change, e.state.selection_count), ("selection", len(sel)))
            s.status()                         # a read: no event
            self.assertIsNone(c.next_event(0))
        self.assertFalse(sub.active)
        s.next()                               # unsubscribed: no more events
        c.ping()
        self.assertIsNone(c.next_event(0.3))

    def test_next_event_with_zero_timeout_reads_what_has_arrived(self):
        name = unique("ev-zero")
        sub = self.watcher.subscribe(name)
        self.assertIsNone(sub.next(0))
        s = self.driver.create_session(name, 320, 240)
        self.addCleanup(s.close)
        deadline = time.monotonic() + 10
        event = None
        while event is None and time.monotonic() < deadline:
            time.sleep(0.05)
            event = sub.next(0)                # never blocks
        self.assertIsNotNone(event)
        self.assertEqual((event.change, event.state.name), ("created", name))

    def test_event_iterator_and_pickerctl(self):
        album = album_with(self.driver, 2)
        name = unique("ev-ctl")
        self.driver.create_session(name, 640, 480)
        self.addCleanup(lambda: self.driver.session(name).close())
        sub = self.watcher.subscribe(name)
        for args in (["select-album", album.name], ["next"], ["next"], ["toggle", "--index", "1"]):
            r = pickerctl("--session", name, *args)
            self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace"))
        seen = []
        for event in sub.events(timeout=20):
            seen.append((event.change, event.state.photo_index))
            if event.change == "selection":
                break
        self.assertEqual(seen, [("album", None), ("photo", 1), ("photo", 2), ("selection", 2)])
        # Client.events(session=...) subscribes, iterates and unsubscribes when closed.
        it = self.watcher.events(session=name, timeout=20)
        r = pickerctl("--session", name, "prev")
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace"))
        self.assertEqual(next(it).change, "photo")
        it.close()
        self.assertIsNone(self.watcher.subscription)


class LibraryEventsTest(unittest.TestCase):
    def test_library_event_after_a_rescan(self):
        watcher, driver = connect(), connect()
        self.addCleanup(watcher.close)
        self.addCleanup(driver.close)
        before = driver.library()
        source = None
        for dirpath, _, files in os.walk(before.root):
            for f in sorted(files):
                if f.lower().endswith((".jpg", ".jpeg", ".png", ".webp")):
                    source = os.path.join(dirpath, f)
                    break
            if source:
                break
        if source is None or not os.access(before.root, os.W_OK):
            self.skipTest("the test library is not writable")
        sub = watcher.subscribe(library=True)
        self.assertTrue(sub.library)
        folder = os.path.join(before.root, "zz-" + unique("added"))
        os.mkdir(folder)
        self.addCleanup(shutil.rmtree, folder, True)
        added = os.path.join(folder, "added" + os.path.splitext(source)[1])
        shutil.copy(source, added)
        # pickerd watches the library (inotify): no request is needed to make it look.
        event = sub.next(30)
        self.assertIsNotNone(event, "no libraryEvent within 30 s")
        self.assertIsInstance(event, pc.LibraryEvent)
        self.assertEqual(event.subscription, sub.id)
        self.assertEqual(event.info.root, before.root)
        self.assertEqual(event.info.photo_count, driver.library().photo_count)
        self.assertGreaterEqual(event.info.photo_count, before.photo_count + 1)
        # Then the photos by name.
        changes = sub.next(10)
        self.assertIsInstance(changes, pc.LibraryChangesEvent)
        self.assertEqual(changes.added, [os.path.relpath(added, before.root)])
        self.assertEqual((changes.removed, changes.changed), ([], []))


if __name__ == "__main__":
    unittest.main()
