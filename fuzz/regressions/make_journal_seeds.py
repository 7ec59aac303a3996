#!/usr/bin/env python3
"""Writes the seeds of the "journal" fuzz target (fuzz/regressions/journal/): sessions.journal
files as SessionJournalFormat lays them out (docs/ARCHITECTURE.md, "Sessions on disk")."""
import json, os, struct, zlib

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "journal")
os.makedirs(here, exist_ok=True)
GEN = bytes(range(16))

def header(gen=GEN):
    return b"PKSJ" + struct.pack("<I", 1) + gen + bytes(8)

def record(change, number, gen=GEN, payload=None):
    payload = payload if payload is not None else json.dumps(change, separators=(",", ":")).encode()
    head = struct.pack("<II", len(payload), number)
    crc = zlib.crc32(gen + head + payload) & 0xFFFFFFFF
    return head + struct.pack("<I", crc) + bytes(4) + payload

def session(name, **extra):
    s = {"name": name, "title": "Photo Library", "width": 600, "height": 400, "maxSelection": 10, "selection": []}
    s.update(extra)
    return s

three = (record({"removed": [], "sessions": [session("a")]}, 1)
         + record({"removed": [], "sessions": [session("a", album="A", photo="A/x.jpg", selection=["A/x.jpg"])]}, 2)
         + record({"removed": ["a"], "sessions": [session("b", sort="date", finished=1)]}, 3))
seeds = {
    "three-records.journal": header() + three,
    "torn-last-record.journal": header() + three[:-7],
    "another-generation.journal": header(bytes(16)) + three,
    "payload-not-a-change.journal": header() + record(None, 1, payload=b'{"sessions":7}'),
    "hostile-sessions.journal": header() + record({"removed": ["nobody"], "sessions": [
        session("big", width=2000000000), session("esc", title="x\u001b]52;c;SGk=\u0007"),
        session("dots", album="../.."), {"name": 5}]}, 1),
    "number-skips.journal": header() + record({"removed": [], "sessions": [session("a")]}, 2),
    "header-only.journal": header() + bytes(64),
}
for name, data in seeds.items():
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)
