"""Mock pins for the simulation and the tests, driven at given times.

Kept apart from :mod:`drivers.buttons` so that the real keypad on a Pi does
not import gpiozero's mock pins."""

from __future__ import annotations

from gpiozero.pins.mock import MockPin


class TimedMockPin(MockPin):
    """gpiozero's mock pin, driven at given times: ``drive_low(ticks=...)``
    reports that edge with those ticks through gpiozero's own callback path,
    as lgpio reports the kernel's timestamps.  Build the factory with
    ``MockFactory(pin_class=TimedMockPin)``; without ``ticks`` it behaves as
    a plain mock pin."""

    _next_ticks: float | None = None

    def _change_state(self, value: bool) -> bool:
        changed = bool(super()._change_state(value))
        if changed and self._next_ticks is not None:
            self._last_change = self._next_ticks
        return changed

    def drive_low(self, ticks: float | None = None) -> None:
        self._next_ticks = ticks
        try:
            super().drive_low()
        finally:
            self._next_ticks = None

    def drive_high(self, ticks: float | None = None) -> None:
        self._next_ticks = ticks
        try:
            super().drive_high()
        finally:
            self._next_ticks = None
