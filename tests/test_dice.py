"""Dice sources: the ROLL key's roll, the device's rolls, and the source
switch."""

from __future__ import annotations

import logging
import random
import secrets

import pytest

from companion.core.engine import Command, Dice, Expectation
from companion.core.errors import NotExpected
from companion.core.table import ANY_GAME
from drivers.dice import SOURCES, DiceTray, RollListener, UnknownDiceSource, awaited_dice, roll

D6 = Dice(6)
TWO_D6 = Dice(6, 2)
RED = Dice(4, 1, "red")
BLUE = Dice(2, 1, "blue")


class ScriptedRandom(random.Random):
    """Gives the faces it is told to, and records the ranges asked for."""

    def __init__(self, *faces: int) -> None:
        super().__init__()
        self.faces = list(faces)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.asked.append((a, b))
        return self.faces.pop(0)


class FakeGame:
    """What the wiring gives the tray: what the game waits for, and submit."""

    def __init__(self, awaiting: Dice | None) -> None:
        self.awaiting = awaiting
        self.submitted: list[list[int]] = []
        self.versions: list[int | None] = []
        self.games: list[object] = []
        self.refusal: Exception | None = None

    def waiting(self) -> Dice | None:
        return self.awaiting

    def submit(self, values: list[int], expected_version: int | None = None, *,
               expected_game: object = ANY_GAME) -> None:
        if self.refusal is not None:
            raise self.refusal
        self.submitted.append(values)
        self.versions.append(expected_version)
        self.games.append(expected_game)


def tray_for(game: FakeGame, source: str, rng: random.Random | None = None) -> DiceTray:
    return DiceTray(game.waiting, game.submit, source=source,
                    rng=rng or secrets.SystemRandom())


# -- roll() -------------------------------------------------------------------


def test_rolling_two_d6_gives_two_faces_of_a_d6():
    rng = ScriptedRandom(3, 5)
    assert roll(TWO_D6, rng) == [3, 5]
    assert rng.asked == [(1, 6), (1, 6)]


def test_the_red_die_rolls_one_to_four_and_the_blue_one_to_two():
    rng = ScriptedRandom(4, 2)
    assert roll(RED, rng) + roll(BLUE, rng) == [4, 2]
    assert rng.asked == [(1, 4), (1, 2)]


def test_rolls_use_the_operating_systems_randomness_by_default():
    assert isinstance(roll.__defaults__[0], secrets.SystemRandom)


def test_a_thousand_red_rolls_show_every_face_and_no_other():
    faces = {value for _ in range(1000) for value in roll(RED)}
    assert faces == {1, 2, 3, 4}


# -- awaited_dice() -----------------------------------------------------------


def test_the_awaited_dice_are_those_of_the_roll_expectation():
    expected = [
        Expectation("card", "Ana plays a card", player=0),
        Expectation("roll", "Ana rolls for Respite", player=0, dice=D6),
    ]
    assert awaited_dice(expected) == D6


def test_no_roll_expected_means_no_awaited_dice():
    assert awaited_dice([Expectation("card", "Ana plays a card", player=0)]) is None


# -- the ROLL key ---------------------------------------------------------


def test_roll_key_rolls_the_two_d6_the_game_waits_for():
    game = FakeGame(TWO_D6)
    tray = tray_for(game, "button", ScriptedRandom(6, 1))
    assert tray.on_roll_button() is None
    assert game.submitted == [[6, 1]]


def test_roll_key_rolls_the_red_die_from_one_to_four():
    game = FakeGame(RED)
    rng = ScriptedRandom(3)
    tray_for(game, "button", rng).on_roll_button()
    assert game.submitted == [[3]]
    assert rng.asked == [(1, 4)]


def test_roll_key_with_manual_dice_rolls_nothing_and_says_why():
    game = FakeGame(D6)
    reason = tray_for(game, "manual").on_roll_button()
    assert reason == "the dice are entered by hand: roll the game's dice and enter the values"
    assert game.submitted == []


def test_roll_key_with_the_dice_device_rolls_nothing_and_says_why():
    game = FakeGame(D6)
    reason = tray_for(game, "serial").on_roll_button()
    assert reason == "the dice come from the dice device: roll it"
    assert game.submitted == []


