"""Session: a handle on one daemon session; each method sends one request."""

import struct
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Tuple, Union

from . import wire
from .connection import Pending
from .models import Event, Image, Photo, PhotoPage, Photos, Selection, SessionState, Thumbnails
from .requests import Convert, cells_fields, check_selector, format_code, quality_byte, symbols_area
from .wire import ErrorCode, MessageType as T

if TYPE_CHECKING:
    from .client import Client, Subscription


class Session:
    """A session on a Client. Methods send one request each; ``state`` is the latest
    SessionState this handle has seen."""

    def __init__(self, client: "Client", name: str, state: Optional[SessionState] = None):
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
        (``camera_make``, ``exposure_time`` as ``{numerator, denominator}``, ``gps`` True/False...),
        plus ``raw_companion``: the relative path of the camera RAW listed as one photo with this JPEG
        (a RAW+JPEG pair), None when it has none or the daemon predates the field."""
        def convert(f: Dict[str, Any]) -> Dict[str, Any]:
            raw = (f.get("extensions") or {}).get(wire.RAW_COMPANION_TAG)
            return dict(f, raw_companion=raw.decode("utf-8") if raw else None)
        return self._call(T.PHOTO_INFO, convert, photo=photo, extensions={wire.RAW_COMPANION_TAG: b""})

    def choices(self) -> List[Dict[str, Any]]:
        """The session's choices (the host app's toggles, PROTOCOL.md ``choices``) with their values
        now: dicts of ``id``, ``label``, ``options`` (``[{id, label}]``; empty: a check box) and ``value``."""
        return self._call(T.CHOICES, lambda f: f["choices"])

    def set_choice(self, choice: str, value: str) -> List[Dict[str, Any]]:
        """Set one choice to one of its options' ids (``"true"``/``"false"`` for a check box); the
        choices after it. ``no_such_choice`` (18) for an id the session lacks."""
        return self._call(T.SET_CHOICE, lambda f: f["choices"], choice=choice, value=value)

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
                       cells: Optional[Tuple[int, int]], symbols: Union[None, str, int], convert: Convert) -> Pending:
        cf = cells_fields(cells)
        payload = wire.encode_payload(T.GET_IMAGE, session=self.name, format=format_code(format),
                                      quality=quality_byte(quality),
                                      flags=(1 if no_cache else 0) | (2 if cf else 0), cells=cf,
                                      extensions=symbols_area(symbols, cf))
        return self.client.submit(T.GET_IMAGE, payload, convert, none_on=(ErrorCode.NOTHING_SELECTED,))

    def image(self, format: Union[str, int] = "png", quality: Optional[int] = None,
              no_cache: bool = False, *, cells: Optional[Tuple[int, int]] = None,
              symbols: Union[None, str, int] = None) -> Optional[Image]:
        """The current photo scaled to fit the pane, as an Image; None when nothing is selected.
        ``cells=(cols, rows)``: the terminal to draw in, required by ``format="symbols"``
        (whose Image has cols x rows as width x height and UTF-8 text as data).
        ``symbols="block"|"sextant"|"ascii"`` (with cells): the symbols to draw with (the daemon
        draws block without); the Image's ``symbols`` then names the class drawn."""
        return self._image_request(format, quality, no_cache, cells, symbols,
                                   Image.from_fields).result(self.client.timeout)

    def get_image(self, format: Union[str, int] = "png", quality: Optional[int] = None,
                  no_cache: bool = False, *, cells: Optional[Tuple[int, int]] = None,
                  symbols: Union[None, str, int] = None, wait: bool = True) -> Any:
        """The current photo's encoded bytes, or None when nothing is selected (the design's nil).
        For ``"sixel"`` and ``"symbols"`` the bytes are UTF-8 terminal text; symbols needs
        ``cells=(cols, rows)`` and takes ``symbols=`` as ``image`` does.

        With ``wait=False`` the request is only sent: a Pending is returned, whose ``result()``
        gives the bytes (or None) and whose ``cancel()`` cancels it."""
        pending = self._image_request(format, quality, no_cache, cells, symbols, lambda f: f["data"])
        return pending.result(self.client.timeout) if wait else pending

    def thumbnails(self, size: int = 100, page: int = 1) -> Thumbnails:
        """One page of the album as a grid: geometry plus the PNG (``.png``)."""
        return self._call(T.THUMBNAILS, Thumbnails.from_fields, cell_size=size, page=page, flags=0)

    def thumbnail_geometry(self, size: int = 100, page: int = 1) -> Thumbnails:
        """Like ``thumbnails`` without drawing the image (``.image`` is None)."""
        return self._call(T.THUMBNAILS, Thumbnails.from_fields, cell_size=size, page=page, flags=1)

    def preview(self, width: int = 1920, height: int = 1080, format: Union[str, int] = "jpeg",
                quality: Optional[int] = None, *, cells: Optional[Tuple[int, int]] = None,
                symbols: Union[None, str, int] = None, zoom: Optional[Tuple[float, float]] = None) -> Image:
        """The current photo scaled to fit width x height (upscaling allowed), centred on black.
        ``cells=(cols, rows)`` (required by ``format="symbols"``) fits that canvas into a terminal;
        the flags byte is sent only with cells or a zoom, so other previews are the older frame.
        ``symbols=`` as in ``image``. ``zoom=(x, y)`` (fractions 0..1 of the photo) shows the photo at
        1:1 around that point instead; the reply's ``.zoom`` says where the window lies."""
        cf = cells_fields(cells)
        area = symbols_area(symbols, cf)
        if zoom is not None:
            area[wire.ZOOM_TAG] = struct.pack(">II", *(round(min(max(float(v), 0.0), 1.0) * 1_000_000) for v in zoom))
        return self._call(T.PREVIEW, Image.from_fields, width=width, height=height, format=format_code(format),
                          quality=quality_byte(quality), flags=2 if cf else 0, cells=cf, extensions=area)

    def events(self, library: bool = False, timeout: Optional[float] = None) -> Iterator[Event]:
        """Subscribe to this session's events (and the library's with ``library=True``) and
        iterate over them; closing the iterator unsubscribes (see ``Client.events``)."""
        return self.client.events(session=self.name, library=library, timeout=timeout)

    def subscribe(self, library: bool = False) -> "Subscription":
        return self.client.subscribe(session=self.name, library=library)
