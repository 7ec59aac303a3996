#!/usr/bin/env python3
"""The test image corpus, chosen as the Swift tests choose it (Tests/PickerTestSupport).

Order: $PICKER_TESTDATA (the value "none" forces the fixtures), then ../shared/testdata
next to the repository, then the subset checked in at Tests/Fixtures. A folder counts
when it has manifest.json. Standard library only.

  python3 scripts/testcorpus.py          prints the folder
  python3 scripts/testcorpus.py --describe   prints "<source>: <folder>, <N> files"
From Python: sys.path.insert(0, <repo>/scripts); import testcorpus; testcorpus.find().
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(REPO, "Tests", "Fixtures")


def _has_manifest(folder):
    return os.path.isfile(os.path.join(folder, "manifest.json"))


def locate(explicit=None):
    """(folder, source): `explicit` (a command-line --testdata) wins, then the order above."""
    if explicit:
        return os.path.abspath(explicit), "--testdata"
    env = os.environ.get("PICKER_TESTDATA", "")
    if env and env != "none":
        if _has_manifest(env):
            return os.path.abspath(env), "PICKER_TESTDATA"
        print(f"testcorpus: PICKER_TESTDATA={env} has no manifest.json; using Tests/Fixtures", file=sys.stderr)
    elif env != "none":
        shared = os.path.normpath(os.path.join(REPO, "..", "shared", "testdata"))
        if _has_manifest(shared):
            return shared, "../shared/testdata"
    return FIXTURES, "Tests/Fixtures"


def find(explicit=None):
    """The corpus folder (see locate)."""
    return locate(explicit)[0]


def file_count(folder):
    try:
        with open(os.path.join(folder, "manifest.json")) as f:
            return len(json.load(f)["files"])
    except (OSError, ValueError, KeyError):
        return 0


def main(argv):
    folder, source = locate()
    if "--describe" in argv:
        print(f"{source}: {folder}, {file_count(folder)} files in manifest.json")
    else:
        print(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
