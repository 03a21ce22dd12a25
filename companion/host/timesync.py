"""Whether the companion's clock knows the date.

A Raspberry Pi has no real-time clock: until NTP has set it (which needs a
network with internet), its clock is the last time it saved.  The kernel
knows whether a time service has synchronized it: ``adjtimex()`` answers
``TIME_ERROR`` while the clock is unsynchronized (what ``timedatectl``'s
``NTPSynchronized`` reads), one system call, no subprocess.

``COMPANION_CLOCK_SYNCED`` (``1`` or ``0``) says it instead, for a
machine where the kernel cannot tell; a simulation takes its computer's
clock as synchronized unless it says ``0`` (a Pi at a place without
internet); elsewhere (not Linux) the clock is taken as synchronized.
"""

from __future__ import annotations

import ctypes
import logging
import os
import threading
from typing import Any, Callable, Mapping

from companion.core.clock import LabelClock

log = logging.getLogger(__name__)

ENVIRONMENT = "COMPANION_CLOCK_SYNCED"
# adjtimex()'s answer while the clock is not synchronized.
TIME_ERROR = 5


class _Timex(ctypes.Structure):
    # struct timex as glibc lays it out; only ``modes`` is set (0: read
    # only), and the answer is the call's return value.  The tail leaves
    # room for every field of every architecture.
    _fields_ = [("modes", ctypes.c_uint), ("rest", ctypes.c_byte * 512)]


def _kernel_synced() -> bool | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        adjtimex = libc.adjtimex
    except (OSError, AttributeError):
        return None
    state = adjtimex(ctypes.byref(_Timex()))
    if state < 0:
        return None
    return state != TIME_ERROR


def synced_reader(environ: Mapping[str, str] | None = None, *,
                  simulate: bool = False) -> Callable[[], bool]:
    """A function that says whether the clock is synchronized now.  A
    simulation runs on a computer whose system sets its clock: taken as
    synchronized unless the environment says otherwise."""
    env = os.environ if environ is None else environ
    said = env.get(ENVIRONMENT, "").strip().lower()
    if said in ("1", "yes", "true") or (simulate and not said):
        return lambda: True
    if said in ("0", "no", "false"):
        return lambda: False

    def kernel() -> bool:
        found = _kernel_synced()
        return True if found is None else found

    return kernel


# A phone's clock, set by its network, is right to a few seconds; the
# request carrying it took a moment: a difference below this is no news.
PHONE_TOLERANCE = 60.0


class TableTime:
    """The table's clock (:class:`~companion.core.clock.LabelClock`) and
    whether it knows the date: synchronized, or set from a controller's
    phone while it is not.  Once it learns the right time, the times the
    journal kept meanwhile are set right (:func:`companion.core.table.relabel`)."""

    def __init__(self, clock: LabelClock, synced: Callable[[], bool],
                 wall: Callable[[], float]) -> None:
        self.clock = clock
        self._synced = synced
        self._wall = wall
        self.table: Any = None
        self._was_synced: bool | None = None
        self.from_phone = False
        self._lock = threading.Lock()

    def known(self) -> bool:
        """True when the date is known: the clock synchronized, or a
        controller's phone said it."""
        return self.from_phone or bool(self._was_synced)

    def tick(self) -> None:
        """Look whether the clock is synchronized now (one system call):
        when it has just become so, or has stepped since, the times kept
        meanwhile are set right."""
        synced = self._synced()
        if synced != self._was_synced:
            log.info("the clock is %s", "synchronized" if synced else
                     "not synchronized: the date comes from the players' phones")
        self._was_synced = synced
        self.clock()  # notes a step of the wall clock, if any
        # The date a phone gave may be off by a little or a lot: set right
        # too, whether the wall clock seems to step or not.
        if synced and (self.clock.step or self.from_phone) and self.table is not None:
            self._correct(self._wall(), "the synchronized clock")
            self.from_phone = False

    def phone_said(self, when: float) -> bool:
        """A controller's phone sent its time (seconds since the epoch):
        taken while the clock is not synchronized.  True when the date was
        not known before."""
        if self._was_synced is None:
            self.tick()
        if self._was_synced or self.table is None:
            return False
        with self._lock:
            learnt = not self.from_phone
            if abs(when - self.clock()) > PHONE_TOLERANCE:
                self._correct(when, "a player's phone", provisional=True)
            self.from_phone = True
            return learnt

    def _correct(self, right_now: float, source: str, *, provisional: bool = False) -> None:
        from companion.core.table import relabel

        shift = relabel(self.table, lambda: self.clock.correct(right_now),
                        provisional=provisional)
        if abs(shift) > PHONE_TOLERANCE:
            log.warning("the date was %+.0f s off: set from %s; the times kept meanwhile "
                        "are set right", shift, source)
