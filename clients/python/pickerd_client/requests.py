"""What the request methods share: the reply type of each request, the checks and encodings
of their arguments (formats, quality, cells, selectors) and the default socket path."""

import os
from typing import Any, Callable, Dict, Optional, Tuple, Union

from . import wire
from .errors import Malformed
from .wire import MessageType as T

Fields = Dict[str, Any]
Convert = Callable[[Fields], Any]

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
    T.CANCEL: T.CANCEL_REPLY, T.CHOICES: T.CHOICES_REPLY, T.SET_CHOICE: T.CHOICES_REPLY,
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


def default_session(fallback: str = "python") -> str:
    """The session a program uses when its user names none: $PICKER_SESSION, else ``fallback``
    (the rule of every pickerd client; empty counts as unset). The API itself never picks a
    session for you: pass this to ``create_session``/``session``."""
    return os.environ.get("PICKER_SESSION") or fallback


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


def symbols_area(symbols: Union[None, str, int], cells: Optional[Dict[str, int]]) -> Dict[int, bytes]:
    """The extension area asking for a symbol class ("block", "sextant", "ascii", or a number a newer
    server knows): empty for None. The class goes with cells, so it needs them."""
    if symbols is None:
        return {}
    if cells is None:
        raise ValueError("symbols= needs cells=(cols, rows)")
    if isinstance(symbols, bool) or not isinstance(symbols, (str, int)):
        raise TypeError("symbols is block, sextant, ascii or a number, not %r" % (symbols,))
    code = wire.SYMBOL_CLASS_CODES.get(symbols) if isinstance(symbols, str) else symbols
    if code is None:
        raise ValueError("unknown symbol class %r (block, sextant or ascii)" % (symbols,))
    if not 0 <= code <= 255:
        raise ValueError("a symbol class is one byte: %r" % (symbols,))
    return {wire.SYMBOLS_TAG: bytes([code])}


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
