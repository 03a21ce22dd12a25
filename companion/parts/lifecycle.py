"""The parts of the appliance and their life: start, tick, fault, stop.

Each part says what it ``needs`` (the parts its constructor takes, by
name, as keyword arguments) and what it ``provides`` (the names the parts
after it ask for); every part also takes the :class:`PartContext`, what the
daemon gives them all, the way gpiozero gives every device its pin
factory.  The daemon makes them in the order of its plan
(:data:`companion.daemon.PLAN`), starts them and stops them in the
reverse order.  A component whose ``start()`` raises is not there: the
daemon logs it by name and, unless it is ``essential``, goes on without it.
:class:`Retrying` is for hardware that may be missing or unplugged: it
tries again from the main loop's ticks, waiting longer after each failure
(the companion's one backoff, :data:`companion.core.backoff.BACKOFF`).
Pure: no hardware, no threads; the clock is given.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar

from companion.core.backoff import BACKOFF, Backoff
from companion.host.config import Config
from companion.parts.bus import Bus
from companion.parts.frames import Frames

log = logging.getLogger(__name__)


class Component:
    """One part of the appliance.  ``start()`` raising means it is not
    there; the daemon logs it by name, shows ``fault()`` on the panel and,
    unless ``essential``, goes on.  ``tick()`` runs on every wake of the
    main loop (retries live there)."""

    name = "component"
    essential = False
    # The parts its constructor takes (keyword arguments, made before it),
    # the names it is asked for by, and whether it starts as soon as it is
    # made, before the panel answers (the table and the panel).
    needs: ClassVar[tuple[str, ...]] = ()
    provides: ClassVar[tuple[str, ...]] = ()
    early: ClassVar[bool] = False
    # The news it tells on the bus and the news it hears there (types of
    # companion.parts.bus; a test reads them from the code).
    tells: ClassVar[tuple[type, ...]] = ()
    hears: ClassVar[tuple[type, ...]] = ()
    # Whether the table's screen shows its fault again and again while it
    # lasts (the table's: the players cannot play on unaware of it), not
    # only when it appears.
    fault_lasts: ClassVar[bool] = False

    def provided(self, name: str) -> Any:
        """What the parts that need ``name`` (one of ``provides``) get."""
        return self

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def fault(self) -> str | None:
        return None

    def tick(self) -> None:
        pass


def no_pin_factory() -> Any:
    """gpiozero's default: the board's own pins."""
    return None


@dataclass(frozen=True)
class PartContext:
    """What every part takes: the companion's ``config``, its data
    ``directory``, whether the table is simulated (``simulate``), the parts'
    :class:`~companion.parts.bus.Bus`, the table screen's ``frames`` (the one
    copy of the frame shown: the screen writes it, the panel's mirror reads
    it), ``faults()`` (what is missing now, for
    the players), ``pin_factory()`` (gpiozero's pin factory for the
    buttons and outputs, asked when they are made: None is the board's
    own) and ``i2c``, the display's interface (None: luma's own)."""

    config: Config = field(default_factory=Config)
    directory: Path = Path(".")
    simulate: bool = False
    bus: Bus = field(default_factory=Bus)
    frames: Frames = field(default_factory=Frames)
    faults: Callable[[], list[str]] = list
    pin_factory: Callable[[], Any] = no_pin_factory
    i2c: Any = None


def seconds(delay: float) -> str:
    """A wait as the log says it: "0.5 s", "2 s"."""
    return f"{delay:g} s"


class FaultLog:
    """Says each cause of a failed start once: a part that fails for the
    same reason as another (the buttons and the LEDs, with no GPIO) names
    that part instead of repeating the reason."""

    def __init__(self) -> None:
        self._first: dict[str, str] = {}

    def failed(self, name: str, cause: str, delay: float) -> None:
        first = self._first.setdefault(cause, name)
        if first != name:
            log.error("%s failed to start for the same reason as the %s; tries again in %s",
                      name, first, seconds(delay))
        else:
            log.error("%s failed to start (%s); the companion goes on without it and "
                      "tries again in %s", name, cause, seconds(delay))


class Retrying(Component):
    """A component whose hardware may be missing: ``open()`` is tried at
    start and again, with a growing wait, until it works."""

    what = "hardware"

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 backoff: Backoff = BACKOFF) -> None:
        self._clock = clock
        self.backoff = backoff
        self._failures = 0
        self._retry_at = 0.0
        self._fault: str | None = None
        self._opened = False
        self._stopped = False
        # The daemon gives every part one, so that a cause is said once.
        self.fault_log = FaultLog()

    def open(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def start(self) -> None:
        self._attempt()

    def tick(self) -> None:
        if not self._opened and not self._stopped and self._clock() >= self._retry_at:
            self._attempt()

    def stop(self) -> None:
        self._stopped = True
        if self._opened:
            self._opened = False
            self.close()

    def fault(self) -> str | None:
        return self._fault

    def _attempt(self) -> None:
        try:
            self.open()
        except Exception as exc:
            message = f"{self.what}: {exc}"
            self._failures += 1
            delay = self.backoff.delay(self._failures)
            if message != self._fault:
                self.fault_log.failed(self.name, str(exc), delay)
            self._retry_at = self._clock() + delay
            self._fault = message
            return
        if self._failures:
            log.info("%s started after %d failed attempt(s)", self.name, self._failures)
        self._opened = True
        self._failures = 0
        self._fault = None
