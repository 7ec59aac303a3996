"""A session's choices (PROTOCOL.md, "choices", "setChoice"): sessionNew's extension tag 1 carries
them, the extended block round-trips; against the live daemon a check box and a list are set, a
wrong id is no_such_choice, a wrong value invalid_argument, and a change is the session change `choice`."""

import unittest

from support import assert_extended_round_trips, connect, pc, unique

CHOICES = [
    {"id": "compress", "label": "Compress", "options": [], "value": "true"},
    {"id": "encoding", "label": "Encoding", "options": [{"id": "utf8", "label": "UTF-8"}, {"id": "latin1", "label": "Latin-1"}],
     "value": "utf8"},
]


class ChoicesWireTest(unittest.TestCase):
    def test_the_documents_session_new_with_choices_round_trips(self):
        entry = pc.wire.encode_payload(pc.wire.MessageType.CHOICES_REPLY,
                                       choices=[{"id": "compress", "label": "Compress", "options": [], "value": "false"}])
        assert_extended_round_trips(self, "with choices", pc.wire.CHOICES_TAG, {"sessionNew id=39 with choices": entry})


class ChoicesLiveTest(unittest.TestCase):
    def setUp(self):
        self.client = connect()
        self.addCleanup(self.client.close)

    def test_choices_are_kept_set_checked_and_announced(self):
        c = self.client
        s = c.create_session(unique("choices"), 640, 480, choices=CHOICES)
        self.addCleanup(s.close)
        self.assertEqual(s.choices(), CHOICES)
        with c.subscribe(s.name):
            after = s.set_choice("encoding", "latin1")
            self.assertEqual([ch["value"] for ch in after], ["true", "latin1"])
            self.assertEqual(c.next_event(0).change, "choice")
            s.set_choice("encoding", "latin1")          # the same value: no change, no event
            self.assertIsNone(c.next_event(0))
            self.assertEqual(s.set_choice("compress", "false")[0]["value"], "false")
            self.assertEqual(c.next_event(0).change, "choice")
        with self.assertRaises(pc.PickerError) as caught:
            s.set_choice("nope", "true")
        self.assertEqual(caught.exception.code, pc.ErrorCode.NO_SUCH_CHOICE)
        with self.assertRaises(pc.PickerError) as caught:
            s.set_choice("compress", "maybe")
        self.assertEqual(caught.exception.code, pc.ErrorCode.INVALID_ARGUMENT)

    def test_a_session_without_choices_lists_none(self):
        s = self.client.create_session(unique("no-choices"), 640, 480)
        self.addCleanup(s.close)
        self.assertEqual(s.choices(), [])


if __name__ == "__main__":
    unittest.main()
