"""Time that a clock step does not disturb (companion/core/clock.py), and
the times the journal kept set right once the right time is known."""

from __future__ import annotations

from companion.core.clock import Instant, LabelClock, elapsed, game_seconds, within
from companion.core.engine import Command
from companion.core.journal import Journal
from companion.core.table import Table, relabel

DAY = 86400.0


class Clocks:
    """A wall clock and a monotonic clock the test moves."""

    def __init__(self) -> None:
        self.wall_now = 1_700_000_000.0
        self.steady_now = 500.0

    def wall(self) -> float:
        return self.wall_now

    def steady(self) -> float:
        return self.steady_now

    def run(self, seconds: float) -> None:
        self.wall_now += seconds
        self.steady_now += seconds


def test_within_one_boot_ages_are_read_on_the_clock_that_never_steps():
    joined = Instant("boot-1", 100.0, 1_700_000_000.0)
    # The wall clock stepped a week ahead, then a day back: 10 minutes passed.
    assert within(joined, Instant("boot-1", 700.0, 1_700_000_000.0 + 7 * DAY), 3600)
    assert within(joined, Instant("boot-1", 700.0, 1_700_000_000.0 - DAY), 3600)
    assert not within(joined, Instant("boot-1", 100.0 + 3600, 1_700_000_000.0), 3600)
    assert elapsed(joined, Instant("boot-1", 700.0, 0.0)) == 600.0


def test_across_a_reboot_the_wall_clock_is_read_either_way():
    joined = Instant("boot-1", 100.0, 1_700_000_000.0)
    assert within(joined, Instant("boot-2", 5.0, 1_700_000_000.0 + 600), 3600)
    # fake-hwclock starts a little behind: still the same game night.
    assert within(joined, Instant("boot-2", 5.0, 1_700_000_000.0 - 600), 3600)
    assert not within(joined, Instant("boot-2", 5.0, 1_700_000_000.0 + 2 * 3600), 3600)
    assert elapsed(joined, Instant("boot-2", 5.0, 1_700_000_000.0 - 600)) is None


def test_an_instant_kept_in_a_cookie_comes_back_only_whole():
    kept = Instant("boot-1", 1.5, 2.5)
    assert Instant.from_json(kept.to_json()) == kept
    for broken in (None, 3.0, ["boot-1", 1.5], ["boot-1", "x", 2.5], [1, 1.5, 2.5],
                   ["boot-1", float("nan"), 2.5], ["boot-1", True, 2.5]):
        assert Instant.from_json(broken) is None


def test_a_games_length_is_none_when_its_times_cannot_say():
    assert game_seconds(100.0, 160.0) == 60.0
    assert game_seconds(160.0, 100.0) is None
    assert game_seconds(0.0, 2 * DAY) is None
    assert game_seconds(None, 100.0) is None
    assert game_seconds(100.0, float("inf")) is None


def test_the_label_clock_follows_a_slewed_clock_but_not_a_step(caplog):
    clocks = Clocks()
    labels = LabelClock(clocks.wall, clocks.steady)
    first = labels()
    clocks.run(60)
    clocks.wall_now += 2  # NTP's slew: followed
    assert labels() == clocks.wall_now
    clocks.wall_now += 7 * DAY  # a step: not followed, told once
    clocks.run(60)
    assert labels() == first + 122
    assert labels() == first + 122
    assert labels.step == 7 * DAY
    assert len([r for r in caplog.records if "stepped" in r.message]) == 1
    # The right time known: the labels given were off by the step.
    assert labels.correct(clocks.wall_now) == 7 * DAY
    assert labels() == clocks.wall_now


def test_a_date_from_a_phone_is_kept_while_the_wall_clock_stays_wrong(caplog):
    clocks = Clocks()
    labels = LabelClock(clocks.wall, clocks.steady)
    labels()
    assert labels.correct(clocks.wall_now + 730 * DAY) == 730 * DAY
    clocks.run(60)
    assert labels() == clocks.wall_now + 730 * DAY
    assert not [r for r in caplog.records if "stepped" in r.message]
    # NTP sets the wall clock right at last: no step from the labels' side.
    clocks.wall_now += 730 * DAY
    assert labels() == clocks.wall_now
    assert labels.step == 0.0


def test_the_times_kept_while_the_clock_was_wrong_are_set_right(tmp_path):
    clocks = Clocks()
    clocks.wall_now -= 730 * DAY  # a Pi two years behind
    labels = LabelClock(clocks.wall, clocks.steady)
    table = Table(Journal.open(tmp_path / "companion.db"), clock=labels)
    table.new_game("call-of-nature", ["Ana", "Ben"], variants=["no-end-roll"])
    clocks.run(60)
    table.submit(Command("card", {"value": 10}))
    clocks.run(60)
    table.submit(Command("adjust-mastery", {"player": "Ben", "delta": -7}))
    assert table.current().over
    before = table.games()[0]
    assert relabel(table, lambda: labels.correct(clocks.wall_now + 730 * DAY)) == 730 * DAY
    after = table.games()[0]
    assert after["started"] == before["started"] + 730 * DAY
    assert after["ended"] == before["ended"] + 730 * DAY
    # The game's history, as the phones read it, has the right times too.
    assert [e.at for e in table.history(after["id"])][-1] == after["ended"]
    stats = table.stats()
    players = stats["games"]["call-of-nature"]["players"]
    assert {p["first_played"] for p in players} == {after["started"]}
    # A game started after the correction is not moved again.
    table.new_game("call-of-nature", ["Ana", "Ben"])
    assert relabel(table, lambda: labels.correct(labels())) == 0
    assert table.games()[0]["started"] == after["started"]
    table.close()
    journal = Journal.open_read_only(tmp_path / "companion.db")
    assert journal.summary(after["id"])["started"] == after["started"]
    assert [e.at for e in journal.entries(after["id"])] == \
        [after["started"] + 60, after["started"] + 120]
    journal.close()
