"""The pickerd wire codec (docs/PROTOCOL.md, protocol version 1): framing, primitives,
requests, replies and events — the only place in this package that knows the bytes.

Every message is declared once in ``MESSAGES`` as a list of ``(field, kind)``; ``encode``
and ``decode`` walk that table, so a request and its reply are read and written by the same
code. Decoded payloads are plain dicts keyed by the field names of PROTOCOL.md. Pure
functions over bytes, no I/O.

Kinds: ``u8 u16 u32 u64 i64 bool string blob format selector``, ``("list", kind)``,
``("struct", fields)``, ``("optional", fields)`` (a bool, then the fields when it is 1),
``("if_flag", bit, fields)`` (the fields follow when the preceding ``flags`` has that bit),
``("trailing", bit, fields)`` (optional trailing fields, kept in the message's own dict:
encoded only when its ``flags`` has that bit, decoded only when bytes remain, else each reads
as its zero value: flags 0, absent cells None), ``("tail", kind)`` (an optional last field:
decoded only when bytes remain, else None; encoded only when not None) and
``("range", kind, lo, hi)`` (an integer that decodes with ``out_of_range`` outside lo…hi).
A selector is a ``str`` (kind 1, a name) or an ``int`` (kind 2, a 1-based index).
"""

import enum
import struct
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

PROTOCOL_VERSION = 1
HEADER_SIZE = 9                      # u32 length, u8 type, u32 id
MIN_LENGTH = 5                       # a frame's length counts type + id + payload
MAX_REQUEST_FRAME = 1024 * 1024
MAX_REPLY_FRAME = 256 * 1024 * 1024
EVENT_BIT = 0x80


class MessageType(enum.IntEnum):
    HELLO = 0x01
    HELLO_REPLY = 0x02
    ERROR = 0x03
    PING = 0x04
    PONG = 0x05
    LIBRARY_INFO = 0x06
    LIBRARY_INFO_REPLY = 0x07
    SCAN_PROGRESS = 0x08
    SCAN_PROGRESS_REPLY = 0x09
    SESSION_NEW = 0x10
    SESSION_STATE = 0x11
    SESSION_LIST = 0x12
    SESSION_LIST_REPLY = 0x13
    SESSION_SHOW = 0x14
    SESSION_RESIZE = 0x16
    SESSION_CLOSE = 0x18
    SESSION_CLOSED = 0x19
    ALBUMS = 0x20
    ALBUMS_REPLY = 0x21
    SELECT_ALBUM = 0x22
    PHOTOS = 0x24
    PHOTOS_REPLY = 0x25
    SELECT_PHOTO = 0x26
    STEP_PHOTO = 0x28
    STATUS = 0x2A
    SET_SORT = 0x2C
    PHOTOS_PAGE = 0x2E
    PHOTOS_PAGE_REPLY = 0x2F
    GET_IMAGE = 0x30
    IMAGE = 0x31
    TOGGLE = 0x40
    SELECTION = 0x42
    SELECTION_REPLY = 0x43
    CLEAR_SELECTION = 0x44
    THUMBNAILS = 0x46
    THUMBNAILS_REPLY = 0x47
    PREVIEW = 0x48
    SUBSCRIBE = 0x50
    SUBSCRIBED = 0x51
    CANCEL = 0x52
    CANCEL_REPLY = 0x53
    SESSION_EVENT = 0x80
    LIBRARY_EVENT = 0x81
    LIBRARY_CHANGES_EVENT = 0x82
    SCAN_PROGRESS_EVENT = 0x83


class ErrorCode(enum.IntEnum):
    """The protocol's stable error codes. ``error_code`` keeps codes a newer daemon may add
    as plain ints instead of failing."""
    MALFORMED_FRAME = 1
    UNSUPPORTED_VERSION = 2
    FRAME_TOO_LARGE = 3
    UNKNOWN_MESSAGE_TYPE = 4
    HANDSHAKE_REQUIRED = 5
    INVALID_ARGUMENT = 6
    TOO_BUSY = 7
    CANCELLED = 8
    PERMISSION_DENIED = 9
    NO_SUCH_SESSION = 10
    NO_SUCH_ALBUM = 11
    NO_SUCH_PHOTO = 12
    NOTHING_SELECTED = 13
    SESSION_EXISTS = 14
    OUT_OF_RANGE = 15
    SELECTION_FULL = 16
    INVALID_NAME = 17
    CORRUPT_IMAGE = 20
    UNSUPPORTED_IMAGE = 21
    IMAGE_TOO_LARGE = 22
    IO_ERROR = 23
    INTERNAL = 99


