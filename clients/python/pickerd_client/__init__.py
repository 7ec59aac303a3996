"""A client for pickerd, the photo-picker daemon. Standard library only, Python 3.9+.
Written from docs/PROTOCOL.md (protocol version 1).

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

Modules: ``wire`` (the codec: framing, primitives, every message), ``errors`` (PickerError
with codes and hints), ``models`` (results and events), ``client`` (Client, Subscription),
``session`` (Session), ``connection`` (the socket, reconnecting, Pending), ``requests``
(argument checks and reply types).
"""

from . import wire
from .client import Client, Pending, Session, Subscription, default_session, default_socket_path
from .raw import RawConnection
from .errors import ConnectionLost, DaemonNotRunning, PickerError, UntrustedServer, hint_for
from .models import (Album, Capabilities, Cell, Event, Image, LibraryChangesEvent, LibraryEvent, LibraryInfo,
                     Photo, PhotoPage, Photos, PickedPhoto, ScanProgress, ScanProgressEvent, Selection,
                     SessionEvent, SessionState, Thumbnails, UnknownEvent, decode_event)
from .wire import ErrorCode, Format, MessageType, error_code, error_name

PROTOCOL_VERSION = wire.PROTOCOL_VERSION
MAX_PAGE_LIMIT = 10000
EVENT_BIT = wire.EVENT_BIT
FORMATS = wire.FORMATS
PHOTO_FORMATS = wire.PHOTO_FORMATS
TERMINAL_FORMATS = wire.TERMINAL_FORMATS
ERROR_NAMES = {int(c): c.name.lower() for c in ErrorCode}

# Message types and error codes as module constants (pickerd_client.PING, .SELECTION_FULL).
globals().update({t.name: t for t in MessageType})
globals().update({c.name: c for c in ErrorCode})

__all__ = [
    "wire", "RawConnection", "Client", "Session", "Pending", "Subscription", "default_socket_path",
    "default_session",
    "PickerError", "ConnectionLost", "DaemonNotRunning", "UntrustedServer", "hint_for",
    "Capabilities", "LibraryInfo", "Album", "SessionState", "Photo", "Photos", "PhotoPage",
    "PickedPhoto", "Selection", "Image", "Cell", "Thumbnails", "ScanProgress", "Event",
    "SessionEvent", "LibraryEvent", "LibraryChangesEvent", "ScanProgressEvent", "UnknownEvent",
    "decode_event", "ErrorCode", "Format", "MessageType", "FORMATS", "PHOTO_FORMATS", "TERMINAL_FORMATS", "error_code", "error_name", "ERROR_NAMES",
] + [t.name for t in MessageType] + [c.name for c in ErrorCode]
