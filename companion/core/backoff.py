"""How long to wait before trying again something that failed.

One policy for every retry of the companion: a part whose hardware is
missing (the keys, the buzzer, the panel's port), the display, the dice
device.  The wait doubles after each failure in a row, from ``first`` to
``most`` seconds, and is back to ``first`` once it works.  Adapters take a
:class:`Backoff` as a plain argument; :data:`BACKOFF` is the companion's.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import BadBackoff


@dataclass(frozen=True)
class Backoff:
    """Waits of ``first`` seconds after the first failure, doubling after
    each failure in a row up to ``most`` seconds."""

    first: float = 0.5
    most: float = 30.0

    def __post_init__(self) -> None:
        if not self.first > 0 or not self.most >= self.first:
            raise BadBackoff(
                f"a backoff waits first > 0 and most >= first seconds, "
                f"not first={self.first!r}, most={self.most!r}"
            )

    def delay(self, failures: int) -> float:
        """The wait after ``failures`` failures in a row (1 for the first)."""
        doublings = min(max(failures - 1, 0), 64)
        return float(min(self.first * 2.0**doublings, self.most))


BACKOFF = Backoff()
