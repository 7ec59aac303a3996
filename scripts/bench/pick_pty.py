"""`pickerctl pick` on a pseudo-terminal that plays a terminal, for bench_pick.py: keys written to the
pty and every byte the picker draws read back, each read stamped with time.monotonic().

The terminal played (by its answers to pick's queries, PickDetection.swift):
  sixel    xterm -ti vt340: DA1 lists 4 (sixel), XTSMGRAPHICS answers the sixel geometry (xterm's
           default maxGraphicSize 1000x1000, capped by the window), CSI 14 t / 16 t the window and cell
           pixels; the kitty APC query goes unanswered, as in xterm.
  symbols  the same xterm without sixel (DA1 62;22): pick falls back to the daemon's symbols.

When is a picture "drawn"? pick writes every picture inside one synchronized-output frame
(CSI ? 2026 h ... CSI ? 2026 l, PickPictures.arrived / PickController.draw). A picture frame is one
that holds a sixel DCS (ESC P ... q) for sixel, or a 24-bit colour SGR (ESC [ 38;2; or 48;2;, which
only the daemon's symbol rows use: pick's own text never does) for symbols. The picture's last byte:
  sixel    the ST (ESC \\) that closes the frame's last DCS;
  symbols  the frame's end, CSI ? 2026 l (the symbol rows are the frame's last content).
Its time is the time of the read(2) that returned that byte: the bench polls the pty with select(2),
so the stamp is the moment the byte was readable, to within the loop's turn (well under 1 ms idle).
"""
import fcntl
import os
import re
import select
import struct
import subprocess
import termios
import time

SYNC_BEGIN = b"\x1b[?2026h"
SYNC_END = b"\x1b[?2026l"
SIXEL_START = re.compile(rb"\x1bP[0-9;]*q")
SYMBOL_COLOUR = re.compile(rb"\x1b\[[34]8;2;")
ST = b"\x1b\\"

# The queries pick sends (GraphicsDetection.swift), and xterm's reply to each.
QUERIES = {
    "da1": b"\x1b[c",
    "window": b"\x1b[14t",
    "cell": b"\x1b[16t",
    "sixel_geometry": b"\x1b[?2;1;0S",
}
XTERM_MAX_GRAPHIC = 1000  # xterm's default maxGraphicSize (both sides)


