"""A small client for pickerd, the photo-picker daemon.

Standard library only, Python 3.9+. Written from docs/PROTOCOL.md (protocol version 1).

    from pickerd_client import Client

    with Client() as c:                                  # $PICKER_SOCKET, $XDG_RUNTIME_DIR/pickerd.sock, ...
        s = c.create_session("notes", 800, 600, exist_ok=True)
        s.select_album("All Photos")
        s.next()
        print(s.status().message)                        # "1800x1200 px, 347.3 kB, JPEG"
        png = s.get_image()                              # bytes, or None when nothing is selected

One Client is one connection. It is not thread-safe: use one Client per thread (the daemon
serves many connections at once). Events arrive on the same connection as replies: while a
call waits for its reply, events are queued, and ``events()`` yields the queued ones first.
"""

import os
import socket
import stat
import struct
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Deque, Dict, Iterator, List, Optional, Tuple, Union

__all__ = [
    "Client", "Session", "Pending", "Subscription",
    "PickerError", "ConnectionLost", "DaemonNotRunning", "UntrustedServer",
    "Capabilities", "LibraryInfo", "Album", "SessionState", "Photo", "Photos", "PhotoPage",
    "PickedPhoto", "Selection", "Image", "Cell", "Thumbnails",
    "SessionEvent", "LibraryEvent", "default_socket_path", "ERROR_NAMES",
]

PROTOCOL_VERSION = 1
DEFAULT_MAX_REPLY_FRAME = 256 * 1024 * 1024
DEFAULT_MAX_REQUEST_FRAME = 1024 * 1024

# Message types (PROTOCOL.md, "Message types").
HELLO, HELLO_REPLY, ERROR, PING, PONG, LIBRARY_INFO, LIBRARY_INFO_REPLY = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07
SCAN_PROGRESS, SCAN_PROGRESS_REPLY = 0x08, 0x09
SESSION_NEW, SESSION_STATE, SESSION_LIST, SESSION_LIST_REPLY = 0x10, 0x11, 0x12, 0x13
SESSION_SHOW, SESSION_RESIZE, SESSION_CLOSE, SESSION_CLOSED = 0x14, 0x16, 0x18, 0x19
ALBUMS, ALBUMS_REPLY, SELECT_ALBUM, PHOTOS, PHOTOS_REPLY = 0x20, 0x21, 0x22, 0x24, 0x25
SELECT_PHOTO, STEP_PHOTO, STATUS, GET_IMAGE, IMAGE = 0x26, 0x28, 0x2A, 0x30, 0x31
SET_SORT, PHOTOS_PAGE, PHOTOS_PAGE_REPLY = 0x2C, 0x2E, 0x2F
TOGGLE, SELECTION, SELECTION_REPLY, CLEAR_SELECTION = 0x40, 0x42, 0x43, 0x44
THUMBNAILS, THUMBNAILS_REPLY, PREVIEW = 0x46, 0x47, 0x48
SUBSCRIBE, SUBSCRIBED, CANCEL, CANCEL_REPLY = 0x50, 0x51, 0x52, 0x53
SESSION_EVENT, LIBRARY_EVENT, LIBRARY_CHANGES_EVENT, SCAN_PROGRESS_EVENT = 0x80, 0x81, 0x82, 0x83
EVENT_BIT = 0x80

ERROR_NAMES = {
    1: "malformed_frame", 2: "unsupported_version", 3: "frame_too_large",
    4: "unknown_message_type", 5: "handshake_required", 6: "invalid_argument",
    7: "too_busy", 8: "cancelled", 9: "permission_denied", 10: "no_such_session",
    11: "no_such_album", 12: "no_such_photo", 13: "nothing_selected",
    14: "session_exists", 15: "out_of_range", 16: "selection_full", 17: "invalid_name",
    20: "corrupt_image", 21: "unsupported_image", 22: "image_too_large", 23: "io_error",
    99: "internal",
}
MALFORMED_FRAME, UNSUPPORTED_VERSION, FRAME_TOO_LARGE, UNKNOWN_MESSAGE_TYPE = 1, 2, 3, 4
HANDSHAKE_REQUIRED, INVALID_ARGUMENT, TOO_BUSY, CANCELLED, PERMISSION_DENIED = 5, 6, 7, 8, 9
NO_SUCH_SESSION, NO_SUCH_ALBUM, NO_SUCH_PHOTO, NOTHING_SELECTED = 10, 11, 12, 13
SESSION_EXISTS, OUT_OF_RANGE, SELECTION_FULL, INVALID_NAME = 14, 15, 16, 17
CORRUPT_IMAGE, UNSUPPORTED_IMAGE, IMAGE_TOO_LARGE, IO_ERROR, INTERNAL = 20, 21, 22, 23, 99
__all__ += [n.upper() for n in ERROR_NAMES.values()]

FORMATS = {1: "jpeg", 2: "png", 3: "webp"}
FORMAT_CODES = {"jpeg": 1, "jpg": 1, "png": 2, "webp": 3}
SORTS = {0: "name", 1: "date"}
MAX_PAGE_LIMIT = 10000
SESSION_CHANGES = {1: "album", 2: "photo", 3: "selection", 4: "pane_size", 5: "closed", 6: "created"}


# --------------------------------------------------------------------------------------------
# Errors


