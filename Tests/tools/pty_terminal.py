#!/usr/bin/env python3
"""Plays a terminal for `pickerctl pick` on a pseudo-terminal, and records everything it draws.

usage: pty_terminal.py MODE COLS ROWS XPIXEL YPIXEL RECORDING STDOUT [--key=K] -- COMMAND...

MODE says which terminal to play, by the answers it gives to the picker's queries:
  kitty  answers the kitty graphics query (a=q) with OK, DA1 without sixel
  sixel  does not answer the kitty query, DA1 lists 4 (sixel)
  plain  answers only DA1, without sixel
  tmux-kitty, tmux-plain  the same with $TMUX set: the picker must wrap graphics in tmux's passthrough
  iterm  answers like plain, with TERM_PROGRAM=iTerm.app (iTerm2 inline images, OSC 1337)
  outer-sixel  a sixel terminal with tmux attached in it (the picker runs inside that tmux): tmux does not
         pass the picker's synchronized-output marks on, so a picture is whole when its DCS ends
All three answer CSI 14 t / CSI 16 t from XPIXEL/YPIXEL (0 = stay silent) and set TIOCGWINSZ with them.

The scenario: wait for the picker's key help, wait for a picture, press j (next photo), wait for the
next picture, press q. Prints a JSON line: {"exit": code, "timeout": bool, "steps_left": n,
"next_picture_ms": from pressing j to the start of the next picture}. The recording holds every
byte the picker wrote to the terminal; the command's stdout goes to STDOUT.

--burst=N (before --) presses the key N times, --gap-ms=G apart (default 20), then waits for the
picture and one quiet second more; the JSON adds "pictures_after_last_key" (pictures begun after the
last key) and "burst_ms" (from the last key's byte to the end of the picture's frame).
--repeat=N presses the key N times, each after the previous picture is whole; the JSON adds
"latencies_ms" (each key's byte to the end of its picture's frame) and "first_picture_ms" (from
the start to the end of the first picture's frame). Figures for benchmarks, never for assertions.
"""
import fcntl
import json
import os
import select
import struct
import subprocess
import sys
import termios
import time

# What marks a new picture in each mode's output.
PICTURE = {"kitty": b"\x1b_Ga=T", "sixel": b"\x1bP", "plain": b"\x1b[38;2;",
           "tmux-kitty": b"\x1b\x1b_Ga=T", "tmux-plain": b"\x1b[38;2;", "iterm": b"\x1b]1337;File=",
           "outer-sixel": b'q"1;1;'}


