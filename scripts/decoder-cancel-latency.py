#!/usr/bin/env python3
"""Issue 23: how soon a cancel of a running decode is answered, and whether the decode's CPU stops.

    scripts/decoder-cancel-latency.py SOCKET [--runs N] [--after-ms MS]

The daemon's session "s" must show a photo whose decode is slow (a 24 MP JPEG at a large pane;
with a debug build and PICKERD_TEST_MISBEHAVE=1, a `misbehave-spin.*` photo). Each run sends a
`get-image --no-cache`, waits MS ms, sends `cancel` and times from the cancel going out to the
`cancelled` reply. Prints min / median / max in ms and how many runs ended cancelled."""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
from pickerd_client import Client, PickerError  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("socket")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--after-ms", type=float, default=40)
    args = ap.parse_args()
    client = Client(args.socket, timeout=60)
    session = client.session("s")
    times, cancelled = [], 0
    for _ in range(args.runs):
        pending = session.get_image(no_cache=True, wait=False)
        time.sleep(args.after_ms / 1000)
        start = time.monotonic()
        pending.cancel()
        try:
            pending.result(60)
        except PickerError as e:
            if e.code == 8:
                cancelled += 1
        times.append((time.monotonic() - start) * 1000)
    print("cancel → reply: min %.1f ms, median %.1f ms, max %.1f ms; %d of %d cancelled"
          % (min(times), statistics.median(times), max(times), cancelled, args.runs))


if __name__ == "__main__":
    main()
