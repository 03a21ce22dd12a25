"""Live updates to every open phone, as Server-Sent Events.

The table calls :meth:`Broadcast.on_update` after every change, once its
lock is released, one update at a time and in order
(:mod:`companion.core.listeners`). That only appends the update to each
phone's small queue and wakes the phone's stream; the JSON is encoded
later, once, by whichever stream sends it first. A slow phone's queue
drops its oldest message when full: every message carries the whole state,
so the newest one is all it needs.

Each open stream holds one server thread while it waits, so the number of
streams is capped (:attr:`Broadcast.max_streams`) to keep threads for
ordinary requests.  A stream whose phone went away holds its slot only until
the slot is needed.  One phone (one address) keeps at most
:attr:`Broadcast.max_per_phone` streams: its newest one ends its oldest, so
that it cannot take every slot, and a phone whose old streams died without
a word (it slept, it left the Wi-Fi) is never shut out by them.  When every
slot is taken, the phone holding the most streams gives up its oldest, so a
new phone always gets one.

A phone that stops reading its stream (asleep with the page open) would make
the server keep every change for it.  The server tells a stream how much of
it is still unsent: beyond :data:`MAX_UNSENT` bytes, or unsent data left
unread for :data:`MAX_STALL` seconds, the stream ends and its connection is
closed.  The phone's browser reconnects when it reads again, and the first
message of a stream is always the whole current state.

The table's screen says when its frame changes: :meth:`Broadcast.follow_screen`
pushes each new frame to every stream as a ``screen`` event (its number and,
as it is small, the PNG itself), so the phones' mirrors follow the screen
without asking for it.  The frame is read and encoded once, when the first
stream sends it; with no phone watching, a change costs nothing more.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from collections import deque
from typing import Any, Callable, Generator, Iterator

from companion.core.errors import CompanionError
from companion.core.ports import TablePort
from companion.core.table import Update

BACKLOG = 8
HEARTBEAT = 15.0
# A browser opens at most 6 connections to one server: a phone never needs more.
MAX_PER_PHONE = 6
# Browsers wait this long (ms) before reconnecting a lost stream.
RETRY_MS = 1500
# Bytes of a stream left unsent (the phone does not read) before it ends.
MAX_UNSENT = 64 * 1024
# Seconds unsent data may wait unread before the stream ends.
MAX_STALL = 2 * HEARTBEAT
# A frame of the table's screen goes whole on the stream up to this size of
# PNG (a 128x64 frame is about 500 bytes); a larger one goes as its number,
# and the phone fetches it (GET /api/screen.png) if it shows the mirror.
SMALL_FRAME = 4096


def screen_message(frame: Callable[[], tuple[int, bytes]]) -> dict[str, Any]:
    """The ``screen`` event's data: the frame's number, and the frame itself
    as a ``data:`` URL when it is small; frame 0 while the screen has not
    started."""
    try:
        number, png = frame()
    except Exception:
        return {"frame": 0}
    out: dict[str, Any] = {"frame": number}
    if len(png) <= SMALL_FRAME:
        out["png"] = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return out


class TooManyStreams(CompanionError, RuntimeError):
    """Every live slot is taken; the phone should retry later."""


class _Message:
    """One SSE message, encoded on first use and shared by every stream."""

    __slots__ = ("_data", "_lock", "_payload", "event")

    def __init__(self, event: str, payload: Callable[[], Any]) -> None:
        self.event = event
        self._payload = payload
        self._data: bytes | None = None
        self._lock = threading.Lock()

    def encoded(self) -> bytes:
        if self._data is None:
            with self._lock:
                if self._data is None:
                    text = json.dumps(self._payload(), separators=(",", ":"))
                    self._data = f"event: {self.event}\ndata: {text}\n\n".encode()
        return self._data


class _Stream:
    """One phone's queue of messages not yet sent."""

    __slots__ = ("closed", "gone", "messages", "phone", "ready", "stalled_since")

    def __init__(self, phone: str | None, gone: Callable[[], bool]) -> None:
        self.messages: deque[_Message] = deque(maxlen=BACKLOG)
        self.ready = threading.Condition(threading.Lock())
        self.closed = False
        self.phone = phone
        self.gone = gone
        self.stalled_since: float | None = None

    def put(self, message: _Message) -> None:
        with self.ready:
            self.messages.append(message)  # a full deque drops its oldest
            self.ready.notify()

    def next(self, timeout: float) -> _Message | None:
        """The next message, or ``None`` after ``timeout`` or once closed."""
        with self.ready:
            if not self.messages and not self.closed:
                self.ready.wait(timeout)
            return self.messages.popleft() if self.messages else None

    def close(self) -> None:
        with self.ready:
            self.closed = True
            self.ready.notify()


