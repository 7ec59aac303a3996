#!/usr/bin/env python3
"""Prints the closing summary of `make test` from its log: the corpus the suites used and
every skipped test with its reason, then the result.

  python3 scripts/test-summary.py [--status N] LOG

Recognised in the log:
  [corpus] SOURCE: FOLDER, N files in manifest.json   (Tests/PickerTestSupport, scripts/testcorpus.py)
  Swift Testing:   <symbol> Test name() skipped: "reason"   (also Suite ...)
  unittest -v:     test_x (module.Class.test_x) ... skipped 'reason'
  unittest:        OK (skipped=N) / FAILED (..., skipped=N)
  anything else:   a line with "SKIPPED" (upper case), as the clients' run-tests.sh print it
Lines from a client's run-tests.sh are attributed to it by the "== clients/X/run-tests.sh" header.
Standard library only.
"""
import argparse
import os
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
CORPUS = re.compile(r"\[corpus\] (?!warning)(.*)$")
SWIFT_SKIP = re.compile(r"\b(Test|Suite) (.+?) skipped(?:: \"(.*)\")?\.?$")
UNITTEST_SKIP = re.compile(r"^(test\w*) \((.+?)\)(?: \.\.\.)? skipped '(.*)'$")
UNITTEST_TOTAL = re.compile(r"^(?:OK|FAILED) \(.*skipped=(\d+)")
SECTION = re.compile(r"^== (\S+run-tests\.sh)$")
SHOUTED_SKIP = re.compile(r"\bSKIPPED\b")


def scan(lines):
    corpora, skips = [], []
    section = "swift test"
    detailed = {}  # section -> number of skips with a reason
    for raw in lines:
        line = ANSI.sub("", raw.rstrip("\n"))
        if m := SECTION.match(line):
            section = m.group(1)
            continue
        if m := CORPUS.search(line):
            if m.group(1) not in corpora:
                corpora.append(m.group(1))
            continue
        if (m := SWIFT_SKIP.search(line)) and section == "swift test":
            skips.append((section, f"{m.group(1)} {m.group(2)}", m.group(3) or "(no reason given)"))
        elif m := UNITTEST_SKIP.match(line):
            # Python 3.11 prints (module.Class.test_x), older ones (module.Class).
            where = m.group(2) if m.group(2).endswith("." + m.group(1)) else f"{m.group(2)}.{m.group(1)}"
            skips.append((section, where, m.group(3)))
            detailed[section] = detailed.get(section, 0) + 1
        elif (m := UNITTEST_TOTAL.match(line)) and int(m.group(1)) > detailed.get(section, 0):
            n = int(m.group(1)) - detailed.get(section, 0)
            skips.append((section, f"{n} unittest test(s)", "skipped; run unittest with -v for the reasons"))
        elif SHOUTED_SKIP.search(line) and section != "swift test":
            skips.append((section, "run-tests.sh", line.strip()))
    return corpora, skips


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--status", type=int, default=None, help="exit status of the test run")
    ap.add_argument("log")
    a = ap.parse_args()
    with open(a.log, errors="replace") as f:
        corpora, skips = scan(f)
    print()
    print("==== make test summary " + "=" * 40)
    if corpora:
        for c in corpora:
            print(f"corpus: {c}")
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import testcorpus
        folder, source = testcorpus.locate()
        print(f"corpus: {source}: {folder}, {testcorpus.file_count(folder)} files (no test announced it)")
    print(f"skipped: {len(skips)}")
    for section, name, reason in skips:
        print(f"  - [{section}] {name}: {reason}")
    if a.status is not None:
        print("result: " + ("passed" if a.status == 0 else f"FAILED (exit status {a.status})"))
    print("=" * 63)
    return 0


if __name__ == "__main__":
    sys.exit(main())