class PtyPick:
    """One pick process on its own pty, `cols`x`rows` cells of `cell` pixels."""

    def __init__(self, argv, mode, cols, rows, cell=(10, 20), env=None, stdout_path=os.devnull, log_path=None):
        self.mode, self.cols, self.rows, self.cell = mode, cols, rows, cell
        self.xpixel, self.ypixel = cols * cell[0], rows * cell[1]
        self.buf = bytearray()
        self.stamps = []  # (end offset of a read, monotonic time of that read)
        self.answered = 0  # queries are looked for from here on
        self.log_lines = []  # the daemon's log lines since the start, each stamped when read
        self.log_rest = b""
        self.log_file = open(log_path, "rb") if log_path else None
        if self.log_file:
            self.log_file.seek(0, os.SEEK_END)
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, self.xpixel, self.ypixel))

        def controlling_tty():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        base = {"PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": os.environ.get("HOME", "/")}
        self.out = open(stdout_path, "wb")
        self.started = time.monotonic()
        self.child = subprocess.Popen(argv, stdin=slave, stdout=self.out, stderr=slave, preexec_fn=controlling_tty,
                                      env=dict(base, **(env or {})))
        os.close(slave)
        self.master = master

    # -- the terminal's side

    def _reply(self):
        """Answers every complete query that arrived since the last call, as xterm would."""
        data = bytes(self.buf[self.answered:])
        cut = data.rfind(b"\x1b")
        # A query cut by the read boundary waits for its rest.
        tail = data[cut:] if cut >= 0 else b""
        cut_query = bool(tail) and any(q.startswith(tail) and q != tail for q in QUERIES.values())
        upto = cut if cut_query else len(data)
        chunk = data[:upto]
        out = b""
        for _ in range(chunk.count(QUERIES["window"])):
            out += b"\x1b[4;%d;%dt" % (self.ypixel, self.xpixel)
        for _ in range(chunk.count(QUERIES["cell"])):
            out += b"\x1b[6;%d;%dt" % (self.cell[1], self.cell[0])
        if self.mode == "sixel":
            for _ in range(chunk.count(QUERIES["sixel_geometry"])):
                out += b"\x1b[?2;0;%d;%dS" % (min(XTERM_MAX_GRAPHIC, self.xpixel), min(XTERM_MAX_GRAPHIC, self.ypixel))
        for _ in range(chunk.count(QUERIES["da1"])):
            out += b"\x1b[?63;1;2;4;6;9;15;16;22;28c" if self.mode == "sixel" else b"\x1b[?62;22c"
        self.answered += upto
        if out:
            os.write(self.master, out)

    def pump(self, timeout):
        """Reads what is there within `timeout` seconds; False once the picker closed the pty."""
        # With a daemon log to follow, wake every 5 ms so its lines are stamped close to when written.
        wait = min(timeout, 0.005) if self.log_file else timeout
        ready, _, _ = select.select([self.master], [], [], max(0.0, wait))
        if ready:
            try:
                data = os.read(self.master, 1 << 20)
            except OSError:
                data = b""
            now = time.monotonic()
            if not data:
                return False
            self.buf += data
            self.stamps.append((len(self.buf), now))
            self._reply()
        self._read_log()
        return True

    def _read_log(self):
        if not self.log_file:
            return
        data = self.log_file.read()
        if not data:
            return
        now = time.monotonic()
        data = self.log_rest + data
        *lines, self.log_rest = data.split(b"\n")
        self.log_lines += [(now, line.decode("utf-8", "replace")) for line in lines]

    def send(self, keys):
        """Writes `keys`; returns (time just before the write, buffer offset then)."""
        self.pump(0)
        at, t = len(self.buf), time.monotonic()
        os.write(self.master, keys)
        return t, at

    def time_of(self, offset):
        """When the byte at `offset` was read."""
        for end, t in self.stamps:
            if end > offset:
                return t
        return None

    # -- what was drawn

    def frames(self, start, end=None):
        """(begin, end) offsets of the complete synchronized-output frames beginning at or after `start`."""
        data, out = self.buf, []
        at = start
        stop = len(data) if end is None else end
        while True:
            b = data.find(SYNC_BEGIN, at, stop)
            if b < 0:
                return out
            e = data.find(SYNC_END, b, stop)
            if e < 0:
                return out
            out.append((b, e + len(SYNC_END)))
            at = e + len(SYNC_END)

    def picture_end(self, frame):
        """The offset just past the picture's last byte in `frame`, or None if the frame has no picture."""
        b, e = frame
        body = bytes(self.buf[b:e])
        if self.mode == "sixel":
            starts = [m.start() for m in SIXEL_START.finditer(body)]
            if not starts:
                return None
            st = body.find(ST, starts[-1])
            return None if st < 0 else b + st + len(ST)
        return e if SYMBOL_COLOUR.search(body) else None

    def pictures(self, start, end=None):
        """Offsets just past each picture's last byte, for the pictures drawn after `start`."""
        return [p for p in (self.picture_end(f) for f in self.frames(start, end)) if p is not None]

    def wait_picture(self, start, timeout=30.0):
        """Waits for the first picture after `start`; returns the time of its last byte, or None."""
        deadline = time.monotonic() + timeout
        looked = start  # frames end with SYNC_END: look again only once a new one arrived
        while time.monotonic() < deadline:
            if self.buf.find(SYNC_END, max(start, looked - len(SYNC_END))) >= 0:
                got = self.pictures(start)
                if got:
                    return self.time_of(got[0] - 1)
            looked = len(self.buf)
            if not self.pump(0.05) and self.child.poll() is not None:
                return None
        return None

    def log_since(self, t0, t1=None):
        """The daemon's log lines read between t0 and t1 (monotonic), as (ms after t0, line)."""
        return [(round((t - t0) * 1000, 1), l) for t, l in self.log_lines if t >= t0 and (t1 is None or t <= t1)]

    def wait_text(self, text, start=0, timeout=30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.buf[start:]:
                return True
            if not self.pump(0.05) and self.child.poll() is not None:
                return False
        return False

    def settle(self, quiet=1.0, timeout=30.0):
        """Reads until nothing has been drawn for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        last = time.monotonic()
        while time.monotonic() < deadline and time.monotonic() - last < quiet:
            n = len(self.buf)
            self.pump(0.05)
            if len(self.buf) != n:
                last = time.monotonic()

    def wait_log(self, predicate, timeout=10.0):
        """Reads (drawing and daemon log) until predicate(self.log_lines) holds; False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.log_lines):
                return True
            self.pump(0.005)
        return predicate(self.log_lines)

    def quit(self):
        """q, then waits for pick to end (killed after 10 s); returns its exit code."""
        try:
            os.write(self.master, b"q")
        except OSError:
            pass
        deadline = time.monotonic() + 10
        while self.child.poll() is None and time.monotonic() < deadline:
            self.pump(0.05)
        if self.child.poll() is None:
            self.child.kill()
        code = self.child.wait()
        os.close(self.master)
        self.out.close()
        if self.log_file:
            self.log_file.close()
        return code