class _Feed:
    """A stream's bytes for the WSGI server, which calls ``close()`` when the
    response ends or the client goes, even if it never started reading."""

    __slots__ = ("_chunks", "_on_close")

    def __init__(self, chunks: Generator[bytes, None, None],
                 on_close: Callable[[], None]) -> None:
        self._chunks = chunks
        self._on_close = on_close

    def __iter__(self) -> _Feed:
        return self

    def __next__(self) -> bytes:
        return next(self._chunks)

    def close(self) -> None:
        self._on_close()
        try:
            self._chunks.close()
        except ValueError:
            # Another thread is inside next(): the stream is closed now, so
            # that thread wakes and the generator ends by itself.
            pass


class Broadcast:
    """Fans the table's updates out to every open stream."""

    def __init__(self, table: TablePort, *, render: Callable[[Update], dict[str, Any]],
                 max_streams: int | None = None, max_per_phone: int | None = MAX_PER_PHONE,
                 heartbeat: float = HEARTBEAT, max_unsent: int = MAX_UNSENT,
                 max_stall: float = MAX_STALL) -> None:
        self._table = table
        self._render = render
        # Oldest first (a dict keeps the order the streams opened in).
        self._streams: dict[_Stream, None] = {}
        self._lock = threading.Lock()
        self._closed = False
        self.max_streams = max_streams
        self.max_per_phone = max_per_phone
        self.heartbeat = heartbeat
        self.max_unsent = max_unsent
        self.max_stall = max_stall
        # Streams ended because their phone stopped reading.
        self.dropped = 0
        self._unsubscribe = table.subscribe(self.on_update)

    def open(self) -> None:
        """Serve live streams again after :meth:`close` (a server started
        anew with the same app)."""
        with self._lock:
            if not self._closed:
                return
            self._closed = False
        self._unsubscribe = self._table.subscribe(self.on_update)

    @property
    def open_streams(self) -> int:
        return len(self._streams)

    def on_update(self, update: Update) -> None:
        self.publish("update", lambda: self._render(update))

    def follow_screen(self, news: Callable[[Callable[[], None]], Callable[[], None]],
                      frame: Callable[[], tuple[int, bytes]]) -> Callable[[], None]:
        """Push the table's screen to every stream each time ``news`` tells
        of a new frame (``frame()``: its number and PNG, read when first
        sent); returns the function that stops it."""
        return news(lambda: self.publish("screen", lambda: screen_message(frame)))

    def publish(self, event: str, payload: Callable[[], Any]) -> None:
        with self._lock:
            streams = list(self._streams)
        if not streams:
            return
        message = _Message(event, payload)
        for stream in streams:
            stream.put(message)

    def stream(self, first: list[tuple[str, Callable[[], Any]]], *,
               extra: Callable[[], tuple[str, Any] | None] | None = None,
               disconnected: Callable[[], bool] = lambda: False,
               phone: str | None = None,
               unsent: Callable[[], int] | None = None,
               hang_up: Callable[[], None] | None = None) -> Iterator[bytes]:
        """Open a stream: its generator yields SSE bytes until the client
        goes or the broadcast closes.

        ``first`` are ``(event, payload)`` messages sent at once; their
        payloads are read after subscribing, so that no update falls
        between them and the live ones.  On every heartbeat
        ``extra()`` may return one more message to send (the hardware
        faults, when they changed).  ``phone`` names the client (its
        address) for the per-phone limit; ``None`` is not limited.
        ``disconnected()`` tells whether the client went away.
        ``unsent()`` is how many bytes of the stream the server holds unsent
        and ``hang_up()`` closes the connection: a stream that its phone does
        not read ends (see the module's description).  Raises
        :class:`TooManyStreams` when every slot is taken.
        """
        stream = _Stream(phone, disconnected)
        with self._lock:
            if self._closed:
                raise TooManyStreams("the panel is shutting down")
            self._check_room(phone)
            self._streams[stream] = None
        # Read only now, after subscribing: a change made meanwhile is then
        # both in this snapshot and queued after it, never lost.
        try:
            for event, payload in first:
                snapshot = payload()
                stream.put(_Message(event, _given(snapshot)))
        except BaseException:
            self._forget(stream)
            raise
        return _Feed(self._run(stream, extra, disconnected, unsent, hang_up),
                     lambda: self._forget(stream))

    def _check_room(self, phone: str | None) -> None:
        """Make room for one more stream of ``phone`` or refuse it.

        The streams of phones that went away are ended first (their threads
        would notice only at the next heartbeat), then the phone's oldest
        stream if it holds its most.
        """
        for gone in [s for s in self._streams if s.gone()]:
            self._end(gone)
        if phone is not None and self.max_per_phone is not None:
            own = [s for s in self._streams if s.phone == phone]
            for oldest in own[:max(0, len(own) - self.max_per_phone + 1)]:
                self._end(oldest)
        if self.max_streams is not None and len(self._streams) >= self.max_streams:
            self._take_from_busiest()
        if self.max_streams is not None and len(self._streams) >= self.max_streams:
            raise TooManyStreams(
                f"{len(self._streams)} phones are already watching live, the most "
                f"this companion serves; close the panel on a phone you no longer use"
            )

    def _take_from_busiest(self) -> None:
        """End the oldest stream of the phone holding the most, if it holds
        more than one: a phone's first stream is never taken for another's."""
        held: dict[str, list[_Stream]] = {}
        for s in self._streams:
            if s.phone is not None:
                held.setdefault(s.phone, []).append(s)
        busiest = max(held.values(), key=len, default=[])
        if len(busiest) > 1:
            self._end(busiest[0])

    def _end(self, stream: _Stream) -> None:
        stream.close()
        del self._streams[stream]

    def _run(self, stream: _Stream, extra, disconnected, unsent,
             hang_up) -> Generator[bytes, None, None]:
        yield f"retry: {RETRY_MS}\n\n".encode()
        while not stream.closed:
            message = stream.next(self.heartbeat)
            if unsent is not None and self._unread(stream, unsent()):
                self.dropped += 1
                if hang_up is not None:
                    hang_up()
                return
            if message is not None:
                yield message.encoded()
                continue
            if stream.closed or disconnected():
                return
            more = extra() if extra else None
            if more is not None:
                event, payload = more
                yield _Message(event, _given(payload)).encoded()
            else:
                yield b": heartbeat\n\n"

    def _unread(self, stream: _Stream, waiting: int) -> bool:
        """Whether the phone stopped reading: too much unsent, or unsent
        for too long."""
        if waiting <= 0:
            stream.stalled_since = None
            return False
        now = time.monotonic()
        if stream.stalled_since is None:
            stream.stalled_since = now
        return waiting > self.max_unsent or now - stream.stalled_since > self.max_stall

    def _forget(self, stream: _Stream) -> None:
        stream.close()
        with self._lock:
            self._streams.pop(stream, None)

    def close(self) -> None:
        """End every stream (their phones reconnect to the next server)."""
        with self._lock:
            self._closed = True
            streams = list(self._streams)
        for stream in streams:
            stream.close()
        self._unsubscribe()


def _given(payload: Any) -> Callable[[], Any]:
    """A payload already made, as the function a message asks for."""
    return lambda: payload
