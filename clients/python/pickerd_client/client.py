"""The connection: Client (one socket, pipelined requests, queued events), Pending,
Subscription and Session. Bytes are read and written by ``wire`` only."""

import os
import socket
import time
from collections import deque
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional, Tuple, Union

from . import wire
from .errors import (ConnectionLost, DaemonNotRunning, Malformed, PickerError, UntrustedServer,
                     check_served_by_us, fallback_folder_problem)
from .models import (Album, Capabilities, Event, Image, LibraryInfo, Photos, Photo, PhotoPage, ScanProgress,
                     Selection, SessionState, Thumbnails, decode_event)
from .wire import ErrorCode, MessageType as T

Fields = Dict[str, Any]
Convert = Callable[[Fields], Any]

# The reply each request is answered by (besides ``error``).
REPLY_TYPES = {
    T.HELLO: T.HELLO_REPLY, T.PING: T.PONG, T.LIBRARY_INFO: T.LIBRARY_INFO_REPLY,
    T.SCAN_PROGRESS: T.SCAN_PROGRESS_REPLY, T.SESSION_NEW: T.SESSION_STATE,
    T.SESSION_LIST: T.SESSION_LIST_REPLY, T.SESSION_SHOW: T.SESSION_STATE,
    T.SESSION_RESIZE: T.SESSION_STATE, T.SESSION_CLOSE: T.SESSION_CLOSED, T.ALBUMS: T.ALBUMS_REPLY,
    T.SELECT_ALBUM: T.SESSION_STATE, T.PHOTOS: T.PHOTOS_REPLY, T.SELECT_PHOTO: T.SESSION_STATE,
    T.STEP_PHOTO: T.SESSION_STATE, T.STATUS: T.SESSION_STATE, T.SET_SORT: T.SESSION_STATE,
    T.PHOTOS_PAGE: T.PHOTOS_PAGE_REPLY, T.GET_IMAGE: T.IMAGE, T.TOGGLE: T.SELECTION_REPLY,
    T.SELECTION: T.SELECTION_REPLY, T.CLEAR_SELECTION: T.SELECTION_REPLY,
    T.THUMBNAILS: T.THUMBNAILS_REPLY, T.PREVIEW: T.IMAGE, T.SUBSCRIBE: T.SUBSCRIBED,
    T.CANCEL: T.CANCEL_REPLY,
}


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


def format_code(fmt: Union[str, int]) -> int:
    if isinstance(fmt, int):
        return fmt
    try:
        return wire.FORMAT_CODES[fmt.lower()]
    except KeyError:
        raise ValueError("unknown image format %r (jpeg, png or webp; sixel or symbols for a terminal)"
                         % (fmt,)) from None


def quality_byte(q: Optional[int]) -> int:
    if q is None:
        return 0
    if not 0 <= q <= 255:
        raise ValueError("quality is 1...100 (None for the format's default)")
    return q


def cells_fields(cells: Optional[Tuple[int, int]]) -> Optional[Dict[str, int]]:
    """``(cols, rows)`` of a terminal as getImage/preview's cells, or None for none. Each side
    is 1...1000 (the daemon answers out_of_range otherwise); only the u16 is checked here."""
    if cells is None:
        return None
    try:
        cols, rows = cells
    except (TypeError, ValueError):
        raise TypeError("cells is a (cols, rows) pair, not %r" % (cells,)) from None
    for v in (cols, rows):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError("cells is a (cols, rows) pair of ints, not %r" % (cells,))
        if not 0 <= v <= 0xFFFF:
            raise ValueError("terminal cells are 1...%d each: %r" % (wire.MAX_CELLS, cells))
    return {"cols": cols, "rows": rows}


def check_selector(v: Union[str, int]) -> Union[str, int]:
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise TypeError("a selector is a name (str) or a 1-based index (int), not %r" % (v,))
    if isinstance(v, int) and not 1 <= v <= 0xFFFFFFFF:
        raise ValueError("indexes are 1-based: %d" % v)
    return v


def decode_reply(request_type: int, reply_type: int, payload: bytes, request_id: int) -> Fields:
    """The fields of a reply, after checking it is the type ``request_type`` is answered by."""
    want = REPLY_TYPES.get(request_type)
    if want is not None and reply_type != want:
        raise Malformed("expected reply type 0x%02x, got 0x%02x" % (want, reply_type), request_id)
    try:
        return wire.decode_payload(reply_type, payload)
    except wire.WireError as e:
        raise Malformed(e.message, request_id) from None