def error_code(value: int) -> Union[ErrorCode, int]:
    """The ErrorCode for ``value``, or ``value`` itself when this client does not know it."""
    try:
        return ErrorCode(value)
    except ValueError:
        return value


def error_name(code: int) -> str:
    """``selection_full`` for 16; ``internal`` for a code this client does not know (PROTOCOL.md)."""
    known = error_code(code)
    return known.name.lower() if isinstance(known, ErrorCode) else "internal"


class Format(enum.IntEnum):
    """Image formats. SIXEL and SYMBOLS are output only: UTF-8 terminal text (PROTOCOL.md,
    "Terminal formats"); SYMBOLS needs cells (terminal columns x rows)."""
    JPEG = 1
    PNG = 2
    WEBP = 3
    SIXEL = 6
    SYMBOLS = 7


FORMATS = {1: "jpeg", 2: "png", 3: "webp", 6: "sixel", 7: "symbols"}
# What the library may hold (photos' `format`, `input_formats`): the same numbering as FORMATS
# (PROTOCOL.md, "Image formats"); HEIC, AVIF, GIF, JXL and RAW are decode-only, so never in FORMATS.
PHOTO_FORMATS = {1: "jpeg", 2: "png", 3: "webp", 4: "heic", 5: "avif", 8: "gif", 9: "jxl", 10: "raw"}
FORMAT_CODES = {"jpeg": 1, "jpg": 1, "png": 2, "webp": 3, "sixel": 6, "symbols": 7}
TERMINAL_FORMATS = frozenset((Format.SIXEL, Format.SYMBOLS))
MAX_CELLS = 1000                     # terminal cols and rows are each 1...1000
SESSION_CHANGES = {1: "album", 2: "photo", 3: "selection", 4: "pane_size", 5: "closed", 6: "created"}
SORTS = {0: "name", 1: "date"}

# --------------------------------------------------------------------------------------------
# The message table

Fields = Sequence[Tuple[str, Any]]

SESSION_STATE: Fields = (
    ("name", "string"), ("title", "string"), ("width", "u32"), ("height", "u32"),
    ("max_selection", "u16"), ("selection_count", "u16"), ("album", "string"),
    ("album_index", "u32"), ("photo", "string"), ("photo_index", "u32"),
    ("photo_count", "u32"), ("message", "string"))
LIBRARY_INFO: Fields = (
    ("root", "string"), ("album_count", "u32"), ("photo_count", "u32"), ("scan_state", "u8"),
    ("scanned_at", "i64"), ("skipped_count", "u32"))
SCAN_PROGRESS: Fields = (
    ("state", "u8"), ("files_done", "u32"), ("files_expected", "u32"), ("elapsed_ms", "u32"))
PHOTO: Fields = (
    ("index", "u32"), ("name", "string"), ("path", "string"), ("width", "u32"), ("height", "u32"),
    ("bytes", "u64"), ("format", "format"), ("date", "i64"), ("date_source", "u8"))
IMAGE: Fields = (("format", "format"), ("width", "u32"), ("height", "u32"), ("data", "blob"))
CELLS: Fields = (("cols", ("range", "u16", 1, MAX_CELLS)), ("rows", ("range", "u16", 1, MAX_CELLS)))
SESSION_ONLY: Fields = (("session", "string"),)

