"""Every client's format tables against docs/PROTOCOL.md's "Image formats" table (issue 22):
Python's, Emacs' and Neovim's photo (input) and output tables must name exactly the numbers the
document marks `input` / `output`. A client that names photos from the output table showed HEIC
and AVIF as `format-4`/`format-5`; this fails when any client's table drifts from the document."""

import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENTS = os.path.join(HERE, "..", "..")
PROTOCOL_MD = os.path.join(CLIENTS, "..", "docs", "PROTOCOL.md")
sys.path.insert(0, os.path.join(HERE, ".."))
from pickerd_client import wire  # noqa: E402


def documented_formats():
    """{value: (name, input, output)} from the table under "## Image formats"."""
    with open(PROTOCOL_MD, encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## Image formats", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for value, name, inp, out in re.findall(r"^\| (\d+) \| (\S+)[^|]*\| (yes|no) \| (yes|no) \|$", section, re.M):
        rows[int(value)] = (name.lower(), inp == "yes", out == "yes")
    return rows


def expected(column):
    return {v: row[0] for v, row in documented_formats().items() if row[column]}


def read(path):
    with open(os.path.join(CLIENTS, path), encoding="utf-8") as f:
        return f.read()


def lua_table(source, name):
    body = re.search(r"^M\.%s = \{(.*?)\}" % name, source, re.M | re.S).group(1)
    return {int(k): v for k, v in re.findall(r"\[(\d+)\] = '(\w+)'", body)}


def elisp_alist(source, name):
    body = re.search(r"\(defconst %s\s+'\((.*?)\)\s*\n" % re.escape(name), source, re.S).group(1)
    return {int(k): v for k, v in re.findall(r"\((\d+) \. (\w+)\)", body)}


class FormatTablesMatchTheDocument(unittest.TestCase):
    def test_document_table_is_read(self):
        self.assertEqual(len(documented_formats()), 10, "the Image formats table of PROTOCOL.md was not found")

    def test_python(self):
        self.assertEqual(wire.PHOTO_FORMATS, expected(1))
        self.assertEqual(wire.FORMATS, expected(2))

    def test_neovim(self):
        source = read("nvim/lua/picker/messages.lua")
        self.assertEqual(lua_table(source, "PHOTO_FORMATS"), expected(1))
        self.assertEqual(lua_table(source, "FORMATS"), expected(2))
        self.assertIn("wire.PHOTO_FORMATS[p.format]", read("nvim/lua/picker/client.lua"),
                      "Neovim names a photo's format from the output table")

    def test_emacs(self):
        source = read("emacs/pickerd-tables.el")
        self.assertEqual(elisp_alist(source, "pickerd-photo-formats"), expected(1))
        self.assertEqual(elisp_alist(source, "pickerd-formats"), expected(2))


if __name__ == "__main__":
    unittest.main()
