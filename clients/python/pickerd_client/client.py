"""Client (the requests without a session, and events) and Subscription. The socket,
replies and reconnecting are ``connection``'s; a session's requests are ``session``'s."""

import time
from collections import deque
from typing import Any, Dict, Iterator, List, Optional, Tuple

from . import wire
from .connection import Connection, Pending
from .errors import ConnectionLost, PickerError
from .models import Album, Event, LibraryInfo, ScanProgress, SessionState
from .requests import decode_reply, default_session, default_socket_path
from .session import Session
from .wire import ErrorCode, MessageType as T

__all__ = ["Client", "Pending", "Session", "Subscription", "default_session", "default_socket_path"]


class Client(Connection):
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
                       *, exist_ok: bool = False, choices: Optional[List[Dict[str, Any]]] = None) -> "Session":
        """Create a session; returns its handle (``.state`` is the new state).

        With ``exist_ok=True`` an existing session of that name is reused as it is. ``choices`` are the
        host app's toggles (dicts of ``id``, ``label``, ``options`` ``[{id, label}]``, ``value``; no options:
        a check box, value ``"true"``/``"false"``), sent as sessionNew's extension tag 1."""
        fields: Dict[str, Any] = {"name": name, "width": width, "height": height or 0, "max_selection": max_selection or 0,
                                  "title": title or ""}
        if choices:
            fields["extensions"] = {wire.CHOICES_TAG: wire.encode_payload(T.CHOICES_REPLY, choices=list(choices))}
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
