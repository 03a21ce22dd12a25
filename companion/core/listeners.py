"""Telling listeners what changed, in order, outside the lock that made it.

A change is queued inside the lock of whoever made it (:meth:`Teller.later`)
and told once that lock is released (:meth:`Teller.tell`): a slow listener
(the screen, the live stream, a broker) never holds back the next input, and
every listener hears every change in the order it happened.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any, Callable, Sequence, TypeVar

log = logging.getLogger(__name__)

L = TypeVar("L")


def add_listener(listeners: list[L], listener: L,
                 lock: threading.Lock | threading.RLock) -> Callable[[], None]:
    """Add ``listener`` to ``listeners`` under ``lock``; returns the function
    that takes it off again (once, however often it is called)."""
    with lock:
        listeners.append(listener)

    def unsubscribe() -> None:
        with lock:
            if listener in listeners:
                listeners.remove(listener)

    return unsubscribe


class Teller:
    """The changes still to be told, and who tells them."""

    def __init__(self) -> None:
        self._untold: deque[Callable[[], None]] = deque()
        self._telling = threading.Lock()

    def later(self, listeners: Sequence[Callable[[Any], object]], value: Any) -> None:
        """Queue ``value`` for ``listeners`` (those listening now), called
        inside the lock that made the change, so the queue keeps its order."""
        chosen = list(listeners)

        def tell() -> None:
            for listener in chosen:
                try:
                    listener(value)
                except Exception:  # a listener must never break the table
                    log.exception("listener %r failed; the table goes on", listener)

        self._untold.append(tell)

    def tell(self) -> None:
        """Tell what is queued, outside the lock.  One thread tells at a
        time, in order; a thread that finds another telling leaves its
        change to it and returns, so no input waits for a listener of
        another's change."""
        while self._untold:
            if not self._telling.acquire(blocking=False):
                return  # the thread telling takes this change too (see below)
            try:
                while self._untold:
                    self._untold.popleft()()
            finally:
                self._telling.release()
            # A change queued while this thread told, whose thread found the
            # telling taken, is told by the loop's next turn.
