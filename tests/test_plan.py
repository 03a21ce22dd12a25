"""The daemon's plan: each part takes the Setup and the parts it needs,
made before it, and says what it provides; news between parts goes on
one small bus."""

from __future__ import annotations

import inspect
import logging

import pytest

from companion.core.engine import Command
from companion.daemon import PLAN, part_class
from companion.parts.bus import Bus, DiceChanged, NetworkChanged, PixelsRolled
from companion.parts.lifecycle import Setup


def test_each_part_needs_only_what_the_parts_before_it_provide():
    provided: set[str] = set()
    for entry in PLAN:
        cls = part_class(entry)
        missing = set(cls.needs) - provided
        assert not missing, f"{entry} needs {missing}, which no part before it provides"
        assert not provided & set(cls.provides), f"{entry} provides a name already taken"
        provided |= set(cls.provides)


@pytest.mark.parametrize("entry", PLAN)
def test_each_part_takes_what_it_needs_in_its_constructor(entry):
    """The setup first, then each need as a keyword argument; any other
    argument has a default (a stand-in for tests, a clock)."""
    cls = part_class(entry)
    parameters = list(inspect.signature(cls).parameters.values())
    assert parameters[0].name == "setup"
    keywords = {p.name: p for p in parameters[1:] if p.kind is p.KEYWORD_ONLY}
    assert set(cls.needs) <= set(keywords)
    required = {name for name, p in keywords.items() if p.default is p.empty}
    assert required == set(cls.needs)
    assert all(p.kind is p.KEYWORD_ONLY for p in parameters[1:])


def test_only_the_table_and_the_panel_start_before_the_panel_answers():
    early = [entry for entry in PLAN if part_class(entry).early]
    assert early == ["companion.parts.table:TablePart", "companion.parts.web:WebPart"]


def test_news_reaches_its_listeners_in_order_until_they_stop():
    bus, heard = Bus(), []
    first = bus.subscribe(NetworkChanged, lambda news: heard.append(("first", news.what)))
    bus.subscribe(NetworkChanged, lambda news: heard.append(("second", news.what)))
    bus.subscribe(DiceChanged, lambda news: heard.append(("dice", "")))
    bus.tell(NetworkChanged("joined", "Home"))
    first()
    first()  # stopping twice is harmless
    bus.tell(NetworkChanged("lost"))
    assert heard == [("first", "joined"), ("second", "joined"), ("second", "lost")]


def test_a_listener_that_fails_is_logged_and_the_others_still_hear(caplog):
    bus, heard = Bus(), []

    def broken(news):
        raise RuntimeError("broken listener")

    bus.subscribe(PixelsRolled, broken)
    bus.subscribe(PixelsRolled, heard.append)
    with caplog.at_level(logging.ERROR):
        bus.tell(PixelsRolled("red", 6, 4))
    assert heard == [PixelsRolled("red", 6, 4)]
    assert "PixelsRolled" in caplog.text and "broken listener" in caplog.text


class Pixels:
    """The Pixels dice as the dice part sees them."""

    def __init__(self, away):
        self._away = away

    def away(self):
        return self._away

    def dice(self):
        return []


def test_the_dice_part_says_when_its_pixels_dice_are_out_of_reach(table):
    from companion.host.config import Config, Dice
    from companion.parts.hardware import DicePart

    setup = Setup(config=Config(dice=Dice(source="pixels")))
    assert DicePart(setup, table=table, pixels=Pixels(["Pixel Red"])).fault() == (
        "Pixels dice: Pixel Red out of reach")
    assert DicePart(setup, table=table, pixels=Pixels([])).fault() is None
    other = Setup(config=Config(dice=Dice(source="manual")))
    assert DicePart(other, table=table, pixels=Pixels(["Pixel Red"])).fault() is None


def test_a_changed_dice_source_and_a_pixels_roll_go_on_the_bus(table):
    from companion.parts.hardware import DicePart

    setup = Setup()
    told = []
    setup.bus.subscribe(DiceChanged, told.append)
    dice = DicePart(setup, table=table, pixels=None)
    dice.start()
    try:
        table.new_game("call-of-nature", ["Ana", "Ben"])
        dice.set_source("pixels")
        assert told == [DiceChanged()]
        table.submit_words("card 30")
        table.submit_words("card 20")  # exactly 50: Ben's Respite d6
        setup.bus.tell(PixelsRolled("d6", 6, 5))
        assert table.history()[-1].command == Command("roll", {"values": [5]})
    finally:
        dice.stop()