def test_roll_key_when_no_roll_is_awaited_rolls_nothing():
    game = FakeGame(None)
    assert tray_for(game, "button").on_roll_button() == "the game is not waiting for a roll"
    assert game.submitted == []


def test_a_refused_roll_is_reported():
    game = FakeGame(D6)
    game.refusal = NotExpected("'roll' is not expected now; the game waits for: Ben plays")
    tray = tray_for(game, "button", ScriptedRandom(2))
    reason = tray.on_roll_button()
    assert reason == ("the game refused the roll [2]: 'roll' is not expected now; "
                      "the game waits for: Ben plays")
    assert game.submitted == []


# -- a phone's roll -----------------------------------------------------------


def test_a_phones_roll_rolls_what_the_game_waits_for_against_its_game_and_version():
    game = FakeGame(RED)
    tray = tray_for(game, "manual", ScriptedRandom(3, 5))
    assert tray.roll(expected_version=7, expected_game=44) == [3]
    assert game.submitted == [[3]] and game.versions == [7] and game.games == [44]
    tray.roll()
    assert game.games == [44, ANY_GAME]


def test_a_phones_roll_when_no_roll_is_awaited_is_refused_and_rolls_nothing():
    game = FakeGame(None)
    with pytest.raises(NotExpected, match="not waiting for a roll"):
        tray_for(game, "button").roll()
    assert game.submitted == []


def test_a_phones_roll_the_game_refuses_raises_the_refusal():
    game = FakeGame(D6)
    game.refusal = NotExpected("'roll' is not expected now")
    with pytest.raises(NotExpected, match="not expected now"):
        tray_for(game, "button", ScriptedRandom(2)).roll()


# -- the dice device ----------------------------------------------------------


def test_a_device_roll_of_the_awaited_dice_is_played():
    game = FakeGame(TWO_D6)
    tray = tray_for(game, "serial")
    assert tray.on_serial_roll(6, (3, 5)) is None
    assert game.submitted == [[3, 5]]
    assert tray.ignored == {}


def test_a_d6_from_the_device_while_the_red_die_is_awaited_is_ignored(caplog):
    game = FakeGame(RED)
    tray = tray_for(game, "serial")
    with caplog.at_level(logging.WARNING, logger="drivers.dice"):
        reason = tray.on_serial_roll(6, [5])
    assert reason == "the device rolled 1 d6 but the game waits for red (1 d4)"
    assert game.submitted == []
    assert tray.ignored == {"wrong-dice": 1}
    assert "red (1 d4)" in caplog.text


def test_one_d6_from_the_device_while_two_are_awaited_is_ignored():
    game = FakeGame(TWO_D6)
    tray = tray_for(game, "serial")
    tray.on_serial_roll(6, [4])
    assert game.submitted == []
    assert tray.ignored == {"wrong-dice": 1}


def test_a_device_roll_while_the_roll_key_is_the_source_is_ignored():
    game = FakeGame(D6)
    tray = tray_for(game, "button")
    assert tray.on_serial_roll(6, [4]) == "the dice source is button"
    assert game.submitted == []
    assert tray.ignored == {"not-the-source": 1}


def test_a_device_roll_nobody_waits_for_is_ignored():
    game = FakeGame(None)
    tray = tray_for(game, "serial")
    tray.on_serial_roll(6, [4])
    tray.on_serial_roll(6, [2])
    assert tray.ignored == {"not-waiting": 2}


def test_a_device_roll_the_game_refuses_is_counted():
    game = FakeGame(D6)
    game.refusal = NotExpected("'roll' is not expected now")
    tray = tray_for(game, "serial")
    tray.on_serial_roll(6, [4])
    assert tray.ignored == {"refused": 1}


# -- the source switch ---------------------------------------------------------


def test_the_source_changes_at_run_time():
    game = FakeGame(D6)
    tray = tray_for(game, "button")
    tray.source = "serial"
    assert tray.on_serial_roll(6, [1]) is None
    assert game.submitted == [[1]]


def test_an_unknown_source_is_refused_naming_the_sources():
    tray = tray_for(FakeGame(D6), "button")
    with pytest.raises(UnknownDiceSource,
                       match="'bluetooth'; the sources are button, manual, serial, pixels"):
        tray.source = "bluetooth"
    assert tray.source == "button"
    assert SOURCES == ("button", "manual", "serial", "pixels")


