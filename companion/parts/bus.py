"""The parts' news to each other, on one small bus.

A part tells what happened (:meth:`Bus.tell`), as one of the news types
below; the parts that care subscribe to that type (:meth:`Bus.subscribe`).
Neither knows the other: the dice say their source changed and the screen,
when there is one, draws its prompt again.  News is told on the teller's
thread, in order; a listener must be quick (the screen's only queue a note
for its own thread) and one that fails is logged, never the teller's
problem.  The table's own changes go through the table's listeners, not
here.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, NamedTuple, TypeVar

from companion.core.listeners import add_listener

log = logging.getLogger(__name__)

News = TypeVar("News")


class DiceChanged(NamedTuple):
    """The dice source changed, or a Pixels die came, went or was paired:
    what the screen's prompt says of the dice."""


class PixelsRolled(NamedTuple):
    """A Pixels die settled on ``value``: the die of ``role`` (red, blue,
    d6), of ``sides`` faces (None when the die did not say)."""

    role: str
    sides: int | None
    value: int


class NetworkChanged(NamedTuple):
    """The Wi-Fi changed: ``what`` is ``hotspot`` (its own Wi-Fi opened),
    ``joined``, ``join-failed`` (``reason`` says why), ``offer`` (a known
    network, ``ssid``, in reach) or ``lost``."""

    what: str
    ssid: str = ""
    reason: str = ""


class KeyPressed(NamedTuple):
    """A key of the table: ``kind`` is press, repeat or long."""

    key: str
    kind: str = "press"


class FrameShown(NamedTuple):
    """The table's screen shows a frame that differs from the one before:
    the ``number``-th (one more for each), a 1-bit PIL ``image``."""

    number: int
    image: Any


class FaultsNow(NamedTuple):
    """What is missing now (``dice device: waiting for ...``), for the
    players at the table; ``lasting``: those of them that the table's screen
    shows again and again while they last (the table's own: a memory card
    that cannot be written, a date not known), not only when they appear."""

    faults: tuple[str, ...]
    lasting: tuple[str, ...] = ()


class Bus:
    """Who hears which news."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[type, list[Callable[..., None]]] = {}

    def subscribe(self, kind: type[News], listener: Callable[[News], None]) -> Callable[[], None]:
        """Call ``listener(news)`` for each news of ``kind``; returns the
        function that stops it."""
        with self._lock:
            listeners = self._listeners.setdefault(kind, [])
        return add_listener(listeners, listener, self._lock)

    def tell(self, news: object) -> None:
        """Tell ``news`` to its listeners, in the order they came."""
        with self._lock:
            listeners = list(self._listeners.get(type(news), ()))
        for listener in listeners:
            try:
                listener(news)
            except Exception:  # a listener must never break the part that tells
                log.exception("%s: listener %r failed", type(news).__name__, listener)