class PickerError(Exception):
    """An ``error`` reply, or a failure of the connection.

    ``code`` is the protocol's stable number (``PickerError.CANCELLED == 8`` and friends are
    module constants: ``pickerd_client.SELECTION_FULL``), ``name`` its name
    (``"selection_full"``; codes this client does not know are named ``"internal"`` as
    PROTOCOL.md says), ``message`` the server's one-line text, ``request_id`` the id it answered
    (0 for the whole connection).
    """

    def __init__(self, code: int, message: str, request_id: int = 0):
        self.code = code
        self.name = ERROR_NAMES.get(code, "internal")
        self.message = message
        self.request_id = request_id
        super().__init__("%s (%d): %s" % (self.name, code, message))


class ConnectionLost(PickerError):
    """The connection is gone: the server sent an error with id 0 (``code`` is that error's
    code, e.g. 3 ``frame_too_large``), or it closed the socket (``code`` 0, name
    ``"connection_closed"``). The Client cannot be used any more."""

    def __init__(self, code: int, message: str):
        super().__init__(code, message, 0)
        if code == 0:
            self.name = "connection_closed"


class DaemonNotRunning(ConnectionLost):
    """Connecting failed: no daemon listens on the socket (ENOENT, ECONNREFUSED)."""

    def __init__(self, path: str, why: str):
        super().__init__(0, "pickerd is not running on %s (%s)" % (path, why))
        self.name = "daemon_not_running"
        self.path = path


class UntrustedServer(ConnectionLost):
    """Connecting succeeded, but the socket is served by another uid (SO_PEERCRED) or lies in a
    ``/tmp/pickerd-$UID`` folder another user controls. Nothing was sent: whoever listens there
    would get every request and could feed back anything."""

    def __init__(self, path: str, why: str):
        super().__init__(0, "%s; refusing to talk to the socket %s" % (why, path))
        self.name = "untrusted_server"
        self.path = path


def _fallback_folder_problem(path: str) -> Optional[str]:
    """Why a socket in the /tmp fallback folder cannot be trusted, or None (lstat: a real folder,
    ours, mode 0700; a missing folder is left to connect() to report)."""
    folder = "/tmp/pickerd-%d" % os.getuid()
    if not path.startswith(folder + "/"):
        return None
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return None
    if not stat.S_ISDIR(st.st_mode):
        return "%s is not a real folder (a symlink or another kind of file)" % folder
    if st.st_uid != os.getuid():
        return "%s belongs to uid %d, not to you (uid %d)" % (folder, st.st_uid, os.getuid())
    if st.st_mode & 0o077:
        return "%s has mode %o; it must be 700 (no access for group or others)" % (folder, st.st_mode & 0o7777)
    return None


def _check_served_by_us(sock: socket.socket, path: str) -> None:
    """SO_PEERCRED: the server's uid must be ours, before a byte is sent."""
    _pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    if uid != os.getuid():
        raise UntrustedServer(path, "the socket %s is served by uid %d, not by you (uid %d)" % (path, uid, os.getuid()))


class _Malformed(PickerError):
    def __init__(self, message: str, request_id: int = 0):
        super().__init__(1, message, request_id)


# --------------------------------------------------------------------------------------------
# Results


@dataclass
class Capabilities:
    version: int
    server_version: str
    max_request_frame: int
    max_reply_frame: int
    input_formats: List[str]
    output_formats: List[str]


@dataclass
class LibraryInfo:
    root: str
    album_count: int
    photo_count: int
    ready: bool            # scan_state 1; False while the first scan runs
    scanned_at: int        # Unix seconds of the last completed scan, 0 = none yet
    skipped_count: int


@dataclass
class Album:
    index: int
    name: str
    photo_count: int


@dataclass
class SessionState:
    name: str
    title: str
    width: int
    height: Optional[int]          # None: no pane height
    max_selection: int
    selection_count: int
    album: Optional[str]           # None: no album selected
    album_index: Optional[int]
    photo: Optional[str]           # None: no current photo
    photo_index: Optional[int]
    photo_count: int
    message: str                   # "WxH px, SIZE, FORMAT" or ""


@dataclass
class Photo:
    index: int             # 1-based position in the session's order (what select_photo(int) uses)
    name: str
    path: str              # relative to the library root; unique, unlike name in "All Photos"
    width: int             # displayed (upright) size
    height: int
    file_size: int         # bytes on disk ("bytes" in PROTOCOL.md)
    format: str            # "jpeg", "png", "webp" (or "format-N" for an unknown number)
    date: int              # Unix seconds
    date_from_exif: bool   # False: the file's mtime


class _PhotoSequence:
    """List behaviour shared by Photos and Selection: iterate, len, index, names."""

    photos: list

    def __iter__(self):
        return iter(self.photos)

    def __len__(self) -> int:
        return len(self.photos)

    def __getitem__(self, i):
        return self.photos[i]

    @property
    def names(self) -> List[str]:
        return [p.name for p in self.photos]


@dataclass
class Photos(_PhotoSequence):
    album: str
    photos: List[Photo]


@dataclass
class PhotoPage(_PhotoSequence):
    album: str
    sort: str              # "name" or "date": the order of the rows
    total: int             # photos in the whole album
    offset: int            # 0-based position of the first row
    photos: List[Photo]


@dataclass
class PickedPhoto:
    album: str
    name: str
    width: int
    height: int
    path: str              # relative to the library root
    absolute_path: str


