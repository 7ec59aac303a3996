"""What the client returns: dataclasses built from the wire codec's field dicts."""

import struct
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

from . import wire
from .wire import FORMATS, PHOTO_FORMATS, SESSION_CHANGES, SORTS, Frame, MessageType, WireError, decode_payload
from .errors import Malformed


def format_name(code: int) -> str:
    return FORMATS.get(code, "format-%d" % code)


def photo_format_name(code: int) -> str:
    """A photo's format by the input table (HEIC, AVIF are input only)."""
    return PHOTO_FORMATS.get(code, "format-%d" % code)


def _none_if_zero(v):
    return v if v else None


def _flag(value: int, field_name: str) -> bool:
    """scan_state or date_source: 1 is ready / from EXIF; a value a newer daemon adds reads like 0
    (PROTOCOL.md, "Open values"), never as an error."""
    return value == 1


@dataclass
class Capabilities:
    version: int
    server_version: str
    max_request_frame: int
    max_reply_frame: int
    input_formats: List[str]
    output_formats: List[str]

    @classmethod
    def from_fields(cls, f: Dict[str, Any]) -> "Capabilities":
        # A format a newer daemon adds is kept, named format-N (PROTOCOL.md, "Open values").
        return cls(f["version"], f["server_version"], f["max_request_frame"], f["max_reply_frame"],
                   [photo_format_name(c) for c in f["input_formats"]], [format_name(c) for c in f["output_formats"]])


@dataclass
class LibraryInfo:
    root: str
    album_count: int
    photo_count: int
    ready: bool            # scan_state 1; False while the first scan runs
    scanned_at: int        # Unix seconds of the last completed scan, 0 = none yet
    skipped_count: int

    @classmethod
    def from_fields(cls, f: Dict[str, Any]) -> "LibraryInfo":
        return cls(f["root"], f["album_count"], f["photo_count"], _flag(f["scan_state"], "scan_state"),
                   f["scanned_at"], f["skipped_count"])


@dataclass
class ScanProgress:
    """How far a library scan has got (PROTOCOL.md 0x09)."""
    scanning: bool
    files_done: int
    files_expected: int   # 0 = not known yet
    elapsed_ms: int

    @classmethod
    def from_fields(cls, f: Dict[str, Any]) -> "ScanProgress":
        return cls(f["state"] == 0, f["files_done"], f["files_expected"], f["elapsed_ms"])


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

    @classmethod
    def from_fields(cls, f: Dict[str, Any]) -> "SessionState":
        return cls(f["name"], f["title"], f["width"], _none_if_zero(f["height"]), f["max_selection"],
                   f["selection_count"], _none_if_zero(f["album"]), _none_if_zero(f["album_index"]),
                   _none_if_zero(f["photo"]), _none_if_zero(f["photo_index"]), f["photo_count"], f["message"])


@dataclass
class Photo:
    index: int             # 1-based position in the session's order (what select_photo(int) uses)
    name: str
    path: str              # relative to the library root; unique, unlike name in "All Photos"
    width: int             # displayed (upright) size
    height: int
    file_size: int         # bytes on disk ("bytes" in PROTOCOL.md)
    format: str            # "jpeg", "png", "webp", "heic", "avif" (or "format-N" for an unknown number)
    date: int              # Unix seconds
    date_from_exif: bool   # False: the file's mtime
    broken: Optional[str] = None  # why it cannot be shown (photos_page(mark_broken=True) only)

    @classmethod
    def from_fields(cls, f: Dict[str, Any]) -> "Photo":
        return cls(f["index"], f["name"], f["path"], f["width"], f["height"], f["bytes"],
                   photo_format_name(f["format"]), f["date"], _flag(f["date_source"], "date_source"))


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
    sort: str              # "name" or "date": the order of the rows ("sort-N" from a newer daemon)
    total: int             # photos in the whole album
    offset: int            # 0-based position of the first row
    photos: List[Photo]

    @classmethod
    def from_fields(cls, f: Dict[str, Any]) -> "PhotoPage":
        photos = [Photo.from_fields(p) for p in f["photos"]]
        # The trailing broken list (present when the request asked for it) marks rows by index.
        reasons = {b["index"]: b["reason"] for b in f.get("broken") or []}
        for p in photos:
            p.broken = reasons.get(p.index)
        return cls(f["album"], SORTS.get(f["sort"], "sort-%d" % f["sort"]), f["total"], f["offset"], photos)


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

    @classmethod
    def from_fields(cls, f: Dict[str, Any]) -> "Selection":
        return cls(f["max_selection"], [PickedPhoto(**p) for p in f["photos"]])


