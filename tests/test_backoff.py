"""The one backoff: how long every retry of the companion waits (the parts
whose hardware is missing, the display, the dice device, the panel)."""

from __future__ import annotations

import pytest

from companion.core.backoff import BACKOFF, Backoff
from companion.core.errors import BadBackoff
from companion.parts.lifecycle import Retrying


def test_the_wait_doubles_after_each_failure_up_to_the_longest():
    backoff = Backoff(0.5, 4.0)
    assert [backoff.delay(n) for n in range(1, 7)] == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]


def test_a_day_of_failures_still_waits_the_longest():
    assert BACKOFF.delay(100_000) == BACKOFF.most


@pytest.mark.parametrize("first, most", [(0, 1), (-1, 1), (2, 1), (float("nan"), 1)])
def test_a_backoff_that_never_waits_or_shrinks_is_refused(first, most):
    with pytest.raises(BadBackoff, match="first > 0 and most >= first"):
        Backoff(first, most)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Flaky(Retrying):
    """A part whose hardware answers from the ``works_from``-th attempt."""

    name = "flaky"
    what = "flaky thing"

    def __init__(self, clock: Clock, works_from: int) -> None:
        super().__init__(clock, Backoff(1.0, 4.0))
        self.clock = clock
        self.works_from = works_from
        self.attempts: list[float] = []

    def open(self) -> None:
        self.attempts.append(self.clock.now)
        if len(self.attempts) < self.works_from:
            raise OSError("not plugged in")


def test_a_missing_part_is_tried_again_after_the_backoffs_waits():
    clock = Clock()
    part = Flaky(clock, works_from=5)
    part.start()
    assert part.fault() == "flaky thing: not plugged in"
    while clock.now < 20:
        clock.now += 0.5
        part.tick()
    assert part.attempts == [0.0, 1.0, 3.0, 7.0, 11.0]
    assert part.fault() is None


def test_every_retry_loop_waits_by_the_one_backoff():
    import inspect

    from drivers.oled import Display
    from drivers.serial_dice import SerialDiceReader

    for retrying in (Retrying, Display, SerialDiceReader):
        assert inspect.signature(retrying).parameters["backoff"].default is BACKOFF