@dataclass
class Selection(_PhotoSequence):
    max_selection: int
    photos: List[PickedPhoto]

    @property
    def paths(self) -> List[str]:
        return [p.absolute_path for p in self.photos]


@dataclass
class Image:
    format: str
    width: int
    height: int
    data: bytes = field(repr=False)


@dataclass
class Cell:
    index: int             # 1-based position in the album, in the session's order
    name: str
    x: int
    y: int
    size: int
    picked: bool
    current: bool

    def contains(self, px: int, py: int) -> bool:
        return self.x <= px < self.x + self.size and self.y <= py < self.y + self.size


@dataclass
class Thumbnails:
    width: int
    height: int
    cell_size: int
    spacing: int
    padding: int
    columns: int
    rows: int
    page: int
    pages: int
    cells: List[Cell]
    image: Optional[Image]  # None when only the geometry was asked for

    @property
    def png(self) -> Optional[bytes]:
        return self.image.data if self.image is not None else None

    def hit(self, px: int, py: int) -> Optional[Cell]:
        """The cell under a click at (px, py) on the page image, or None."""
        for c in self.cells:
            if c.contains(px, py):
                return c
        return None


@dataclass
class SessionEvent:
    subscription: int      # id of the subscribe request
    change: str            # "album", "photo", "selection", "pane_size", "closed", "created" or "change-N"
    state: SessionState    # the session's state after the change


@dataclass
class LibraryEvent:
    subscription: int
    info: LibraryInfo


@dataclass
class LibraryChangesEvent:
    """Which photos a rescan added, removed and changed (paths relative to the library root)."""
    subscription: int
    added: List[str]
    removed: List[str]
    changed: List[str]


@dataclass
class ScanProgress:
    """How far a library scan has got (PROTOCOL.md 0x09)."""
    scanning: bool
    files_done: int
    files_expected: int   # 0 = not known yet
    elapsed_ms: int


@dataclass
class ScanProgressEvent:
    subscription: int
    progress: ScanProgress


Event = Union[SessionEvent, LibraryEvent, LibraryChangesEvent, ScanProgressEvent]


def _read_scan_progress(r) -> ScanProgress:
    state = r.u8()
    return ScanProgress(state == 0, r.u32(), r.u32(), r.u32())


# --------------------------------------------------------------------------------------------
# Encoding and decoding


def _u8(v: int) -> bytes:
    return struct.pack(">B", v)


def _u16(v: int) -> bytes:
    return struct.pack(">H", v)


def _u32(v: int) -> bytes:
    return struct.pack(">I", v)


def _string(s: str) -> bytes:
    b = s.encode("utf-8")
    return struct.pack(">I", len(b)) + b


def _selector(v: Union[str, int]) -> bytes:
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise TypeError("a selector is a name (str) or a 1-based index (int), not %r" % (v,))
    if isinstance(v, int):
        if not 1 <= v <= 0xFFFFFFFF:
            raise ValueError("indexes are 1-based: %d" % v)
        return b"\x02" + _u32(v)
    return b"\x01" + _string(v)


def _format_code(fmt: Union[str, int]) -> int:
    if isinstance(fmt, int):
        return fmt
    try:
        return FORMAT_CODES[fmt.lower()]
    except KeyError:
        raise ValueError("unknown image format %r (jpeg, png or webp)" % (fmt,)) from None


def _quality(q: Optional[int]) -> int:
    if q is None:
        return 0
    if not 0 <= q <= 255:
        raise ValueError("quality is 1...100 (None for the format's default)")
    return q


class _Reader:
    def __init__(self, data: bytes, request_id: int = 0):
        self.data = memoryview(data)
        self.pos = 0
        self.request_id = request_id

    def _take(self, n: int) -> memoryview:
        if self.pos + n > len(self.data):
            raise _Malformed("reply ends early", self.request_id)
        v = self.data[self.pos:self.pos + n]
        self.pos += n
        return v

    def u8(self) -> int:
        return self._take(1)[0]

    def u16(self) -> int:
        return struct.unpack(">H", self._take(2))[0]

    def u32(self) -> int:
        return struct.unpack(">I", self._take(4))[0]

    def u64(self) -> int:
        return struct.unpack(">Q", self._take(8))[0]

    def i64(self) -> int:
        return struct.unpack(">q", self._take(8))[0]

    def bool(self) -> bool:
        v = self.u8()
        if v > 1:
            raise _Malformed("bool byte %d" % v, self.request_id)
        return v == 1

    def blob(self) -> bytes:
        return bytes(self._take(self.u32()))

    def string(self) -> str:
        try:
            return str(self._take(self.u32()), "utf-8")
        except UnicodeDecodeError:
            raise _Malformed("string is not UTF-8", self.request_id) from None

    def count(self, min_element_size: int) -> int:
        n = self.u32()
        if n * min_element_size > len(self.data) - self.pos:
            raise _Malformed("list of %d elements cannot fit in the reply" % n, self.request_id)
        return n

    def format(self) -> str:
        v = self.u8()
        return FORMATS.get(v, "format-%d" % v)

    def end(self) -> None:
        if self.pos != len(self.data):
            raise _Malformed("%d unexpected bytes after the reply" % (len(self.data) - self.pos), self.request_id)


def _none_if_zero(v):
    return v if v else None


