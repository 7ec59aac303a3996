"""Errors of the Python client: the daemon's code and message, plus a hint in this
client's terms (the daemon says what is wrong; how to fix it from Python is ours to say)."""

import os
import socket
import stat
import struct
from typing import Optional, Union

from .wire import ErrorCode, error_code, error_name

# How to fix it, by code, in this package's terms. The daemon's message says what is wrong.
HINTS = {
    ErrorCode.NO_SUCH_SESSION: "create it first: client.create_session(name, width, exist_ok=True)",
    ErrorCode.NO_SUCH_ALBUM: "list the albums with client.albums() and select one of those names or indexes",
    ErrorCode.NO_SUCH_PHOTO: "list the album with session.photos_page() and use one of its names or indexes",
    ErrorCode.NOTHING_SELECTED: "select an album (session.select_album) and a photo (session.select_photo) first",
    ErrorCode.SESSION_EXISTS: "reuse it with client.create_session(..., exist_ok=True) or client.session(name)",
    ErrorCode.SELECTION_FULL: "unpick a photo with session.toggle(photo) or session.clear_selection(), "
                              "or create the session with a larger max_selection",
    ErrorCode.OUT_OF_RANGE: "pass a value inside the range the message states",
    ErrorCode.INVALID_NAME: "use a non-empty name without '/', '..' or control characters",
    ErrorCode.TOO_BUSY: "retry later, or wait for your pending requests (Pending.result()) before sending more",
    ErrorCode.CANCELLED: "nothing to fix: a newer request on the session superseded this one",
    ErrorCode.UNSUPPORTED_VERSION: "update pickerd_client to the daemon's protocol version",
    ErrorCode.PERMISSION_DENIED: "run the client as the user that runs pickerd",
}


def hint_for(code: int) -> Optional[str]:
    """How to fix an error of this code from Python, or None."""
    return HINTS.get(error_code(code))  # type: ignore[call-overload]


class PickerError(Exception):
    """An ``error`` reply, or a failure of the connection.

    ``code`` is the protocol's number as an ``ErrorCode`` (an ``IntEnum``; a code this client
    does not know stays a plain ``int``), ``name`` its name (``"selection_full"``; unknown
    codes are named ``"internal"`` as PROTOCOL.md says), ``message`` the server's one-line
    text, ``hint`` how to fix it from Python (or None), ``request_id`` the id it answered
    (0 for the whole connection).
    """

    def __init__(self, code: int, message: str, request_id: int = 0):
        self.code: Union[ErrorCode, int] = error_code(code)
        self.name = error_name(code)
        self.message = message
        self.request_id = request_id
        self.hint = hint_for(code)
        text = "%s (%d): %s" % (self.name, code, message)
        super().__init__(text + ("\nhint: " + self.hint if self.hint else ""))


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
        self.hint = "start it with `pickerd --socket %s &`, or pass Client(socket_path=...)" % path


class UntrustedServer(ConnectionLost):
    """Connecting succeeded, but the socket is served by another uid (SO_PEERCRED) or lies in a
    ``/tmp/pickerd-$UID`` folder another user controls. Nothing was sent: whoever listens there
    would get every request and could feed back anything."""

    def __init__(self, path: str, why: str):
        super().__init__(0, "%s; refusing to talk to the socket %s" % (why, path))
        self.name = "untrusted_server"
        self.path = path
        self.hint = "set PICKER_SOCKET (or XDG_RUNTIME_DIR) to a socket of your own daemon"


class Malformed(PickerError):
    """A reply this client cannot read (code 1, malformed_frame)."""

    def __init__(self, message: str, request_id: int = 0):
        super().__init__(ErrorCode.MALFORMED_FRAME, message, request_id)


def fallback_folder_problem(path: str) -> Optional[str]:
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


def check_served_by_us(sock: socket.socket, path: str) -> None:
    """SO_PEERCRED: the server's uid must be ours, before a byte is sent."""
    size = struct.calcsize("3i")
    _pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, size))
    if uid != os.getuid():
        raise UntrustedServer(path, "the socket %s is served by uid %d, not by you (uid %d)" % (path, uid, os.getuid()))