T = MessageType
MESSAGES: Dict[int, Tuple[str, Fields]] = {
    T.HELLO: ("hello", (("version", "u16"), ("client_name", "string"))),
    T.HELLO_REPLY: ("helloReply", (
        ("version", "u16"), ("server_version", "string"), ("max_request_frame", "u32"),
        ("max_reply_frame", "u32"), ("input_formats", ("list", "format")),
        ("output_formats", ("list", "format")))),
    T.ERROR: ("error", (("code", "u16"), ("message", "string"))),
    T.PING: ("ping", ()),
    T.PONG: ("pong", (("server_version", "string"),)),
    T.LIBRARY_INFO: ("libraryInfo", ()),
    T.LIBRARY_INFO_REPLY: ("libraryInfoReply", LIBRARY_INFO),
    T.SCAN_PROGRESS: ("scanProgress", ()),
    T.SCAN_PROGRESS_REPLY: ("scanProgressReply", SCAN_PROGRESS),
    T.SESSION_NEW: ("sessionNew", (
        ("name", "string"), ("width", "u32"), ("height", "u32"), ("max_selection", "u16"),
        ("title", "string"))),
    T.SESSION_STATE: ("sessionState", SESSION_STATE),
    T.SESSION_LIST: ("sessionList", ()),
    T.SESSION_LIST_REPLY: ("sessionListReply", (("sessions", ("list", ("struct", SESSION_STATE))),)),
    T.SESSION_SHOW: ("sessionShow", SESSION_ONLY),
    T.SESSION_RESIZE: ("sessionResize", (("session", "string"), ("width", "u32"), ("height", "u32"))),
    T.SESSION_CLOSE: ("sessionClose", SESSION_ONLY),
    T.SESSION_CLOSED: ("sessionClosed", SESSION_ONLY),
    T.ALBUMS: ("albums", ()),
    T.ALBUMS_REPLY: ("albumsReply", (("albums", ("list", ("struct", (
        ("index", "u32"), ("name", "string"), ("photo_count", "u32"))))),)),
    T.SELECT_ALBUM: ("selectAlbum", (("session", "string"), ("album", "selector"))),
    T.PHOTOS: ("photos", (("session", "string"), ("sort", "u8"))),
    T.PHOTOS_REPLY: ("photosReply", (("album", "string"), ("photos", ("list", ("struct", PHOTO))))),
    T.SELECT_PHOTO: ("selectPhoto", (("session", "string"), ("photo", "selector"))),
    T.STEP_PHOTO: ("stepPhoto", (("session", "string"), ("direction", "u8"))),
    T.STATUS: ("status", SESSION_ONLY),
    T.SET_SORT: ("setSort", (("session", "string"), ("sort", "u8"))),
    # Optional trailing flags: bit 0 asks for the reply's broken list.
    T.PHOTOS_PAGE: ("photosPage", (
        ("session", "string"), ("offset", "u32"), ("limit", "u32"),
        ("trailing", ("trailing", 1, (("flags", "u8"),))))),
    T.PHOTOS_PAGE_REPLY: ("photosPageReply", (
        ("album", "string"), ("sort", "u8"), ("total", "u32"), ("offset", "u32"),
        ("photos", ("list", ("struct", PHOTO))),
        # Only when the request set flags bit 0: the rows known broken, with why.
        ("broken", ("tail", ("list", ("struct", (("index", "u32"), ("reason", "string")))))))),
    # flags bit 1: the terminal cell size follows (symbols/sixel output).
    T.GET_IMAGE: ("getImage", (
        ("session", "string"), ("format", "format"), ("quality", "u8"), ("flags", "u8"),
        ("cells", ("if_flag", 2, CELLS)))),
    T.IMAGE: ("image", IMAGE),
    T.TOGGLE: ("toggle", (("session", "string"), ("photo", "selector"))),
    T.SELECTION: ("selection", SESSION_ONLY),
    T.SELECTION_REPLY: ("selectionReply", (("max_selection", "u16"), ("photos", ("list", ("struct", (
        ("album", "string"), ("name", "string"), ("width", "u32"), ("height", "u32"),
        ("path", "string"), ("absolute_path", "string"))))))),
    T.CLEAR_SELECTION: ("clearSelection", SESSION_ONLY),
    # flags bit 2: an output format follows; bit 1: the terminal cells (sixel/symbols pages).
    T.THUMBNAILS: ("thumbnails", (
        ("session", "string"), ("cell_size", "u32"), ("page", "u32"), ("flags", "u8"),
        ("output", ("if_flag", 4, (("format", "format"),))), ("cells", ("if_flag", 2, CELLS)))),
    T.THUMBNAILS_REPLY: ("thumbnailsReply", (
        ("width", "u32"), ("height", "u32"), ("cell_size", "u32"), ("spacing", "u32"),
        ("padding", "u32"), ("columns", "u32"), ("rows", "u32"), ("page", "u32"), ("pages", "u32"),
        ("cells", ("list", ("struct", (
            ("index", "u32"), ("name", "string"), ("x", "u32"), ("y", "u32"), ("size", "u32"),
            ("flags", "u8"))))),
        ("image", ("optional", IMAGE)))),
    T.PREVIEW: ("preview", (
        ("session", "string"), ("width", "u32"), ("height", "u32"), ("format", "format"),
        ("quality", "u8"),
        # Optional trailing flags (+ cells on bit 1): sent only when cells follow.
        ("trailing", ("trailing", 2, (("flags", "u8"), ("cells", ("if_flag", 2, CELLS))))))),
    T.SUBSCRIBE: ("subscribe", (("session", "string"), ("flags", "u8"))),
    T.SUBSCRIBED: ("subscribed", (("session", "string"), ("flags", "u8"))),
    T.CANCEL: ("cancel", (("request_id", "u32"),)),
    T.CANCEL_REPLY: ("cancelReply", (("request_id", "u32"), ("found", "bool"))),
    T.SESSION_EVENT: ("sessionEvent", (("change", "u8"),) + tuple(SESSION_STATE)),
    T.LIBRARY_EVENT: ("libraryEvent", LIBRARY_INFO),
    T.LIBRARY_CHANGES_EVENT: ("libraryChangesEvent", (
        ("added", ("list", "string")), ("removed", ("list", "string")), ("changed", ("list", "string")))),
    T.SCAN_PROGRESS_EVENT: ("scanProgressEvent", SCAN_PROGRESS),
}
del T