def _read_session_state(r: _Reader) -> SessionState:
    return SessionState(
        name=r.string(), title=r.string(), width=r.u32(), height=_none_if_zero(r.u32()),
        max_selection=r.u16(), selection_count=r.u16(), album=_none_if_zero(r.string()),
        album_index=_none_if_zero(r.u32()), photo=_none_if_zero(r.string()),
        photo_index=_none_if_zero(r.u32()), photo_count=r.u32(), message=r.string())


def _read_library_info(r: _Reader) -> LibraryInfo:
    root, albums, photos = r.string(), r.u32(), r.u32()
    state = r.u8()
    if state > 1:
        raise _Malformed("scan_state %d" % state, r.request_id)
    return LibraryInfo(root, albums, photos, state == 1, r.i64(), r.u32())


def _read_image(r: _Reader) -> Image:
    return Image(format=r.format(), width=r.u32(), height=r.u32(), data=r.blob())


def _read_selection(r: _Reader) -> Selection:
    limit = r.u16()
    photos = [PickedPhoto(album=r.string(), name=r.string(), width=r.u32(), height=r.u32(),
                          path=r.string(), absolute_path=r.string())
              for _ in range(r.count(24))]
    return Selection(limit, photos)


def _read_photo(r: _Reader) -> Photo:
    p = Photo(index=r.u32(), name=r.string(), path=r.string(), width=r.u32(), height=r.u32(),
              file_size=r.u64(), format=r.format(), date=r.i64(), date_from_exif=False)
    source = r.u8()
    if source > 1:
        raise _Malformed("date_source %d" % source, r.request_id)
    p.date_from_exif = source == 1
    return p


def _read_thumbnails(r: _Reader) -> Thumbnails:
    head = [r.u32() for _ in range(9)]
    cells = []
    for _ in range(r.count(21)):
        index, name, x, y, size, flags = r.u32(), r.string(), r.u32(), r.u32(), r.u32(), r.u8()
        cells.append(Cell(index, name, x, y, size, bool(flags & 1), bool(flags & 2)))
    image = _read_image(r) if r.bool() else None
    return Thumbnails(*head, cells=cells, image=image)


def default_socket_path() -> str:
    """$PICKER_SOCKET, else $XDG_RUNTIME_DIR/pickerd.sock, else /tmp/pickerd-$UID/pickerd.sock
    (empty variables count as unset)."""
    p = os.environ.get("PICKER_SOCKET")
    if p:
        return p
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "pickerd.sock")
    return "/tmp/pickerd-%d/pickerd.sock" % os.getuid()


# --------------------------------------------------------------------------------------------
# The connection


class Pending:
    """A request that was sent and not yet waited for (see ``Client.submit``)."""

    def __init__(self, client: "Client", request_id: int, decode: Callable[[int, _Reader], object],
                 none_on: Tuple[int, ...] = ()):
        self.client = client
        self.id = request_id
        self._decode = decode
        self._none_on = none_on
        self._done = False
        self._value = None
        self._error: Optional[BaseException] = None

    def result(self, timeout: Optional[float] = None):
        """Wait for the reply and return the decoded result (or raise its PickerError)."""
        if not self._done:
            try:
                type_, payload = self.client._wait(self.id, timeout)
                r = _Reader(payload, self.id)
                self._value = self._decode(type_, r)
                r.end()
            except TimeoutError:
                raise
            except ConnectionLost as e:
                self._error = e
            except PickerError as e:
                if e.code not in self._none_on:
                    self._error = e
            self._done = True
        if self._error is not None:
            raise self._error
        return self._value

    def cancel(self) -> bool:
        """Ask the server to cancel this request (see ``Client.cancel``)."""
        return self.client.cancel(self.id)


