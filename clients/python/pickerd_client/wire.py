"""The pickerd wire codec (docs/PROTOCOL.md, protocol version 1): framing, primitives,
requests, replies and events — the only place in this package that knows the bytes.

``encode`` and ``decode`` walk the message table of ``tables`` (re-exported here), so a
request and its reply are read and written by the same code. Decoded payloads are plain dicts
keyed by the field names of PROTOCOL.md. Pure functions over bytes, no I/O.
"""

import struct
from typing import Any, Dict, List, Optional, Tuple

from .tables import *  # noqa: F401,F403  (the tables are part of this module's interface)
from .tables import EVENT_BIT, HEADER_SIZE, MAX_REPLY_FRAME, MAX_REQUEST_FRAME, MESSAGES, MIN_LENGTH, \
    PROTOCOL_VERSION, REQUEST_TYPES, ErrorCode, Fields, MessageType

# Smallest encoded size of each kind: a list count that cannot fit is refused before allocating.
_MIN_SIZE = {"u8": 1, "bool": 1, "format": 1, "u16": 2, "u32": 4, "u64": 8, "i64": 8,
             "string": 4, "blob": 4, "selector": 5, "opt_selector": 1, "extensions": 0}


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
            if (values.get("flags") or 0) & kind[1] or values.get("extensions"):  # an area needs the flags byte before it
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
        elif kind == "opt_selector":
            if value is None:
                out.append(0)
            else:
                _write(out, "selector", value, _siblings)
        elif kind == "extensions":
            # The extension area (PROTOCOL.md, "Extending a message"): tag:u8, len:u32, bytes; kept as given.
            for tag, data in sorted((value or {}).items()):
                out += struct.pack(">BI", tag, len(data)) + bytes(data)
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
        if kind == "opt_selector":
            if r.remaining() and r.data[r.pos] == 0:
                r.take(1)
                return None
            return _read(r, "selector")
        if kind == "extensions":
            # Read to the end; a tag this client does not know is kept as bytes, never an error.
            area: Dict[int, bytes] = {}
            while r.remaining():
                tag = _read(r, "u8")
                if tag in area:
                    raise _malformed("extension %d given twice" % tag)
                area[tag] = _read(r, "blob")
            return area
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