@dataclass
class Image:
    format: str
    width: int
    height: int
    data: bytes = field(repr=False)
    # The symbol class a "symbols" picture was drawn with ("block", "sextant", "ascii", or the number
    # from a newer server); None unless the request asked for one (PROTOCOL.md, "Symbol classes").
    symbols: Union[None, str, int] = None
    # A 1:1 preview's window in the photo: {"left", "top", "width", "height", "photo_width",
    # "photo_height"} (PROTOCOL.md, "Zoom (1:1)"); None unless the preview asked for a zoom.
    zoom: Optional[Dict[str, int]] = None

    @classmethod
    def from_fields(cls, f: Dict[str, Any]) -> "Image":
        area = f.get("extensions") or {}
        drawn = area.get(wire.SYMBOLS_TAG)
        symbols = wire.SYMBOL_CLASSES.get(drawn[0], drawn[0]) if drawn and len(drawn) == 1 else None
        window = area.get(wire.ZOOM_TAG)
        zoom = dict(zip(("left", "top", "width", "height", "photo_width", "photo_height"),
                        struct.unpack(">6I", window))) if window and len(window) == 24 else None
        return cls(format_name(f["format"]), f["width"], f["height"], f["data"], symbols, zoom)

    @property
    def text(self) -> str:
        """``data`` as text: the terminal formats (sixel, symbols) are UTF-8."""
        return self.data.decode("utf-8")


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

    @classmethod
    def from_fields(cls, f: Dict[str, Any]) -> "Thumbnails":
        cells = [Cell(c["index"], c["name"], c["x"], c["y"], c["size"], bool(c["flags"] & 1), bool(c["flags"] & 2))
                 for c in f["cells"]]
        image = Image.from_fields(f["image"]) if f["image"] is not None else None
        head = [f[k] for k in ("width", "height", "cell_size", "spacing", "padding", "columns", "rows",
                               "page", "pages")]
        return cls(*head, cells=cells, image=image)


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
class ScanProgressEvent:
    subscription: int
    progress: ScanProgress


@dataclass
class UnknownEvent:
    """An event type this client does not know (a newer daemon): kept with its raw bytes."""
    subscription: int
    type: int
    payload: bytes = field(repr=False)


Event = Union[SessionEvent, LibraryEvent, LibraryChangesEvent, ScanProgressEvent, UnknownEvent]


def decode_event(frame: Frame) -> Event:
    """The Event an event frame carries; an unknown type becomes an UnknownEvent.
    Raises Malformed for a known type whose payload cannot be read."""
    if not frame.known:
        return UnknownEvent(frame.id, int(frame.type), frame.payload)
    try:
        f = decode_payload(frame.type, frame.payload)
    except WireError as e:
        raise Malformed(e.message, frame.id) from None
    t = frame.type
    if t == MessageType.SESSION_EVENT:
        change = f["change"]
        return SessionEvent(frame.id, SESSION_CHANGES.get(change, "change-%d" % change), SessionState.from_fields(f))
    if t == MessageType.LIBRARY_EVENT:
        return LibraryEvent(frame.id, LibraryInfo.from_fields(f))
    if t == MessageType.SCAN_PROGRESS_EVENT:
        return ScanProgressEvent(frame.id, ScanProgress.from_fields(f))
    if t == MessageType.LIBRARY_CHANGES_EVENT:
        return LibraryChangesEvent(frame.id, f["added"], f["removed"], f["changed"])
    return UnknownEvent(frame.id, int(t), frame.payload)