REQUEST_TYPES = frozenset(t for t in MESSAGES if t not in (
    0x02, 0x03, 0x05, 0x07, 0x09, 0x11, 0x13, 0x19, 0x21, 0x25, 0x2F, 0x31, 0x43, 0x47, 0x51, 0x53)
    and not t & EVENT_BIT)
MESSAGE_NAMES = {name: t for t, (name, _fields) in MESSAGES.items()}

# Smallest encoded size of each kind: a list count that cannot fit is refused before allocating.
_MIN_SIZE = {"u8": 1, "bool": 1, "format": 1, "u16": 2, "u32": 4, "u64": 8, "i64": 8,
             "string": 4, "blob": 4, "selector": 5}


class WireError(Exception):
    """Bytes that are not a valid frame or payload. ``code`` is the ErrorCode a server would
    answer (malformed_frame, frame_too_large, unknown_message_type; out_of_range for a ranged
    field such as terminal cells outside 1...1000)."""

    def __init__(self, code: ErrorCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _malformed(message: str) -> WireError:
    return WireError(ErrorCode.MALFORMED_FRAME, message)


# --------------------------------------------------------------------------------------------
# Encoding


def encode_payload(type_: int, fields: Optional[Dict[str, Any]] = None, **kw: Any) -> bytes:
    """The payload of message ``type_`` from its fields (a dict and/or keywords). Missing
    integer fields are 0, missing strings empty ("0 means none")."""
    try:
        _name, schema = MESSAGES[type_]
    except KeyError:
        raise ValueError("no message type 0x%02x in protocol version %d" % (type_, PROTOCOL_VERSION)) from None
    values = dict(fields or {}, **kw)
    out = bytearray()
    _write_fields(out, schema, values)
    return bytes(out)


def encode_frame(type_: int, request_id: int, fields: Optional[Dict[str, Any]] = None, **kw: Any) -> bytes:
    """A whole frame: header plus ``encode_payload(type_, fields, **kw)``."""
    return frame(type_, request_id, encode_payload(type_, fields, **kw))


def frame(type_: int, request_id: int, payload: bytes = b"") -> bytes:
    """Header + an already encoded payload."""
    return struct.pack(">IBI", MIN_LENGTH + len(payload), type_, request_id) + payload


def _write_fields(out: bytearray, schema: Fields, values: Dict[str, Any]) -> None:
    for name, kind in schema:
        if isinstance(kind, tuple) and kind[0] == "if_flag":
            part = values.get(name)
            if values.get("flags", 0) & kind[1]:
                _write_fields(out, kind[2], part or {})
            continue
        if isinstance(kind, tuple) and kind[0] == "trailing":
            if (values.get("flags") or 0) & kind[1]:
                _write_fields(out, kind[2], values)
            continue
        if isinstance(kind, tuple) and kind[0] == "tail":
            if values.get(name) is not None:
                _write(out, kind[1], values[name], values)
            continue
        _write(out, kind, values.get(name), values)


_PACK = {"u8": ">B", "format": ">B", "u16": ">H", "u32": ">I", "u64": ">Q", "i64": ">q"}


def _write(out: bytearray, kind: Any, value: Any, _siblings: Dict[str, Any]) -> None:
    if isinstance(kind, str):
        if kind in _PACK:
            out += struct.pack(_PACK[kind], value or 0)
        elif kind == "bool":
            out.append(1 if value else 0)
        elif kind == "string":
            b = (value or "").encode("utf-8")
            out += struct.pack(">I", len(b)) + b
        elif kind == "blob":
            b = bytes(value or b"")
            out += struct.pack(">I", len(b)) + b
        elif kind == "selector":
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                raise TypeError("a selector is a name (str) or a 1-based index (int), not %r" % (value,))
            if isinstance(value, int):
                out += b"\x02" + struct.pack(">I", value)
            else:
                out += b"\x01"
                _write(out, "string", value, _siblings)
        else:
            raise ValueError("unknown field kind %r" % (kind,))
        return
    tag = kind[0]
    if tag == "list":
        items = list(value or [])
        out += struct.pack(">I", len(items))
        for item in items:
            _write(out, kind[1], item, _siblings)
    elif tag == "struct":
        _write_fields(out, kind[1], value or {})
    elif tag == "optional":
        out.append(0 if value is None else 1)
        if value is not None:
            _write_fields(out, kind[1], value)
    elif tag == "range":
        _write(out, kind[1], value, _siblings)  # not checked: the server answers out_of_range
    else:
        raise ValueError("unknown field kind %r" % (kind,))


# --------------------------------------------------------------------------------------------
# Decoding


class Reader:
    """Reads primitives from one payload; every read checks the bytes are there."""

    def __init__(self, data: bytes):
        self.data = memoryview(data)
        self.pos = 0

    def take(self, n: int) -> memoryview:
        if self.pos + n > len(self.data):
            raise _malformed("payload ends early (wanted %d bytes at offset %d of %d)"
                             % (n, self.pos, len(self.data)))
        v = self.data[self.pos:self.pos + n]
        self.pos += n
        return v

    def remaining(self) -> int:
        return len(self.data) - self.pos

    def end(self) -> None:
        if self.pos != len(self.data):
            raise _malformed("%d unexpected bytes after the payload" % (len(self.data) - self.pos))


def decode_payload(type_: int, payload: bytes) -> Dict[str, Any]:
    """The fields of message ``type_`` from its payload, consumed exactly. Raises WireError
    (unknown_message_type for a type not in the table, malformed_frame for bad bytes,
    out_of_range for a ranged field outside its range)."""
    try:
        _name, schema = MESSAGES[type_]
    except KeyError:
        raise WireError(ErrorCode.UNKNOWN_MESSAGE_TYPE, "unknown message type 0x%02x" % type_) from None
    r = Reader(payload)
    values = _read_fields(r, schema)
    r.end()
    return values


def _read_fields(r: Reader, schema: Fields) -> Dict[str, Any]:
    values: Dict[str, Any] = {}
    for name, kind in schema:
        if isinstance(kind, tuple) and kind[0] == "if_flag":
            values[name] = _read_fields(r, kind[2]) if values.get("flags", 0) & kind[1] else None
        elif isinstance(kind, tuple) and kind[0] == "trailing":
            if r.remaining():
                values.update(_read_fields(r, kind[2]))
            else:
                values.update(_absent_fields(kind[2]))
        elif isinstance(kind, tuple) and kind[0] == "tail":
            values[name] = _read(r, kind[1]) if r.remaining() else None
        else:
            values[name] = _read(r, kind)
    return values


def _read(r: Reader, kind: Any) -> Any:
    if isinstance(kind, str):
        if kind in _PACK:
            fmt = _PACK[kind]
            return struct.unpack(fmt, r.take(struct.calcsize(fmt)))[0]
        if kind == "bool":
            v = r.take(1)[0]
            if v > 1:
                raise _malformed("bool byte %d" % v)
            return v == 1
        if kind == "string":
            try:
                return str(r.take(_read(r, "u32")), "utf-8")
            except UnicodeDecodeError:
                raise _malformed("string is not UTF-8") from None
        if kind == "blob":
            return bytes(r.take(_read(r, "u32")))
        if kind == "selector":
            tag = _read(r, "u8")
            if tag == 1:
                return _read(r, "string")
            if tag == 2:
                return _read(r, "u32")
            raise _malformed("selector kind %d" % tag)
        raise ValueError("unknown field kind %r" % (kind,))
    tag = kind[0]
    if tag == "list":
        n = _read(r, "u32")
        if n * _min_size(kind[1]) > r.remaining():
            raise _malformed("list of %d elements cannot fit in the payload" % n)
        return [_read(r, kind[1]) for _ in range(n)]
    if tag == "struct":
        return _read_fields(r, kind[1])
    if tag == "optional":
        return _read_fields(r, kind[1]) if _read(r, "bool") else None
    if tag == "range":
        v = _read(r, kind[1])
        if not kind[2] <= v <= kind[3]:
            raise WireError(ErrorCode.OUT_OF_RANGE, "%d is outside %d...%d" % (v, kind[2], kind[3]))
        return v
    raise ValueError("unknown field kind %r" % (kind,))


def _absent_fields(schema: Fields) -> Dict[str, Any]:
    """Optional trailing fields that are not there: flags 0, flagged groups None."""
    return {name: None if isinstance(kind, tuple) and kind[0] == "if_flag" else 0 for name, kind in schema}


def _min_size(kind: Any) -> int:
    if isinstance(kind, str):
        return _MIN_SIZE[kind]
    if kind[0] == "struct":
        return sum(_min_size(k) for _n, k in kind[1] if not (isinstance(k, tuple) and k[0] in ("if_flag", "trailing", "tail")))
    if kind[0] == "range":
        return _min_size(kind[1])
    return 4


class Frame:
    """One frame: ``type`` (an int; a MessageType when known), ``id``, raw ``payload``."""

    __slots__ = ("type", "id", "payload")

    def __init__(self, type_: int, request_id: int, payload: bytes):
        self.type = type_
        self.id = request_id
        self.payload = payload

    @property
    def is_event(self) -> bool:
        return bool(self.type & EVENT_BIT)

    @property
    def known(self) -> bool:
        return self.type in MESSAGES

    @property
    def name(self) -> str:
        entry = MESSAGES.get(self.type)
        return entry[0] if entry else "type-0x%02x" % self.type

    def fields(self) -> Dict[str, Any]:
        return decode_payload(self.type, self.payload)

    def encode(self) -> bytes:
        return frame(self.type, self.id, self.payload)

    def __repr__(self) -> str:
        return "Frame(%s, id=%d, %d bytes)" % (self.name, self.id, len(self.payload))


class Framer:
    """Reassembles frames from a byte stream. ``feed`` bytes as they arrive; ``next()``
    returns a Frame or None ("need more": partial input keeps its place). A length below 5
    or above ``max_length`` raises WireError before anything is allocated."""

    def __init__(self, max_length: int = MAX_REPLY_FRAME):
        self.max_length = max_length
        self.buffer = bytearray()

    def feed(self, data: bytes) -> None:
        self.buffer += data

    def wanted(self) -> int:
        """How many more bytes would complete the next frame (at least 1)."""
        if len(self.buffer) < 4:
            return 4 - len(self.buffer)
        (length,) = struct.unpack_from(">I", self.buffer)
        return max(1, 4 + length - len(self.buffer))

    def next(self) -> Optional[Frame]:
        buf = self.buffer
        if len(buf) < 4:
            return None
        (length,) = struct.unpack_from(">I", buf)
        if length < MIN_LENGTH:
            raise _malformed("frame length %d is below the 5-byte header" % length)
        if length > self.max_length:
            raise WireError(ErrorCode.FRAME_TOO_LARGE, "frame of %d bytes exceeds the maximum of %d bytes"
                            % (length, self.max_length))
        if len(buf) < 4 + length:
            return None
        type_, request_id = struct.unpack_from(">BI", buf, 4)
        payload = bytes(buf[HEADER_SIZE:4 + length])
        del buf[:4 + length]
        known: int = type_
        try:
            known = MessageType(type_)
        except ValueError:
            pass
        return Frame(known, request_id, payload)

    def frames(self) -> List[Frame]:
        """Every complete frame in the buffer."""
        out = []
        while True:
            f = self.next()
            if f is None:
                return out
            out.append(f)


def decode_request(data: bytes) -> Tuple[Frame, Dict[str, Any]]:
    """One whole request frame as a server reads it: (frame, fields). Reply and event types
    are unknown_message_type, as they are to pickerd."""
    framer = Framer(MAX_REQUEST_FRAME)
    framer.feed(data)
    f = framer.next()
    if f is None or framer.buffer:
        raise _malformed("not exactly one frame")
    if f.type not in REQUEST_TYPES:
        raise WireError(ErrorCode.UNKNOWN_MESSAGE_TYPE, "0x%02x is not a request" % f.type)
    return f, f.fields()
