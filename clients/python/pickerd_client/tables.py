"""The pickerd wire tables (docs/PROTOCOL.md, protocol version 1): message numbers, error
codes, formats, session changes, sorts and every message's fields, as data. ``wire`` is the
codec that walks them. The tests check these tables against the Swift declaration
(``tests/test_declaration.py``), so a number or name that drifts fails a test.

Each message is declared once in ``MESSAGES`` as a list of ``(field, kind)``.
Kinds: ``u8 u16 u32 u64 i64 bool string blob format selector``, ``opt_selector`` (kind 0 or
None: none given), ``extensions`` (the extension area: ``{tag: bytes}`` to the end of the
payload; unknown tags are kept), ``("list", kind)``, ``("struct", fields)``, ``("optional",
fields)`` (a bool, then the fields when it is 1), ``("if_flag", bit, fields)`` (the fields
follow when the preceding ``flags`` has that bit), ``("trailing", bit, fields)`` (optional
trailing fields, kept in the message's own dict: encoded only when its ``flags`` has that
bit, decoded only when bytes remain, else each reads as its zero value: flags 0, absent
cells None), ``("tail", kind)`` (an optional last field: decoded only when bytes remain, else
None; encoded only when not None) and ``("range", kind, lo, hi)`` (an integer that decodes
with ``out_of_range`` outside lo…hi). A selector is a ``str`` (kind 1, a name) or an ``int``
(kind 2, a 1-based index).
"""

import enum
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
    PHOTO_INFO = 0x32
    PHOTO_INFO_REPLY = 0x33
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
    SESSION_FINISH = 0x54
    CHOICES = 0x56
    CHOICES_REPLY = 0x57
    SET_CHOICE = 0x58
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
    NO_SUCH_CHOICE = 18
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
SESSION_CHANGES = {1: "album", 2: "photo", 3: "selection", 4: "pane_size", 5: "closed", 6: "created", 7: "accepted", 8: "cancelled", 9: "choice"}
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
# Symbol classes of "symbols" pictures (PROTOCOL.md, "Symbol classes"): extension tag 1 of getImage,
# preview and thumbnails (one byte: the class to draw) and of their replies (the class drawn).
SYMBOLS_TAG = 1
SYMBOL_CLASSES = {0: "block", 1: "sextant", 2: "ascii"}
SYMBOL_CLASS_CODES = {name: code for code, name in SYMBOL_CLASSES.items()}
# photoInfo's extension tag 1 (PROTOCOL.md, "Image formats"): an empty request entry asks; the reply's
# entry is the relative path of the RAW of a RAW+JPEG pair listed as this JPEG, UTF-8 (empty: none).
RAW_COMPANION_TAG = 1
# preview's extension tag 2 (PROTOCOL.md, "Zoom (1:1)"): centre_x, centre_y u32 (millionths of the photo)
# asks for 1:1; the image reply's tag 2 is the window: left, top, width, height, photo width, height (u32).
ZOOM_TAG = 2
# A session's choices (PROTOCOL.md, "choices"): the host app's toggles; no options is a check box
# whose value is "true" or "false". sessionNew's extension tag 1 carries them (encoded as CHOICE_LIST).
CHOICE = ("struct", (("id", "string"), ("label", "string"),
                     ("options", ("list", ("struct", (("id", "string"), ("label", "string"))))), ("value", "string")))