class Client:
    """One connection to pickerd. ``socket_path=None`` resolves the default path.

    ``timeout`` (seconds, None = wait forever) bounds every wait for a reply; an expired wait
    raises the built-in ``TimeoutError`` and the connection stays usable (the late reply is
    kept until someone waits for that id again, e.g. ``Pending.result()``).
    """

    def __init__(self, socket_path: Optional[str] = None, *, timeout: Optional[float] = None,
                 client_name: str = "pickerd_client.py"):
        self.socket_path = socket_path or default_socket_path()
        self.timeout = timeout
        self._buf = bytearray()
        self._next_id = 1
        self._replies: Dict[int, Tuple[int, bytes]] = {}
        self._events: Deque[Event] = deque()
        self._lost: Optional[ConnectionLost] = None
        self._subscription: Optional[Subscription] = None
        self._sub_id = 0  # id of the last subscribe sent: events with another id are stale
        self._max_reply = DEFAULT_MAX_REPLY_FRAME
        problem = _fallback_folder_problem(self.socket_path)
        if problem:
            raise UntrustedServer(self.socket_path, problem)
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.connect(self.socket_path)
            _check_served_by_us(self._sock, self.socket_path)
        except (FileNotFoundError, ConnectionRefusedError) as e:
            self._sock.close()
            raise DaemonNotRunning(self.socket_path, e.strerror or str(e)) from None
        except BaseException:
            self._sock.close()
            raise
        try:
            self.capabilities: Capabilities = self._call(
                HELLO, _u16(PROTOCOL_VERSION) + _string(client_name), self._decode_hello)
        except BaseException:
            self.close()
            raise
        self._max_reply = self.capabilities.max_reply_frame

    # --- plumbing ---------------------------------------------------------------------------

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._sock is not None:
            try:
                self._sock.close()
            finally:
                self._sock = None
                if self._lost is None:
                    self._lost = ConnectionLost(0, "the client closed the connection")

    @property
    def closed(self) -> bool:
        return self._lost is not None

    def send(self, type_: int, payload: bytes = b"") -> int:
        """Send one request frame and return its id (never 0). Wait with ``wait``."""
        if self._lost is not None:
            raise self._lost
        limit = getattr(self, "capabilities", None)
        limit = limit.max_request_frame if limit is not None else DEFAULT_MAX_REQUEST_FRAME
        if 5 + len(payload) > limit:
            raise PickerError(3, "request of %d bytes exceeds the server's maximum of %d bytes"
                              % (5 + len(payload), limit))
        request_id = self._next_id
        self._next_id = self._next_id + 1 if self._next_id < 0xFFFFFFFF else 1
        self._write_frame(type_, request_id, payload)
        return request_id

    def _write_frame(self, type_: int, request_id: int, payload: bytes) -> None:
        try:
            self._sock.sendall(struct.pack(">IBI", 5 + len(payload), type_, request_id) + payload)
        except OSError as e:
            # The server may have closed after an id-0 error: prefer that error to EPIPE.
            try:
                self._pump(0.2)
            except ConnectionLost:
                pass
            if self._lost is None:
                self._lost = ConnectionLost(0, "cannot send to pickerd: %s" % (e.strerror or e))
            raise self._lost from None

    def wait(self, request_id: int, timeout: Optional[float] = None) -> Tuple[int, bytes]:
        """Wait for the reply to ``request_id``: (type, payload); an ``error`` raises PickerError."""
        return self._wait(request_id, timeout)

    def submit(self, type_: int, payload: bytes, decode: Callable[[int, _Reader], object],
               none_on: Tuple[int, ...] = ()) -> Pending:
        """Send a request; the Pending's ``result()`` decodes its reply with ``decode(type, reader)``
        (and returns None for an error whose code is in ``none_on``)."""
        return Pending(self, self.send(type_, payload), decode, none_on)

    def _call(self, type_: int, payload: bytes, decode: Callable[[int, _Reader], object]):
        return self.submit(type_, payload, decode).result(self.timeout)

    def _wait(self, request_id: int, timeout: Optional[float]) -> Tuple[int, bytes]:
        deadline = None if timeout is None else time.monotonic() + timeout
        while request_id not in self._replies:
            if self._lost is not None:
                raise self._lost
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not self._pump(remaining) and deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError("no reply to request %d within %.1f s" % (request_id, timeout))
        type_, payload = self._replies.pop(request_id)
        if type_ == ERROR:
            r = _Reader(payload, request_id)
            code, message = r.u16(), r.string()
            r.end()
            raise PickerError(code, message, request_id)
        return type_, payload

    def _pump(self, timeout: Optional[float]) -> bool:
        """Read and route one frame. False when ``timeout`` expired first."""
        frame = self._read_frame(timeout)
        if frame is None:
            return False
        type_, request_id, payload = frame
        if type_ & EVENT_BIT:
            try:
                event = self._decode_event(type_, request_id, payload)
            except PickerError:
                event = None  # an unreadable event is skipped; it must not fail an unrelated call
            if event is not None and request_id == self._sub_id:
                self._events.append(event)
        elif request_id == 0 and type_ == ERROR:
            try:
                r = _Reader(payload)
                code, message = r.u16(), r.string()
            except PickerError:
                code, message = 1, "unreadable connection error"
            self._lost = ConnectionLost(code, message)
            self._drop_socket()
            raise self._lost
        else:
            self._replies[request_id] = (type_, payload)
        return True

    def _read_frame(self, timeout: Optional[float]) -> Optional[Tuple[int, int, bytes]]:
        deadline = None if timeout is None else time.monotonic() + timeout
        buf = self._buf
        while True:
            if len(buf) >= 4:
                (length,) = struct.unpack_from(">I", buf)
                if length < 5 or length > self._max_reply:
                    self._lost = ConnectionLost(1, "the server sent a frame of length %d" % length)
                    self._drop_socket()
                    raise self._lost
                if len(buf) >= 4 + length:
                    type_, request_id = struct.unpack_from(">BI", buf, 4)
                    payload = bytes(buf[9:4 + length])
                    del buf[:4 + length]
                    return type_, request_id, payload
                want = 4 + length - len(buf)
            else:
                want = 4 - len(buf)
            if self._sock is None:
                raise self._lost or ConnectionLost(0, "the connection is closed")
            if deadline is None:
                self._sock.settimeout(None)
            else:
                # Past the deadline: one more non-blocking read of what is already there.
                self._sock.settimeout(max(0.0, deadline - time.monotonic()))
            try:
                chunk = self._sock.recv(max(want, 65536) if want < (1 << 24) else (1 << 24))
            except (socket.timeout, BlockingIOError):
                return None
            except OSError as e:
                self._lost = ConnectionLost(0, "reading from pickerd failed: %s" % (e.strerror or e))
                self._drop_socket()
                raise self._lost from None
            if not chunk:
                self._lost = ConnectionLost(0, "pickerd closed the connection")
                self._drop_socket()
                raise self._lost
            buf += chunk

    def _drop_socket(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    # --- decoders -------------------------------------------------------------------------

    @staticmethod
    def _expect(type_: int, want: int, r: _Reader) -> None:
        if type_ != want:
            raise _Malformed("expected reply type 0x%02x, got 0x%02x" % (want, type_), r.request_id)

    def _decode_hello(self, t: int, r: _Reader) -> Capabilities:
        self._expect(t, HELLO_REPLY, r)
        version, server, max_req, max_rep = r.u16(), r.string(), r.u32(), r.u32()
        inputs = [r.u8() for _ in range(r.count(1))]
        outputs = [r.u8() for _ in range(r.count(1))]
        known = lambda codes: [FORMATS[c] for c in codes if c in FORMATS]  # noqa: E731
        return Capabilities(version, server, max_req, max_rep, known(inputs), known(outputs))

    def _state(self, t: int, r: _Reader) -> SessionState:
        self._expect(t, SESSION_STATE, r)
        return _read_session_state(r)

    def _selection(self, t: int, r: _Reader) -> Selection:
        self._expect(t, SELECTION_REPLY, r)
        return _read_selection(r)

    def _image(self, t: int, r: _Reader) -> Image:
        self._expect(t, IMAGE, r)
        return _read_image(r)

    def _decode_event(self, type_: int, request_id: int, payload: bytes) -> Optional[Event]:
        r = _Reader(payload, request_id)
        if type_ == SESSION_EVENT:
            change = r.u8()
            event: Event = SessionEvent(request_id, SESSION_CHANGES.get(change, "change-%d" % change),
                                        _read_session_state(r))
        elif type_ == LIBRARY_EVENT:
            event = LibraryEvent(request_id, _read_library_info(r))
        elif type_ == SCAN_PROGRESS_EVENT:
            event = ScanProgressEvent(request_id, _read_scan_progress(r))
        elif type_ == LIBRARY_CHANGES_EVENT:
            lists = [[r.string() for _ in range(r.count(4))] for _ in range(3)]
            event = LibraryChangesEvent(request_id, *lists)
        else:
            return None  # an event type this client does not know: skipped, as PROTOCOL.md says
        r.end()
        return event

    # --- requests without a session -------------------------------------------------------

    def ping(self) -> str:
        """Round trip; returns the server's version."""
        def dec(t, r):
            self._expect(t, PONG, r)
            return r.string()
        return self._call(PING, b"", dec)

    def library(self) -> LibraryInfo:
        def dec(t, r):
            self._expect(t, LIBRARY_INFO_REPLY, r)
            return _read_library_info(r)
        return self._call(LIBRARY_INFO, b"", dec)

    def scan_progress(self) -> ScanProgress:
        """How far the library scan has got (scanning False when none runs)."""
        def dec(t, r):
            self._expect(t, SCAN_PROGRESS_REPLY, r)
            return _read_scan_progress(r)
        return self._call(SCAN_PROGRESS, b"", dec)

    def albums(self) -> List[Album]:
        def dec(t, r):
            self._expect(t, ALBUMS_REPLY, r)
            return [Album(r.u32(), r.string(), r.u32()) for _ in range(r.count(12))]
        return self._call(ALBUMS, b"", dec)

    def sessions(self) -> List[SessionState]:
        def dec(t, r):
            self._expect(t, SESSION_LIST_REPLY, r)
            return [_read_session_state(r) for _ in range(r.count(44))]
        return self._call(SESSION_LIST, b"", dec)

    def create_session(self, name: str, width: int, height: Optional[int] = None,
                       max_selection: Optional[int] = None, title: Optional[str] = None,
                       *, exist_ok: bool = False) -> "Session":
        """Create a session; returns its handle (``.state`` is the new state).

        With ``exist_ok=True`` an existing session of that name is reused as it is."""
        payload = (_string(name) + _u32(width) + _u32(height or 0) + _u16(max_selection or 0)
                   + _string(title or ""))
        try:
            state = self._call(SESSION_NEW, payload, self._state)
        except PickerError as e:
            if not (exist_ok and e.code == SESSION_EXISTS):
                raise
            state = self._call(SESSION_SHOW, _string(name), self._state)
        return Session(self, name, state)

    def session(self, name: str) -> "Session":
        """A handle on an existing session (no request is sent)."""
        return Session(self, name)

    def cancel(self, request_id: int) -> bool:
        """Cancel one of this connection's in-flight requests by id.

        True if the server found it: the request is then answered ``cancelled`` (code 8) unless
        its reply was already on the way. False if it had already been answered."""
        def dec(t, r):
            self._expect(t, CANCEL_REPLY, r)
            r.u32()
            return r.bool()
        return self._call(CANCEL, _u32(request_id), dec)

    # --- events ---------------------------------------------------------------------------

    def subscribe(self, session: Optional[str] = None, library: bool = False) -> "Subscription":
        """Subscribe this connection to one session's events and/or the library's.

        A connection has at most one subscription: subscribing again replaces it. Events are
        queued on this connection; read them with ``events()``, ``next_event()`` or the
        Subscription's own ``events()``. To follow two sessions, use two Clients."""
        if not session and not library:
            raise ValueError("subscribe to a session, the library, or both (unsubscribe() to stop)")
        name, lib, sub_id = self._subscribe(session or "", library)
        self._subscription = Subscription(self, sub_id, name or None, lib)
        return self._subscription

    def unsubscribe(self) -> None:
        """End this connection's subscription (if any); its queued events are dropped."""
        self._subscribe("", False)
        self._subscription = None
        self._events.clear()

    @property
    def subscription(self) -> Optional["Subscription"]:
        """The connection's current subscription, or None."""
        return self._subscription

    def _subscribe(self, session: str, library: bool) -> Tuple[str, bool, int]:
        sub_id = self.send(SUBSCRIBE, _string(session) + _u8(1 if library else 0))
        self._sub_id = sub_id if (session or library) else 0
        self._events = deque(e for e in self._events if e.subscription == self._sub_id)
        type_, payload = self._wait(sub_id, self.timeout)
        r = _Reader(payload, sub_id)
        self._expect(type_, SUBSCRIBED, r)
        name, flags = r.string(), r.u8()
        r.end()
        return name, bool(flags & 1), sub_id

    def next_event(self, timeout: Optional[float] = None,
                   subscription: Optional[int] = None) -> Optional[Event]:
        """The next event (queued or read from the socket), or None after ``timeout`` seconds.
        With ``subscription`` (an id), only that subscription's events; others stay queued."""
        deadline = None if timeout is None else time.monotonic() + timeout
        seen = 0
        while True:
            for i in range(seen, len(self._events)):
                if subscription is None or self._events[i].subscription == subscription:
                    event = self._events[i]
                    del self._events[i]
                    return event
            seen = len(self._events)
            if self._lost is not None:
                raise self._lost
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not self._pump(remaining) and deadline is not None and time.monotonic() >= deadline:
                return None

    def events(self, session: Optional[str] = None, library: bool = False,
               timeout: Optional[float] = None) -> Iterator[Event]:
        """Iterate over events.

        With ``session`` and/or ``library``: subscribe first, yield only that subscription's
        events, and unsubscribe when the iterator is closed (``break`` out of a ``for`` loop,
        or ``close()`` it). With neither: yield the events of every subscription already made
        on this connection. Ends after ``timeout`` seconds without an event (None: never) or
        when the connection is lost."""
        if session or library:
            return self._iterate(self.subscribe(session, library), timeout, True)
        if self._subscription is None:
            raise ValueError("not subscribed: name a session and/or library=True")
        return self._iterate(None, timeout, False)

    def _iterate(self, sub: Optional["Subscription"], timeout: Optional[float],
                 unsubscribe: bool) -> Iterator[Event]:
        try:
            while True:
                try:
                    event = self.next_event(timeout, sub.id if sub is not None else None)
                except ConnectionLost:
                    return
                if event is None:
                    return
                yield event
        finally:
            if unsubscribe and sub is not None and self._lost is None:
                sub.close()


class Subscription:
    """The connection's subscription; its events carry ``id`` (the subscribe request's id).
    ``close()`` (or leaving a ``with`` block) unsubscribes."""

    def __init__(self, client: Client, request_id: int, session: Optional[str], library: bool):
        self.client = client
        self.id = request_id
        self.session = session
        self.library = library

    def __repr__(self) -> str:
        return "Subscription(id=%d, session=%r, library=%r)" % (self.id, self.session, self.library)

    @property
    def active(self) -> bool:
        return self.client._subscription is self and not self.client.closed

    def events(self, timeout: Optional[float] = None) -> Iterator[Event]:
        """This subscription's events. Ends after ``timeout`` seconds without one (None:
        never) or when the connection is lost. Does not unsubscribe."""
        return self.client._iterate(self, timeout, False)

    def next(self, timeout: Optional[float] = None) -> Optional[Event]:
        """This subscription's next event, or None after ``timeout`` seconds."""
        return self.client.next_event(timeout, self.id)

    def close(self) -> None:
        """Unsubscribe (if this is still the connection's subscription)."""
        if self.active:
            self.client.unsubscribe()

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Session:
    """A session on a Client. Methods send one request each; ``state`` is the latest
    SessionState this handle has seen."""

    def __init__(self, client: Client, name: str, state: Optional[SessionState] = None):
        self.client = client
        self.name = name
        self.state = state

    def __repr__(self) -> str:
        return "Session(%r)" % (self.name,)

    def _n(self) -> bytes:
        return _string(self.name)

    def _state_call(self, type_: int, extra: bytes = b"") -> SessionState:
        self.state = self.client._call(type_, self._n() + extra, self.client._state)
        return self.state

    def status(self) -> SessionState:
        return self._state_call(STATUS)

    def show(self) -> SessionState:
        return self._state_call(SESSION_SHOW)

    def resize(self, width: int, height: Optional[int] = None) -> SessionState:
        return self._state_call(SESSION_RESIZE, _u32(width) + _u32(height or 0))

    def close(self) -> None:
        """Close (delete) the session on the server."""
        def dec(t, r):
            self.client._expect(t, SESSION_CLOSED, r)
            return r.string()
        self.client._call(SESSION_CLOSE, self._n(), dec)

    def select_album(self, album: Union[str, int]) -> SessionState:
        """By name (str) or 1-based index (int) from ``Client.albums()``. Clears the current photo."""
        return self._state_call(SELECT_ALBUM, _selector(album))

    def photos(self, sort: str = "name") -> Photos:
        """The whole selected album in one reply, in the session's order. ``sort="date"`` first
        sets the session's order to date; ``"name"`` (wire 0) lists in the session's order, which
        is name order unless it was set to date. For big albums use ``photos_page``/``iter_photos``."""
        if sort not in ("name", "date"):
            raise ValueError('sort is "name" or "date"')

        def dec(t, r):
            self.client._expect(t, PHOTOS_REPLY, r)
            album = r.string()
            return Photos(album, [_read_photo(r) for _ in range(r.count(38))])
        return self.client._call(PHOTOS, self._n() + _u8(0 if sort == "name" else 1), dec)

    def sort(self, order: str) -> SessionState:
        """Set the session's photo order, ``"name"`` or ``"date"`` (newest first, undated last);
        listings, indexes, next/prev and the grid follow it (PROTOCOL.md, "Photo order")."""
        if order not in ("name", "date"):
            raise ValueError('order is "name" or "date"')
        return self._state_call(SET_SORT, _u8(0 if order == "name" else 1))

    def photos_page(self, offset: int = 0, limit: int = 1000) -> PhotoPage:
        """One page of the selected album in the session's order, with the album's total.
        An offset past the end raises PickerError 12 (no_such_photo)."""
        def dec(t, r):
            self.client._expect(t, PHOTOS_PAGE_REPLY, r)
            album = r.string()
            code = r.u8()
            if code not in SORTS:
                raise _Malformed("sort %d" % code, r.request_id)
            total, first = r.u32(), r.u32()
            return PhotoPage(album, SORTS[code], total, first, [_read_photo(r) for _ in range(r.count(38))])
        return self.client._call(PHOTOS_PAGE, self._n() + _u32(offset) + _u32(limit), dec)

    def iter_photos(self, page_size: int = 1000) -> Iterator[Photo]:
        """Every photo of the selected album, fetched page by page (memory stays flat)."""
        offset = 0
        while True:
            page = self.photos_page(offset, page_size)
            yield from page.photos
            offset += len(page.photos)
            if not page.photos or offset >= page.total:
                return

    def select_photo(self, photo: Union[str, int]) -> SessionState:
        """By file name / relative path (str) or 1-based index in the session's order (int)."""
        return self._state_call(SELECT_PHOTO, _selector(photo))

    def next(self) -> SessionState:
        return self._state_call(STEP_PHOTO, b"\x00")

    def prev(self) -> SessionState:
        return self._state_call(STEP_PHOTO, b"\x01")

    def toggle(self, photo: Union[str, int]) -> Selection:
        """Pick a photo of the selected album, or unpick it. Raises PickerError 16
        (selection_full) when the pick list is at its limit."""
        return self.client._call(TOGGLE, self._n() + _selector(photo), self.client._selection)

    def selection(self) -> Selection:
        return self.client._call(SELECTION, self._n(), self.client._selection)

    def clear_selection(self) -> Selection:
        return self.client._call(CLEAR_SELECTION, self._n(), self.client._selection)

    def _image_payload(self, format, quality, no_cache) -> bytes:
        return self._n() + _u8(_format_code(format)) + _u8(_quality(quality)) + _u8(1 if no_cache else 0)

    def image(self, format: Union[str, int] = "png", quality: Optional[int] = None,
              no_cache: bool = False) -> Optional[Image]:
        """The current photo scaled to fit the pane, as an Image; None when nothing is selected."""
        pending = self.client.submit(GET_IMAGE, self._image_payload(format, quality, no_cache),
                                     self.client._image, none_on=(NOTHING_SELECTED,))
        return pending.result(self.client.timeout)

    def get_image(self, format: Union[str, int] = "png", quality: Optional[int] = None,
                  no_cache: bool = False, *, wait: bool = True):
        """The current photo's encoded bytes, or None when nothing is selected (the design's nil).

        With ``wait=False`` the request is only sent: a Pending is returned, whose ``result()``
        gives the bytes (or None) and whose ``cancel()`` cancels it."""
        pending = self.client.submit(GET_IMAGE, self._image_payload(format, quality, no_cache),
                                     self._image_bytes, none_on=(NOTHING_SELECTED,))
        return pending.result(self.client.timeout) if wait else pending

    def _image_bytes(self, t: int, r: _Reader) -> Optional[bytes]:
        return self.client._image(t, r).data

    def thumbnails(self, size: int = 100, page: int = 1) -> Thumbnails:
        """One page of the album as a grid: geometry plus the PNG (``.png``)."""
        return self._thumbnails(size, page, 0)

    def thumbnail_geometry(self, size: int = 100, page: int = 1) -> Thumbnails:
        """Like ``thumbnails`` without drawing the image (``.image`` is None)."""
        return self._thumbnails(size, page, 1)

    def _thumbnails(self, size: int, page: int, flags: int) -> Thumbnails:
        def dec(t, r):
            self.client._expect(t, THUMBNAILS_REPLY, r)
            return _read_thumbnails(r)
        return self.client._call(THUMBNAILS, self._n() + _u32(size) + _u32(page) + _u8(flags), dec)

    def preview(self, width: int = 1920, height: int = 1080, format: Union[str, int] = "jpeg",
                quality: Optional[int] = None) -> Image:
        """The current photo scaled to fit width x height (upscaling allowed), centred on black."""
        payload = self._n() + _u32(width) + _u32(height) + _u8(_format_code(format)) + _u8(_quality(quality))
        return self.client._call(PREVIEW, payload, self.client._image)

    def events(self, library: bool = False, timeout: Optional[float] = None) -> Iterator[Event]:
        """Subscribe to this session's events (and the library's with ``library=True``) and
        iterate over them; closing the iterator unsubscribes (see ``Client.events``)."""
        return self.client.events(session=self.name, library=library, timeout=timeout)

    def subscribe(self, library: bool = False) -> Subscription:
        return self.client.subscribe(session=self.name, library=library)