def test_an_unknown_source_is_refused_at_the_start():
    with pytest.raises(ValueError, match="the sources are"):
        tray_for(FakeGame(D6), "usb")


# -- at a real table (the ``tally`` test game rolls a d6 at every 5) ---------


def test_the_roll_key_at_a_table_plays_the_roll_the_game_waits_for(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit_words("add 2")
    table.submit_words("add 3")
    tray = DiceTray.at_table(table, source="button", rng=ScriptedRandom(4))
    assert tray.on_roll_button() is None
    assert table.current().state["rolls"] == [4]
    assert table.history()[-1].source == "dice"


def test_a_device_roll_at_a_table_that_waits_for_none_is_ignored(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    tray = DiceTray.at_table(table, source="serial")
    assert tray.on_serial_roll(6, [4]) == "the game is not waiting for a roll"
    assert table.version == 0


def test_a_table_without_a_game_waits_for_no_roll(table):
    tray = DiceTray.at_table(table, source="button")
    assert tray.on_roll_button() == "the game is not waiting for a roll"


def test_a_panel_roll_after_the_table_moved_on_is_refused(table):
    """The table's ROLL button rolled first: the phone's roll, made against
    the state before, is stale and rolls nothing."""
    from companion.core.errors import StaleVersion
    from companion.parts.hardware import DicePart
    from companion.parts.lifecycle import Setup

    table.new_game("call-of-nature", ["Ana", "Ben"])
    table.submit(Command("card", {"value": 30}))
    table.submit(Command("card", {"value": 20}))  # exactly 50: Ben's Respite d6
    seen = table.version
    dice = DicePart(Setup(), table=table, pixels=None)
    table.submit(Command("roll", {"values": [2]}))  # the table's own roll
    before = table.game.dumps()
    with pytest.raises(StaleVersion):
        dice.roll(expected_version=seen)
    assert table.game.dumps() == before


def test_a_panel_roll_is_heard_from_the_table_like_a_roll_of_the_table(table):
    """The LEDs and the table screen hear the phone's roll too: from the
    table's update, as the dice service's roll."""
    from companion.parts.hardware import DicePart
    from companion.parts.lifecycle import Setup

    table.new_game("call-of-nature", ["Ana", "Ben"])
    table.submit(Command("card", {"value": 30}))
    table.submit(Command("card", {"value": 20}))  # exactly 50: Ben's Respite d6
    dice = DicePart(Setup(simulate=True), table=table, pixels=None)
    dice.start()
    heard = []
    table.subscribe(RollListener(lambda rolled, values: heard.append((rolled.name, values)),
                                 table.current()))
    try:
        values = dice.roll(expected_version=table.version)
        assert heard == [("d6", values)]
        assert table.history()[-1].command == Command("roll", {"values": values})
        assert table.history()[-1].source == "dice"
    finally:
        dice.stop()


# -- hearing the rolls from the table ---------------------------------------------


def test_the_roll_listener_hears_the_trays_rolls_with_the_dice_awaited(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    heard = []
    table.subscribe(RollListener(lambda dice, values: heard.append((dice, values))))
    table.submit_words("add 2")
    table.submit_words("add 3")  # 5: the game waits for a d6
    DiceTray.at_table(table, source="button", rng=ScriptedRandom(4)).on_roll_button()
    assert heard == [(D6, [4])]


def test_the_roll_listener_ignores_rolls_entered_by_hand_and_undone_rolls(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    heard = []
    table.subscribe(RollListener(lambda dice, values: heard.append(values)))
    table.submit_words("add 2")
    table.submit_words("add 3")
    table.submit(Command("roll", {"values": [2]}), source="buttons")  # entered by hand
    table.undo()
    table.submit(Command("roll", {"values": [6]}), source="dice")
    assert heard == [[6]]


def test_the_roll_listener_starts_from_the_update_it_is_given(table, tally_game):
    table.new_game("tally", ["Ana", "Ben"])
    table.submit_words("add 2")
    table.submit_words("add 3")  # the game waits for a d6 already
    heard = []
    table.subscribe(RollListener(lambda dice, values: heard.append((dice, values)),
                                 table.current()))
    DiceTray.at_table(table, source="button", rng=ScriptedRandom(3)).on_roll_button()
    assert heard == [(D6, [3])]