def answers(mode, xpixel, ypixel, cols, rows, data):
    """Replies to the queries found in `data`, as the played terminal would give them."""
    out = b""
    if mode in ("kitty", "tmux-kitty") and b"\x1b_G" in data and b"a=q" in data:
        out += b"\x1b_Gi=31;OK\x1b\\"
    if b"\x1b[14t" in data and xpixel:
        out += b"\x1b[4;%d;%dt" % (ypixel, xpixel)
    if b"\x1b[16t" in data and xpixel:
        out += b"\x1b[6;%d;%dt" % (ypixel // rows, xpixel // cols)
    if b"\x1b[c" in data:
        out += b"\x1b[?62;4;22c" if mode in ("sixel", "outer-sixel") else b"\x1b[?62;22c"
    return out


def main():
    mode, cols, rows, xpixel, ypixel, recording, stdout_path = sys.argv[1:8]
    cols, rows, xpixel, ypixel = int(cols), int(rows), int(xpixel), int(ypixel)
    command = sys.argv[sys.argv.index("--") + 1:]
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, xpixel, ypixel))

    def controlling_tty():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    with open(stdout_path, "wb") as out:
        child = subprocess.Popen(command, stdin=slave, stdout=out, stderr=slave, preexec_fn=controlling_tty,
                                 env=dict({"PATH": "/usr/bin:/bin", "TERM": "xterm-256color"},
                                          **({"TMUX": "/tmp/tmux-fake/default,1,0"} if mode.startswith("tmux") else {}),
                                          **({"TERM_PROGRAM": "iTerm.app"} if mode == "iterm" else {})))
    os.close(slave)
    seen = b""
    # --key=K (before --) presses K instead of j for the second picture (g: the thumbnail grid).
    key = next((a.split("=", 1)[1] for a in sys.argv[8:sys.argv.index("--")] if a.startswith("--key=")), "j")
    options = dict(a[2:].split("=", 1) for a in sys.argv[8:sys.argv.index("--")] if a.startswith("--") and "=" in a)
    burst, repeat = int(options.get("burst", "0")), int(options.get("repeat", "0"))
    gap = int(options.get("gap-ms", "20")) / 1000
    steps = [("wait", b"Space pick"), ("wait-picture", None)]
    if burst:
        for n in range(burst):
            steps += [("send", key.encode())] + ([("sleep", gap)] if n < burst - 1 else [])
        steps += [("wait-picture", None), ("sleep", 1.0)]
    else:
        steps += [("send", key.encode()), ("wait-picture", None)] * max(1, repeat)
    steps.append(("send", b"q"))
    started = time.monotonic()
    first_picture_ms = None
    latencies = []
    marks = []
    mark = 0
    sent_at = None
    picture_at = None
    next_picture_ms = None
    deadline = time.time() + 60
    timed_out = False
    while True:
        if steps and steps[0][0] == "send":
            os.write(master, steps.pop(0)[1])
            mark = len(seen)
            sent_at = time.monotonic()
            marks.append(mark)
            continue
        if steps and steps[0][0] == "sleep" and len(steps[0]) == 2:
            steps[0] = ("sleep", time.monotonic() + steps[0][1], True)
        if steps and steps[0][0] == "sleep" and time.monotonic() >= steps[0][1]:
            steps.pop(0)
            continue
        if time.time() > deadline:
            timed_out = True
            child.kill()
            break
        wait = 0.05
        if steps and steps[0][0] == "sleep":
            wait = max(0.0, min(wait, steps[0][1] - time.monotonic()))
        ready, _, _ = select.select([master], [], [], wait)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if not data:
                break
            seen += data
            reply = answers(mode, xpixel, ypixel, cols, rows, data)
            if reply:
                os.write(master, reply)
        elif child.poll() is not None:
            break
        if steps:
            kind, arg = steps[0][0], steps[0][1]
            if kind == "wait" and arg in seen[mark:]:
                steps.pop(0)
            elif kind == "wait-picture" and PICTURE[mode] in seen[mark:]:
                # The picture is whole when the frame's synchronized output ends after it.
                at = seen.index(PICTURE[mode], mark)
                if picture_at is None:
                    picture_at = time.monotonic()
                if (b"\x1b\\" if mode == "outer-sixel" else b"\x1b[?2026l") not in seen[at:]:
                    continue
                steps.pop(0)
                mark = len(seen)
                now = time.monotonic()
                if sent_at is not None:
                    next_picture_ms = round((picture_at - sent_at) * 1000, 1)
                    latencies.append(round((now - sent_at) * 1000, 1))
                else:
                    first_picture_ms = round((now - started) * 1000, 1)
                picture_at = None
    code = child.wait()
    with open(recording, "wb") as f:
        f.write(seen)
    summary = {"exit": code, "timeout": timed_out, "steps_left": len(steps), "next_picture_ms": next_picture_ms,
               "first_picture_ms": first_picture_ms}
    if burst:
        # The q at the end is the last key sent: count from the burst's last key, the one before it.
        tail = seen[marks[-2]:marks[-1]] if len(marks) > 1 else b""
        summary["pictures_after_last_key"] = tail.count(PICTURE[mode])
        summary["burst_ms"] = latencies[-1] if latencies else None
    if repeat:
        summary["latencies_ms"] = latencies
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