class Pending:
    """A request that was sent and not yet waited for (see ``Client.submit``)."""

    def __init__(self, client: "Client", request_id: int, request_type: int, convert: Convert,
                 none_on: Tuple[int, ...] = (), payload: Optional[bytes] = None):
        self.client = client
        self.id = request_id
        self._payload = payload
        self._request_type = request_type
        self._convert = convert
        self._none_on = none_on
        self._done = False
        self._value: Any = None
        self._error: Optional[BaseException] = None

    def result(self, timeout: Optional[float] = None) -> Any:
        """Wait for the reply and return the converted result (or raise its PickerError)."""
        if not self._done:
            try:
                type_, payload = self._wait_resending(timeout)
                self._value = self._convert(decode_reply(self._request_type, type_, payload, self.id))
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

    def _wait_resending(self, timeout: Optional[float]) -> Tuple[int, bytes]:
        """The reply; sent again once, on a new connection, when pickerd closed the idle
        connection just as this request went out (it was never read: see ``Client``)."""
        try:
            return self.client._wait(self.id, timeout)
        except ConnectionLost:
            if self._payload is None or not self.client._may_resend(self.id):
                raise
            self.id = self.client.send(self._request_type, self._payload)
            return self.client._wait(self.id, timeout)

    def cancel(self) -> bool:
        """Ask the server to cancel this request (see ``Client.cancel``)."""
        return self.client.cancel(self.id)