CHOICE_LIST: Fields = (("choices", ("list", CHOICE)),)
CHOICES_TAG = 1
# An EXIF rational: 0/0 is unknown.
RATIONAL = ("struct", (("numerator", "u32"), ("denominator", "u32")))
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
        ("title", "string"), ("extensions", "extensions"))),
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
    # flags bit 1: the terminal cell size follows (symbols/sixel output); the extension area may
    # carry the symbol class (SYMBOLS_TAG), as the reply's carries the class drawn.
    T.GET_IMAGE: ("getImage", (
        ("session", "string"), ("format", "format"), ("quality", "u8"), ("flags", "u8"),
        ("cells", ("if_flag", 2, CELLS)), ("extensions", "extensions"))),
    T.IMAGE: ("image", IMAGE + (("extensions", "extensions"),)),
    # photo: None (kind 0) for the session's current photo. Later fields: the extension area.
    T.PHOTO_INFO: ("photoInfo", (("session", "string"), ("photo", "opt_selector"), ("extensions", "extensions"))),
    T.PHOTO_INFO_REPLY: ("photoInfoReply", (
        ("path", "string"), ("name", "string"), ("format", "format"), ("width", "u32"), ("height", "u32"),
        ("bytes", "i64"), ("date", "i64"), ("date_source", "u8"), ("camera_make", "string"),
        ("camera_model", "string"), ("lens", "string"), ("exposure_time", RATIONAL), ("f_number", RATIONAL),
        ("focal_length", RATIONAL), ("iso", "u32"), ("colour_profile", "string"), ("gps", "bool"),
        ("extensions", "extensions"))),
    T.TOGGLE: ("toggle", (("session", "string"), ("photo", "selector"))),
    T.SELECTION: ("selection", SESSION_ONLY),
    T.SELECTION_REPLY: ("selectionReply", (("max_selection", "u16"), ("photos", ("list", ("struct", (
        ("album", "string"), ("name", "string"), ("width", "u32"), ("height", "u32"),
        ("path", "string"), ("absolute_path", "string"))))))),
    T.CLEAR_SELECTION: ("clearSelection", SESSION_ONLY),
    # flags bit 2: an output format follows; bit 1: the terminal cells (sixel/symbols pages).
    T.THUMBNAILS: ("thumbnails", (
        ("session", "string"), ("cell_size", "u32"), ("page", "u32"), ("flags", "u8"),
        ("output", ("if_flag", 4, (("format", "format"),))), ("cells", ("if_flag", 2, CELLS)),
        ("extensions", "extensions"))),
    T.THUMBNAILS_REPLY: ("thumbnailsReply", (
        ("width", "u32"), ("height", "u32"), ("cell_size", "u32"), ("spacing", "u32"),
        ("padding", "u32"), ("columns", "u32"), ("rows", "u32"), ("page", "u32"), ("pages", "u32"),
        ("cells", ("list", ("struct", (
            ("index", "u32"), ("name", "string"), ("x", "u32"), ("y", "u32"), ("size", "u32"),
            ("flags", "u8"))))),
        ("image", ("optional", IMAGE)), ("extensions", "extensions"))),
    T.PREVIEW: ("preview", (
        ("session", "string"), ("width", "u32"), ("height", "u32"), ("format", "format"),
        ("quality", "u8"),
        # Optional trailing flags (+ cells on bit 1): sent only when cells follow; the extension
        # area (the symbol class) comes after them, so only with cells.
        ("trailing", ("trailing", 2, (("flags", "u8"), ("cells", ("if_flag", 2, CELLS))))),
        ("extensions", "extensions"))),
    T.SUBSCRIBE: ("subscribe", (("session", "string"), ("flags", "u8"))),
    T.SUBSCRIBED: ("subscribed", (("session", "string"), ("flags", "u8"))),
    T.CANCEL: ("cancel", (("request_id", "u32"),)),
    T.CANCEL_REPLY: ("cancelReply", (("request_id", "u32"), ("found", "bool"))),
    T.SESSION_FINISH: ("sessionFinish", (("session", "string"), ("outcome", "u8"))),
    T.CHOICES: ("choices", SESSION_ONLY),
    T.CHOICES_REPLY: ("choicesReply", CHOICE_LIST),
    T.SET_CHOICE: ("setChoice", (("session", "string"), ("choice", "string"), ("value", "string"))),
    T.SESSION_EVENT: ("sessionEvent", (("change", "u8"),) + tuple(SESSION_STATE)),
    T.LIBRARY_EVENT: ("libraryEvent", LIBRARY_INFO),
    T.LIBRARY_CHANGES_EVENT: ("libraryChangesEvent", (
        ("added", ("list", "string")), ("removed", ("list", "string")), ("changed", ("list", "string")))),
    T.SCAN_PROGRESS_EVENT: ("scanProgressEvent", SCAN_PROGRESS),
}
del T

REQUEST_TYPES = frozenset(t for t in MESSAGES if t not in (
    0x02, 0x03, 0x05, 0x07, 0x09, 0x11, 0x13, 0x19, 0x21, 0x25, 0x2F, 0x31, 0x33, 0x43, 0x47, 0x51, 0x53, 0x57)
    and not t & EVENT_BIT)
MESSAGE_NAMES = {name: t for t, (name, _fields) in MESSAGES.items()}
