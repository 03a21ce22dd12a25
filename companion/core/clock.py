"""Time that a clock step does not disturb.

A Raspberry Pi has no real-time clock: it starts at the last time it saved,
and NTP steps its clock, by hours or days, once a network with internet is
in reach (and never, at a place without one).  So every *how long* the
companion measures (a phone's session, a PIN lock-out, a game's length)
is read on the boot's monotonic clock, which never steps, together with the
boot's id, so that a reboot (when that clock starts again at 0) is seen.  A
wall-clock time kept with it is only a label, for people to read.

Nothing here reads a clock by itself but :func:`steady_now` and
:func:`boot_id`; the rest takes its times as arguments.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger(__name__)

BOOT_ID_FILE = Path("/proc/sys/kernel/random/boot_id")
# The wall clock and the monotonic clock may drift apart by this much (NTP
# slews a clock by a little at a time) before it counts as a step.
STEP_SECONDS = 5.0

_boot: str | None = None


def boot_id(path: Path = BOOT_ID_FILE) -> str:
    """This boot's id (Linux); on a system without one, an id made once per
    process, so that nothing measured in another process counts as this
    boot's."""
    global _boot
    if _boot is None:
        try:
            _boot = path.read_text().strip()
        except OSError:
            import uuid

            _boot = f"process-{uuid.uuid4()}"
    return _boot


@dataclass(frozen=True)
class Instant:
    """A moment: the boot, its monotonic clock's reading, the wall clock's
    (only a label)."""

    boot: str
    steady: float
    wall: float

    def to_json(self) -> list[Any]:
        return [self.boot, self.steady, self.wall]

    @classmethod
    def from_json(cls, data: Any) -> Instant | None:
        """An instant kept as :meth:`to_json` made it; ``None`` when ``data``
        is not one."""
        if not isinstance(data, (list, tuple)) or len(data) != 3:
            return None
        boot, steady, wall = data
        if not isinstance(boot, str) or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                for x in (steady, wall)):
            return None
        return cls(boot, float(steady), float(wall))


def steady_now(wall: Callable[[], float] = time.time) -> Instant:
    """Now, on this boot's clock that never steps, and on the wall clock."""
    return Instant(boot_id(), time.monotonic(), wall())


def elapsed(since: Instant, now: Instant) -> float | None:
    """Seconds from ``since`` to ``now``: on the monotonic clock within one
    boot; across a reboot the wall clock's difference, when it is not
    negative; ``None`` when nobody can tell (a reboot onto a clock set
    back)."""
    if since.boot == now.boot:
        return max(0.0, now.steady - since.steady)
    gone = now.wall - since.wall
    return gone if gone >= 0 else None


def within(since: Instant, now: Instant, seconds: float) -> bool:
    """True when less than ``seconds`` have passed from ``since`` to
    ``now``.  Across a reboot onto a clock set back (which fake-hwclock
    does: it starts at the time it last saved), the wall clock is read
    either way."""
    gone = elapsed(since, now)
    if gone is None:
        gone = since.wall - now.wall
    return gone < seconds


def stepped(offset: float, wall: float, steady: float) -> float | None:
    """The step of the wall clock since ``offset`` (the wall clock less the
    monotonic clock, as it was) when the two now disagree by more than
    :data:`STEP_SECONDS`; ``None`` when they agree."""
    step = (wall - steady) - offset
    return step if abs(step) > STEP_SECONDS else None


# A game that lasted longer than this was left open: its length is not shown.
LONGEST_GAME_SECONDS = 24 * 3600.0


def game_seconds(started: Any, ended: Any) -> float | None:
    """How long a game lasted, from its two labels; ``None`` when they
    cannot say (missing, backwards, or longer than a day: the journal may
    hold a game that a clock step or a reboot cut across)."""
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
               for x in (started, ended)):
        return None
    gone = float(ended) - float(started)
    if gone < 0 or gone > LONGEST_GAME_SECONDS:
        return None
    return gone


class LabelClock:
    """The times the journal keeps (a game's start and end, each command's
    moment): the wall clock's, as long as it runs along the monotonic clock;
    once it steps, this clock does not follow (the step is logged once),
    so that a game's length and the order of its commands stay right.  A
    label is still only a label: :meth:`correct` sets this clock to the
    right time once it is known (the wall clock synchronized, or a trusted
    phone's date), and says by how much the labels it gave were off."""

    def __init__(self, wall: Callable[[], float] = time.time,
                 steady: Callable[[], float] = time.monotonic) -> None:
        self._wall = wall
        self._steady = steady
        self._lock = threading.Lock()
        self._offset: float | None = None
        # The wall clock's step not followed (0 when it runs along).
        self.step = 0.0

    def __call__(self) -> float:
        wall, steady = self._wall(), self._steady()
        with self._lock:
            if self._offset is None:
                self._offset = wall - steady
            step = stepped(self._offset, wall, steady)
            if step is None:
                # NTP slews a clock by a little at a time: follow it.
                self._offset = wall - steady
                self.step = 0.0
                return wall
            if step != self.step:
                log.warning("the wall clock stepped by %+.0f s; the times kept go on from "
                            "before the step (a game's length stays right)", step)
                self.step = step
            return steady + self._offset

    def correct(self, right_now: float) -> float:
        """Take ``right_now`` as the right wall-clock time now: the labels
        given from now on follow it; returns by how much the ones given
        before were off (to add to them)."""
        steady = self._steady()
        with self._lock:
            if self._offset is None:
                self._offset = right_now - steady
                return 0.0
            shift = (right_now - steady) - self._offset
            self._offset = right_now - steady
            # The wall clock may still be wrong (the time came from a phone):
            # its difference is known, not a new step to log.
            self.step = stepped(self._offset, self._wall(), steady) or 0.0
            return shift
