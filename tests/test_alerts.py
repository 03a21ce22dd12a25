"""The die-face LEDs and the alert buzzer on gpiozero's mock pins."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from gpiozero.pins.mock import MockFactory

from companion.core.engine import Dice, Event
from drivers.alerts import DEFAULT_FACE_PINS, AlertBuzzer, DieFace

WAIT = 10.0

# Pin order: top-left, top-right, middle-left, centre, middle-right,
# bottom-left, bottom-right.
LIT = {
    1: ".  .  .  X  .  .  .",
    2: "X  .  .  .  .  .  X",
    3: "X  .  .  X  .  .  X",
    4: "X  X  .  .  .  X  X",
    5: "X  X  .  X  .  X  X",
    6: "X  X  X  .  X  X  X",
}


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture
def face(factory):
    face = DieFace(pin_factory=factory)
    yield face
    face.close()


def face_pins(factory):
    return [factory.pin(n) for n in DEFAULT_FACE_PINS]


def shown(factory) -> str:
    return "  ".join("X" if pin.state else "." for pin in face_pins(factory))


def wait_until(condition) -> bool:
    """Wait for something gpiozero's own threads do, without a fixed sleep."""
    pause = threading.Event()
    for _ in range(int(WAIT / 0.01)):
        if condition():
            return True
        pause.wait(0.01)
    return condition()


# -- the die face ---------------------------------------------------------------


@pytest.mark.parametrize("value", range(1, 7))
def test_each_value_lights_its_die_face(factory, face, value):
    for pin in face_pins(factory):
        pin.clear_states()
    face.show(value)
    assert shown(factory) == LIT[value]
    for pin, mark in zip(face_pins(factory), LIT[value].split(), strict=True):
        expected = [False, True] if mark == "X" else [False]
        assert len(pin.states) == len(expected)
        pin.assert_states(expected)


def test_a_new_value_puts_out_the_leds_of_the_old_one(factory, face):
    face.show(1)
    face.show(6)
    assert shown(factory) == LIT[6]
    centre = factory.pin(DEFAULT_FACE_PINS[3])
    centre.assert_states([False, True, False])


def test_a_red_die_roll_shows_as_the_same_face(factory, face):
    face.show_roll(Dice(4, 1, "red"), [4])
    assert shown(factory) == LIT[4]


def test_two_dice_show_the_first(factory, face):
    face.show_roll(Dice(6, 2), [3, 5])
    assert shown(factory) == LIT[3]


def test_a_value_no_face_can_show_clears_the_face(factory, face):
    face.show(5)
    face.show_roll(Dice(20), [17])
    assert shown(factory) == ".  .  .  .  .  .  ."


def test_showing_seven_is_refused(face):
    with pytest.raises(ValueError, match="a die face shows 1 to 6, not 7"):
        face.show(7)


def test_a_face_needs_seven_pins(factory):
    with pytest.raises(ValueError, match="7 LEDs, not 6 pins"):
        DieFace((16, 20, 21, 23, 24, 25), pin_factory=factory)


# -- the buzzer -------------------------------------------------------------------


@pytest.fixture
def buzzer(factory):
    buzzer = AlertBuzzer(on_time=0.01, off_time=0.01, beeps=2, pin_factory=factory)
    yield buzzer
    buzzer.close()


RESPITE = Event("respite", "Ana gets a Respite", alert=True)
CARD = Event("card", "Ana plays +5")


def update(action: str, *events: Event):
    return SimpleNamespace(action=action, events=events)


def test_an_alert_event_beeps_twice(factory, buzzer):
    pin = factory.pin(12)
    assert buzzer.on_update(update("command", CARD, RESPITE)) == [RESPITE]
    assert wait_until(lambda: len(pin.states) >= 5)
    pin.assert_states([False, True, False, True, False])


def test_an_update_without_alerts_is_silent(factory, buzzer):
    assert buzzer.on_update(update("command", CARD)) == []
    assert [s.state for s in factory.pin(12).states] == [False]


@pytest.mark.parametrize("action", ["replay", "undo", "new"])
def test_alerts_that_already_sounded_do_not_sound_again(factory, buzzer, action):
    assert buzzer.on_update(update(action, RESPITE)) == []
    assert [s.state for s in factory.pin(12).states] == [False]


def test_a_redone_alert_sounds_again(factory, buzzer):
    pin = factory.pin(12)
    assert buzzer.on_update(update("redo", RESPITE)) == [RESPITE]
    assert wait_until(lambda: pin.state)


def test_the_end_of_a_game_at_a_real_table_beeps(factory, buzzer, table, tally_game):
    table.subscribe(buzzer.on_update)
    table.new_game("tally", ["Ana", "Ben"], variants=["short"])
    table.submit_words("add 3")
    pin = factory.pin(12)
    assert [s.state for s in pin.states] == [False]
    table.submit_words("add 3")  # 6: the short game is over, an alert
    assert wait_until(lambda: len(pin.states) >= 5)
    pin.assert_states([False, True, False, True, False])
