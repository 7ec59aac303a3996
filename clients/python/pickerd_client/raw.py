"""A bare connection for load tools and protocol tests (scripts/soak, scripts/bench): the
handshake done, requests given by their PROTOCOL.md fields, replies returned as Frames, events
skipped, and the socket exposed for partial writes and slow reads. Applications want Client."""

import socket
from typing import Any, Optional

from . import wire
from .errors import ConnectionLost, PickerError
from .wire import Frame, MessageType as T


class RawConnection:
    def __init__(self, path: str, name: str = "pickerd_client.raw", timeout: Optional[float] = 30.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.framer = wire.Framer(wire.MAX_REPLY_FRAME)
        self.next_id = 1
        try:
            self.sock.connect(path)
            self.call(T.HELLO, version=wire.PROTOCOL_VERSION, client_name=name)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def new_id(self) -> int:
        i = self.next_id
        self.next_id += 1
        return i

    def frame(self, type_: int, request_id: Optional[int] = None, **fields: Any) -> bytes:
        """The encoded request (a fresh id unless one is given), not sent."""
        return wire.encode_frame(type_, self.new_id() if request_id is None else request_id, fields)

    def recv(self) -> Frame:
        """The next frame, event or reply, as it comes; EOFError when the daemon closed."""
        while True:
            f = self.framer.next()
            if f is not None:
                return f
            chunk = self.sock.recv(max(65536, min(self.framer.wanted(), 1 << 20)))
            if not chunk:
                # EOFError, not ConnectionLost: load tools tell "the daemon hung up" apart
                # from the daemon's own errors (PickerError).
                raise EOFError("pickerd closed the connection")
            self.framer.feed(chunk)

    def call(self, type_: int, **fields: Any) -> Frame:
        """Send a request and return its reply frame (``.fields()`` decodes it); events and
        other ids are skipped; an ``error`` reply (or one with id 0) raises PickerError."""
        request_id = self.new_id()
        self.sock.sendall(wire.encode_frame(type_, request_id, fields))
        while True:
            f = self.recv()
            if f.is_event or f.id not in (request_id, 0):
                continue
            if f.type == T.ERROR:
                e = f.fields()
                raise (ConnectionLost if f.id == 0 else PickerError)(e["code"], e["message"])
            return f
