"""The connection under Client: one socket, pipelined requests, replies by id, queued events,
and reopening after pickerd's idle close (see ``Client``). Pending is one sent request.
Bytes are read and written by ``wire`` only."""

import socket
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Deque, Dict, Optional, Tuple

from . import wire
from .errors import ConnectionLost, DaemonNotRunning, Malformed, PickerError, UntrustedServer, \
    check_served_by_us, fallback_folder_problem
from .models import Capabilities, Event, decode_event
from .requests import Convert, Fields, decode_reply, default_socket_path
from .wire import ErrorCode, MessageType as T

if TYPE_CHECKING:
    from .client import Subscription

class Pending:
    """A request that was sent and not yet waited for (see ``Client.submit``)."""

    def __init__(self, client: "Connection", request_id: int, request_type: int, convert: Convert,
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


class Connection:
    """The socket and its plumbing under ``Client`` (whose docstring says how idle closes
    and reconnecting behave)."""

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
        self._subscription: Optional["Subscription"] = None
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