class Client:
    """One connection to pickerd. ``socket_path=None`` resolves the default path.

    ``timeout`` (seconds, None = wait forever) bounds every wait for a reply; an expired wait
    raises the built-in ``TimeoutError`` and the connection stays usable (the late reply is
    kept until someone waits for that id again, e.g. ``Pending.result()``).

    pickerd closes a connection that sat idle — no subscription, nothing unanswered — for
    ``pickerd --idle-timeout`` seconds (60 by default), quietly. With ``reconnect=True`` (the
    default) the next request connects again and says hello first, transparently: sessions live
    in the daemon, so nothing is lost; a request that went out just as the daemon closed (it was
    never read) is sent once more on the new connection. A connection with a subscription is
    never closed for being idle, and is never reopened: losing it raises ``ConnectionLost``.
    With ``reconnect=False`` a request after an idle close raises ``ConnectionLost`` saying so.
    """

    def __init__(self, socket_path: Optional[str] = None, *, timeout: Optional[float] = None,
                 client_name: str = "pickerd_client.py", reconnect: bool = True):
        self.socket_path = socket_path or default_socket_path()
        self.timeout = timeout
        self.reconnect = reconnect
        self.reconnects = 0  # how many times an idle-closed connection was opened again
        self._client_name = client_name
        self._next_id = 1
        self._replies: Dict[int, Tuple[int, bytes]] = {}
        self._events: Deque[Event] = deque()
        self._subscription: Optional[Subscription] = None
        self._sub_id = 0  # id of the last subscribe sent: events with another id are stale
        problem = fallback_folder_problem(self.socket_path)
        if problem:
            raise UntrustedServer(self.socket_path, problem)
        self._open()

    def _open(self) -> None:
        """Connects, checks the server's uid and says hello (again after an idle close)."""
        self._framer = wire.Framer(wire.MAX_REPLY_FRAME)
        self._lost: Optional[ConnectionLost] = None
        self._idle_closed = False     # the daemon closed it while nothing was outstanding
        self._outstanding: set = set()  # ids sent whose reply has not been read
        self._idle_send = 0           # a request sent on an idle connection, until a frame is read
        self._sock: Optional[socket.socket] = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.connect(self.socket_path)
            check_served_by_us(self._sock, self.socket_path)
        except (FileNotFoundError, ConnectionRefusedError) as e:
            self._sock.close()
            raise DaemonNotRunning(self.socket_path, e.strerror or str(e)) from None
        except BaseException:
            self._sock.close()
            raise
        try:
            self.capabilities: Capabilities = self._call(
                T.HELLO, {"version": wire.PROTOCOL_VERSION, "client_name": self._client_name},
                Capabilities.from_fields)
        except BaseException:
            self.close()
            raise
        self._framer.max_length = self.capabilities.max_reply_frame

    def _is_idle(self) -> bool:
        """Idle as pickerd counts it: no subscription, no reply still to read."""
        return self._subscription is None and not self._outstanding

    def _reopen_if_idle_closed(self) -> None:
        """Before a request on an idle connection: reads what is already there (a quiet close
        shows as end of file) and, when pickerd closed it for being idle, connects again."""
        if self._lost is None and self._sock is not None and self._is_idle():
            try:
                while self._pump(0.0):
                    pass
            except ConnectionLost:
                pass
        if self._lost is not None and self._idle_closed:
            if not self.reconnect:
                raise ConnectionLost(0, "pickerd closed this connection after it was idle (pickerd --idle-timeout); "
                                        "make a new Client, or pass reconnect=True")
            self._drop_socket()
            self._open()
            self.reconnects += 1

    def _may_resend(self, request_id: int) -> bool:
        """Whether ``request_id`` was lost unread in an idle close (then it is sent again)."""
        return self.reconnect and self._idle_closed and self._lost is not None and request_id == self._idle_send

    # --- plumbing ---------------------------------------------------------------------------

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._idle_closed = False  # closed by us: never opened again
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
        """Send one request frame with an encoded payload and return its id (never 0)."""
        if type_ != T.HELLO:
            self._reopen_if_idle_closed()
        if self._lost is not None:
            raise self._lost
        caps = getattr(self, "capabilities", None)
        limit = caps.max_request_frame if caps is not None else wire.MAX_REQUEST_FRAME
        if wire.MIN_LENGTH + len(payload) > limit:
            raise PickerError(ErrorCode.FRAME_TOO_LARGE, "request of %d bytes exceeds the server's maximum of %d bytes"
                              % (wire.MIN_LENGTH + len(payload), limit))
        request_id = self._next_id
        self._next_id = self._next_id + 1 if self._next_id < 0xFFFFFFFF else 1
        if type_ != T.HELLO and self._is_idle():
            self._idle_send = request_id
        self._outstanding.add(request_id)
        try:
            self._write_frame(type_, request_id, payload)
        except ConnectionLost:
            if not self._may_resend(request_id):
                raise
            self._reopen_if_idle_closed()  # never written: write it on a new connection
            self._outstanding.add(request_id)
            self._write_frame(type_, request_id, payload)
        return request_id

    def request(self, type_: int, fields: Optional[Fields] = None, **kw: Any) -> Fields:
        """Send one request given by its PROTOCOL.md fields and return its reply's fields
        (a dict). The escape hatch for anything the typed methods do not cover."""
        return self.submit(type_, wire.encode_payload(type_, fields, **kw), lambda f: f).result(self.timeout)

    def _write_frame(self, type_: int, request_id: int, payload: bytes) -> None:
        try:
            assert self._sock is not None
            self._sock.sendall(wire.frame(type_, request_id, payload))
        except OSError as e:
            # The server may have closed after an id-0 error: prefer that error to EPIPE.
            try:
                self._pump(0.2)
            except ConnectionLost:
                pass
            if self._lost is None:
                self._mark_lost(ConnectionLost(0, "cannot send to pickerd: %s" % (e.strerror or e)))
            raise self._lost from None

    def wait(self, request_id: int, timeout: Optional[float] = None) -> Tuple[int, bytes]:
        """Wait for the reply to ``request_id``: (type, payload); an ``error`` raises PickerError."""
        return self._wait(request_id, timeout)

    def submit(self, type_: int, payload: bytes, convert: Convert, none_on: Tuple[int, ...] = ()) -> Pending:
        """Send a request; the Pending's ``result()`` decodes its reply and returns
        ``convert(fields)`` (or None for an error whose code is in ``none_on``)."""
        return Pending(self, self.send(type_, payload), type_, convert, none_on, payload)

    def _call(self, type_: int, fields: Fields, convert: Convert) -> Any:
        return self.submit(type_, wire.encode_payload(type_, fields), convert).result(self.timeout)

    def _wait(self, request_id: int, timeout: Optional[float]) -> Tuple[int, bytes]:
        deadline = None if timeout is None else time.monotonic() + timeout
        while request_id not in self._replies:
            if self._lost is not None:
                raise self._lost
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not self._pump(remaining) and deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError("no reply to request %d within %.1f s" % (request_id, timeout))
        type_, payload = self._replies.pop(request_id)
        if type_ == T.ERROR:
            f = self._error_fields(payload, request_id)
            raise PickerError(f["code"], f["message"], request_id)
        return type_, payload

    @staticmethod
    def _error_fields(payload: bytes, request_id: int) -> Fields:
        try:
            return wire.decode_payload(T.ERROR, payload)
        except wire.WireError as e:
            raise Malformed(e.message, request_id) from None

    def _pump(self, timeout: Optional[float]) -> bool:
        """Read and route one frame. False when ``timeout`` expired first."""
        frame = self._read_frame(timeout)
        if frame is None:
            return False
        if frame.is_event:
            try:
                event: Optional[Event] = decode_event(frame)
            except PickerError:
                event = None  # an unreadable event is skipped; it must not fail an unrelated call
            if event is not None and frame.id == self._sub_id:
                self._events.append(event)
        elif frame.id == 0 and frame.type == T.ERROR:
            try:
                f = self._error_fields(frame.payload, 0)
                code, message = f["code"], f["message"]
            except PickerError:
                code, message = ErrorCode.MALFORMED_FRAME, "unreadable connection error"
            self._lose(ConnectionLost(code, message))
        else:
            self._replies[frame.id] = (frame.type, frame.payload)
            self._outstanding.discard(frame.id)
        self._idle_send = 0  # the daemon answered after it: the request was read
        return True

    def _lose(self, error: ConnectionLost) -> None:
        self._mark_lost(error)
        self._drop_socket()
        raise error

    def _mark_lost(self, error: ConnectionLost) -> None:
        # A quiet close (no error frame) of an idle connection, or of one whose only request went
        # out on an idle connection with nothing read since: pickerd's idle timeout.
        quiet = error.code == 0 and self._subscription is None
        self._idle_closed = quiet and (not self._outstanding or self._outstanding == {self._idle_send})
        self._lost = error

    def _read_frame(self, timeout: Optional[float]) -> Optional[wire.Frame]:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                frame = self._framer.next()
            except wire.WireError as e:
                self._lose(ConnectionLost(ErrorCode.MALFORMED_FRAME, "the server sent a bad frame: %s" % e.message))
            if frame is not None:
                return frame
            if self._sock is None:
                raise self._lost or ConnectionLost(0, "the connection is closed")
            if deadline is None:
                self._sock.settimeout(None)
            else:
                # Past the deadline: one more non-blocking read of what is already there.
                self._sock.settimeout(max(0.0, deadline - time.monotonic()))
            want = self._framer.wanted()
            try:
                chunk = self._sock.recv(max(want, 65536) if want < (1 << 24) else (1 << 24))
            except (socket.timeout, BlockingIOError):
                return None
            except OSError as e:
                self._lose(ConnectionLost(0, "reading from pickerd failed: %s" % (e.strerror or e)))
            if not chunk:
                self._lose(ConnectionLost(0, "pickerd closed the connection"))
            self._framer.feed(chunk)

    def _drop_socket(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    # --- requests without a session -------------------------------------------------------

    def ping(self) -> str:
        """Round trip; returns the server's version."""
        return self._call(T.PING, {}, lambda f: f["server_version"])

    def library(self) -> LibraryInfo:
        return self._call(T.LIBRARY_INFO, {}, LibraryInfo.from_fields)

    def scan_progress(self) -> ScanProgress:
        """How far the library scan has got (scanning False when none runs)."""
        return self._call(T.SCAN_PROGRESS, {}, ScanProgress.from_fields)

    def albums(self) -> List[Album]:
        return self._call(T.ALBUMS, {}, lambda f: [Album(**a) for a in f["albums"]])

    def sessions(self) -> List[SessionState]:
        return self._call(T.SESSION_LIST, {}, lambda f: [SessionState.from_fields(s) for s in f["sessions"]])

    def create_session(self, name: str, width: int, height: Optional[int] = None,
                       max_selection: Optional[int] = None, title: Optional[str] = None,
                       *, exist_ok: bool = False) -> "Session":
        """Create a session; returns its handle (``.state`` is the new state).

        With ``exist_ok=True`` an existing session of that name is reused as it is."""
        fields = {"name": name, "width": width, "height": height or 0, "max_selection": max_selection or 0,
                  "title": title or ""}
        try:
            state = self._call(T.SESSION_NEW, fields, SessionState.from_fields)
        except PickerError as e:
            if not (exist_ok and e.code == ErrorCode.SESSION_EXISTS):
                raise
            state = self._call(T.SESSION_SHOW, {"session": name}, SessionState.from_fields)
        return Session(self, name, state)

    def session(self, name: str) -> "Session":
        """A handle on an existing session (no request is sent)."""
        return Session(self, name)

    def cancel(self, request_id: int) -> bool:
        """Cancel one of this connection's in-flight requests by id.

        True if the server found it: the request is then answered ``cancelled`` (code 8) unless
        its reply was already on the way. False if it had already been answered."""
        return self._call(T.CANCEL, {"request_id": request_id}, lambda f: f["found"])

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
        sub_id = self.send(T.SUBSCRIBE, wire.encode_payload(T.SUBSCRIBE, session=session, flags=1 if library else 0))
        self._sub_id = sub_id if (session or library) else 0
        self._events = deque(e for e in self._events if e.subscription == self._sub_id)
        type_, payload = self._wait(sub_id, self.timeout)
        f = decode_reply(T.SUBSCRIBE, type_, payload, sub_id)
        return f["session"], bool(f["flags"] & 1), sub_id

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

    def _call(self, type_: int, convert: Convert, **fields: Any) -> Any:
        return self.client._call(type_, dict(fields, session=self.name), convert)

    def _state_call(self, type_: int, **fields: Any) -> SessionState:
        self.state = self._call(type_, SessionState.from_fields, **fields)
        return self.state

    def status(self) -> SessionState:
        return self._state_call(T.STATUS)

    def photo_info(self, photo: Union[str, int, None] = None) -> Dict[str, Any]:
        """One photo's details (``photoInfo``): the current photo, or one named or 1-based
        indexed in the selected album. A dict keyed as PROTOCOL.md's ``photoInfoReply`` fields
        (``camera_make``, ``exposure_time`` as ``{numerator, denominator}``, ``gps`` True/False...)."""
        return self._call(T.PHOTO_INFO, lambda f: f, photo=photo)

    def show(self) -> SessionState:
        return self._state_call(T.SESSION_SHOW)

    def resize(self, width: int, height: Optional[int] = None) -> SessionState:
        return self._state_call(T.SESSION_RESIZE, width=width, height=height or 0)

    def close(self) -> None:
        """Close (delete) the session on the server."""
        self._call(T.SESSION_CLOSE, lambda f: f["session"])

    def select_album(self, album: Union[str, int]) -> SessionState:
        """By name (str) or 1-based index (int) from ``Client.albums()``. Clears the current photo."""
        return self._state_call(T.SELECT_ALBUM, album=check_selector(album))

    def photos(self, sort: str = "name") -> Photos:
        """The whole selected album in one reply, in the session's order. ``sort="date"`` first
        sets the session's order to date; ``"name"`` (wire 0) lists in the session's order, which
        is name order unless it was set to date. For big albums use ``photos_page``/``iter_photos``."""
        if sort not in ("name", "date"):
            raise ValueError('sort is "name" or "date"')
        return self._call(T.PHOTOS, lambda f: Photos(f["album"], [Photo.from_fields(p) for p in f["photos"]]),
                          sort=0 if sort == "name" else 1)

    def sort(self, order: str) -> SessionState:
        """Set the session's photo order, ``"name"`` or ``"date"`` (newest first, undated last);
        listings, indexes, next/prev and the grid follow it (PROTOCOL.md, "Photo order")."""
        if order not in ("name", "date"):
            raise ValueError('order is "name" or "date"')
        return self._state_call(T.SET_SORT, sort=0 if order == "name" else 1)

    def photos_page(self, offset: int = 0, limit: int = 1000, mark_broken: bool = False) -> PhotoPage:
        """One page of the selected album in the session's order, with the album's total.
        ``mark_broken``: each photo known not to decode gets ``broken`` (the reason); a daemon
        from before broken marks answers that with PickerError 1 (malformed_frame).
        An offset past the end raises PickerError 12 (no_such_photo)."""
        return self._call(T.PHOTOS_PAGE, PhotoPage.from_fields, offset=offset, limit=limit,
                          flags=1 if mark_broken else 0)

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
        return self._state_call(T.SELECT_PHOTO, photo=check_selector(photo))

    def next(self) -> SessionState:
        return self._state_call(T.STEP_PHOTO, direction=0)

    def prev(self) -> SessionState:
        return self._state_call(T.STEP_PHOTO, direction=1)

    def toggle(self, photo: Union[str, int]) -> Selection:
        """Pick a photo of the selected album, or unpick it. Raises PickerError 16
        (selection_full) when the pick list is at its limit."""
        return self._call(T.TOGGLE, Selection.from_fields, photo=check_selector(photo))

    def selection(self) -> Selection:
        return self._call(T.SELECTION, Selection.from_fields)

    def clear_selection(self) -> Selection:
        return self._call(T.CLEAR_SELECTION, Selection.from_fields)

    def _image_request(self, format: Union[str, int], quality: Optional[int], no_cache: bool,
                       cells: Optional[Tuple[int, int]], convert: Convert) -> Pending:
        cf = cells_fields(cells)
        payload = wire.encode_payload(T.GET_IMAGE, session=self.name, format=format_code(format),
                                      quality=quality_byte(quality),
                                      flags=(1 if no_cache else 0) | (2 if cf else 0), cells=cf)
        return self.client.submit(T.GET_IMAGE, payload, convert, none_on=(ErrorCode.NOTHING_SELECTED,))

    def image(self, format: Union[str, int] = "png", quality: Optional[int] = None,
              no_cache: bool = False, *, cells: Optional[Tuple[int, int]] = None) -> Optional[Image]:
        """The current photo scaled to fit the pane, as an Image; None when nothing is selected.
        ``cells=(cols, rows)``: the terminal to draw in, required by ``format="symbols"``
        (whose Image has cols x rows as width x height and UTF-8 text as data)."""
        return self._image_request(format, quality, no_cache, cells, Image.from_fields).result(self.client.timeout)

    def get_image(self, format: Union[str, int] = "png", quality: Optional[int] = None,
                  no_cache: bool = False, *, cells: Optional[Tuple[int, int]] = None, wait: bool = True) -> Any:
        """The current photo's encoded bytes, or None when nothing is selected (the design's nil).
        For ``"sixel"`` and ``"symbols"`` the bytes are UTF-8 terminal text; symbols needs
        ``cells=(cols, rows)``.

        With ``wait=False`` the request is only sent: a Pending is returned, whose ``result()``
        gives the bytes (or None) and whose ``cancel()`` cancels it."""
        pending = self._image_request(format, quality, no_cache, cells, lambda f: f["data"])
        return pending.result(self.client.timeout) if wait else pending

    def thumbnails(self, size: int = 100, page: int = 1) -> Thumbnails:
        """One page of the album as a grid: geometry plus the PNG (``.png``)."""
        return self._call(T.THUMBNAILS, Thumbnails.from_fields, cell_size=size, page=page, flags=0)

    def thumbnail_geometry(self, size: int = 100, page: int = 1) -> Thumbnails:
        """Like ``thumbnails`` without drawing the image (``.image`` is None)."""
        return self._call(T.THUMBNAILS, Thumbnails.from_fields, cell_size=size, page=page, flags=1)

    def preview(self, width: int = 1920, height: int = 1080, format: Union[str, int] = "jpeg",
                quality: Optional[int] = None, *, cells: Optional[Tuple[int, int]] = None) -> Image:
        """The current photo scaled to fit width x height (upscaling allowed), centred on black.
        ``cells=(cols, rows)`` (required by ``format="symbols"``) fits that canvas into a terminal;
        the flags byte is sent only with cells, so other previews are the older frame."""
        cf = cells_fields(cells)
        return self._call(T.PREVIEW, Image.from_fields, width=width, height=height, format=format_code(format),
                          quality=quality_byte(quality), flags=2 if cf else 0, cells=cf)

    def events(self, library: bool = False, timeout: Optional[float] = None) -> Iterator[Event]:
        """Subscribe to this session's events (and the library's with ``library=True``) and
        iterate over them; closing the iterator unsubscribes (see ``Client.events``)."""
        return self.client.events(session=self.name, library=library, timeout=timeout)

    def subscribe(self, library: bool = False) -> Subscription:
        return self.client.subscribe(session=self.name, library=library)
