"""A minimal pickerd protocol client (docs/PROTOCOL.md), standard library only.

Only what the soak needs: framing, hello, and encoders for the requests it sends.
Replies are returned as (type, id, payload); errors are decoded to (code, message).
"""
import socket
import struct

VERSION = 1

HELLO, HELLO_REPLY, ERROR, PING, PONG = 0x01, 0x02, 0x03, 0x04, 0x05
LIBRARY_INFO, LIBRARY_INFO_REPLY = 0x06, 0x07
SESSION_NEW, SESSION_STATE, SESSION_RESIZE = 0x10, 0x11, 0x16
ALBUMS, ALBUMS_REPLY, SELECT_ALBUM, PHOTOS, PHOTOS_REPLY, SELECT_PHOTO = 0x20, 0x21, 0x22, 0x24, 0x25, 0x26
GET_IMAGE, IMAGE = 0x30, 0x31
THUMBNAILS, THUMBNAILS_REPLY = 0x46, 0x47

FORMAT_JPEG, FORMAT_PNG, FORMAT_WEBP = 1, 2, 3

ERROR_NAMES = {
    1: "malformed_frame", 2: "unsupported_version", 3: "frame_too_large", 4: "unknown_message_type",
    5: "handshake_required", 6: "invalid_argument", 7: "too_busy", 8: "cancelled", 9: "permission_denied",
    10: "no_such_session", 11: "no_such_album", 12: "no_such_photo", 13: "nothing_selected",
    14: "session_exists", 15: "out_of_range", 16: "selection_full", 17: "invalid_name",
    20: "corrupt_image", 21: "unsupported_image", 22: "image_too_large", 23: "io_error", 99: "internal",
}

MAX_REPLY_FRAME = 256 << 20


def string(s):
    b = s.encode("utf-8")
    return struct.pack(">I", len(b)) + b


def frame(type_, id_, payload=b""):
    return struct.pack(">IBI", 5 + len(payload), type_, id_) + payload


def hello(id_=1, name="soak"):
    return frame(HELLO, id_, struct.pack(">H", VERSION) + string(name))


def ping(id_):
    return frame(PING, id_)


def session_new(id_, name, width, height=0):
    return frame(SESSION_NEW, id_, string(name) + struct.pack(">IIH", width, height, 0) + string(""))


def session_resize(id_, name, width, height=0):
    return frame(SESSION_RESIZE, id_, string(name) + struct.pack(">II", width, height))


def select_album(id_, session, name):
    return frame(SELECT_ALBUM, id_, string(session) + b"\x01" + string(name))


def select_photo(id_, session, index):
    return frame(SELECT_PHOTO, id_, string(session) + b"\x02" + struct.pack(">I", index))


def photos(id_, session):
    return frame(PHOTOS, id_, string(session) + b"\x00")


def albums(id_):
    return frame(ALBUMS, id_)


def get_image(id_, session, fmt=FORMAT_PNG, quality=0, no_cache=False):
    return frame(GET_IMAGE, id_, string(session) + bytes([fmt, quality, 1 if no_cache else 0]))


def thumbnails(id_, session, size=0, page=0):
    return frame(THUMBNAILS, id_, string(session) + struct.pack(">II", size, page) + b"\x00")


class ServerError(Exception):
    def __init__(self, code, message):
        super().__init__(f"{ERROR_NAMES.get(code, code)}: {message}")
        self.code = code
        self.name = ERROR_NAMES.get(code, str(code))
        self.message = message


def decode_error(payload):
    (code,) = struct.unpack(">H", payload[:2])
    (n,) = struct.unpack(">I", payload[2:6])
    return code, payload[6:6 + n].decode("utf-8", "replace")


class Connection:
    """A blocking connection with the handshake done; call() matches replies by id."""

    def __init__(self, path, name="soak", timeout=30.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.next_id = 2
        self.sock.sendall(hello(1, name))
        t, i, p = self.recv()
        if t == ERROR:
            raise ServerError(*decode_error(p))
        if t != HELLO_REPLY:
            raise ConnectionError(f"unexpected handshake reply type {t:#x}")

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def recv_exact(self, n):
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(min(n - len(buf), 1 << 20))
            if not chunk:
                raise EOFError("pickerd closed the connection")
            buf += chunk
        return bytes(buf)

    def recv(self):
        (length,) = struct.unpack(">I", self.recv_exact(4))
        if length < 5 or length > MAX_REPLY_FRAME:
            raise ConnectionError(f"bad reply length {length}")
        body = self.recv_exact(length)
        return body[0], struct.unpack(">I", body[1:5])[0], body[5:]

    def new_id(self):
        i = self.next_id
        self.next_id += 1
        return i

    def call(self, make, *args, **kwargs):
        """Sends make(id, *args) and returns (type, payload) of its reply; error replies raise ServerError."""
        id_ = self.new_id()
        self.sock.sendall(make(id_, *args, **kwargs))
        while True:
            t, i, p = self.recv()
            if t & 0x80:
                continue  # events
            if i == 0 and t == ERROR:
                raise ServerError(*decode_error(p))
            if i != id_:
                continue
            if t == ERROR:
                raise ServerError(*decode_error(p))
            return t, p


def image_info(payload):
    """(format, width, height, data) of an image reply."""
    fmt = payload[0]
    w, h, n = struct.unpack(">III", payload[1:13])
    return fmt, w, h, payload[13:13 + n]


MAGIC = {FORMAT_JPEG: b"\xff\xd8", FORMAT_PNG: b"\x89PNG", FORMAT_WEBP: b"RIFF"}
