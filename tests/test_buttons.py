"""The keypad on gpiozero's mock pins: debouncing, long presses, repeats,
the encoder, and callbacks that fail."""

from __future__ import annotations

import logging
import threading

import pytest
from gpiozero import Button
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory
from gpiozero.pins.pi import PiPin

from companion.core.errors import UnknownKey
from drivers.buttons import (
    DEFAULT_PINS,
    KEYS,
    Debouncer,
    EncoderPins,
    Keypad,
)
from drivers.mockpins import TimedMockPin

WAIT = 10.0  # generous: the hold thread runs in real time on a shared machine


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class KeyLog:
    """Records on_key calls and lets a test wait for them."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []
        self._changed = threading.Condition()

    def __call__(self, key: str, kind: str) -> None:
        with self._changed:
            self.events.append((key, kind))
            self._changed.notify_all()

    def wait_for(self, count: int, kind: str | None = None) -> bool:
        def enough() -> bool:
            wanted = [e for e in self.events if kind is None or e[1] == kind]
            return len(wanted) >= count

        with self._changed:
            return self._changed.wait_for(enough, WAIT)


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def keys():
    return KeyLog()


def pin_of(factory: MockFactory, key: str):
    return factory.pin(DEFAULT_PINS[key])


@pytest.fixture
def timed():
    """Mock pins driven at given times, as lgpio reports the kernel's."""
    factory = MockFactory(pin_class=TimedMockPin)
    yield factory
    factory.reset()


MS = 0.001


def chatter(pin, start: float, edges: int = 20, within: float = 5 * MS) -> float:
    """A press whose contacts bounce: ``edges`` edges within ``within``
    seconds from ``start``, ending down; returns the time of the last edge."""
    t = start
    for i in range(edges):
        t = start + i * within / edges
        pin.drive_low(ticks=t) if i % 2 == 0 else pin.drive_high(ticks=t)
    t += within / edges
    pin.drive_low(ticks=t)
    return t


# -- the debouncer alone, on exact times -------------------------------------
# Times are binary fractions where a boundary is tested, so that it is exact.


def test_a_low_spell_as_long_as_the_settle_time_is_a_press():
    debouncer = Debouncer(2**-8)
    debouncer.fall(10.0)
    assert debouncer.rise(10.0 + 2**-8) is True


def test_a_low_spell_just_shorter_than_the_settle_time_is_no_press():
    debouncer = Debouncer(2**-8)
    debouncer.fall(10.0)
    assert debouncer.rise(10.0 + 2**-8 - 2**-20) is False


def test_a_key_held_counts_when_its_timer_comes_and_not_again_at_release():
    debouncer = Debouncer(0.005)
    spell = debouncer.fall(10.0)
    assert debouncer.settled(spell) is True
    assert debouncer.settled(spell) is False
    assert debouncer.rise(10.5) is False


def test_the_timer_of_a_low_spell_that_ended_counts_nothing():
    debouncer = Debouncer(0.005)
    spell = debouncer.fall(10.0)
    debouncer.rise(10.0001)
    assert debouncer.settled(spell) is False


def test_after_a_press_the_line_must_stay_high_before_the_next_counts():
    debouncer = Debouncer(0.005)
    debouncer.fall(10.0)
    assert debouncer.rise(10.1) is True
    # The release chatters with a long low: it is still the same press.
    debouncer.fall(10.1 + 0.001)
    assert debouncer.rise(10.1 + 0.008) is False


def test_a_negative_settle_time_is_refused():
    with pytest.raises(ValueError, match="0 or more seconds"):
        Debouncer(-0.01)


# -- presses on mock pins, at the edges' times -------------------------------


def test_a_lone_spike_of_a_tenth_of_a_millisecond_is_no_press(timed, keys):
    with Keypad(keys, pin_factory=timed):
        roll = pin_of(timed, "roll")
        roll.drive_low(ticks=100.0)
        roll.drive_high(ticks=100.0 + 0.1 * MS)
    assert keys.events == []


def test_twenty_edges_of_chatter_are_one_press(timed, keys):
    with Keypad(keys, pin_factory=timed):
        ok = pin_of(timed, "ok")
        last = chatter(ok, 100.0)
        ok.drive_high(ticks=last + 0.1)
    assert keys.events == [("ok", "press")]


def test_chatter_then_holding_counts_once_when_the_line_settles(timed, keys):
    with Keypad(keys, pin_factory=timed):
        ok = pin_of(timed, "ok")
        chatter(ok, 100.0)
        # No further edge: the settle timer decides.
        assert keys.wait_for(1)
        ok.drive_high(ticks=200.0)
    assert keys.events == [("ok", "press")]


def test_two_real_presses_60_ms_apart_are_two(timed, keys):
    with Keypad(keys, pin_factory=timed):
        up = pin_of(timed, "up")
        for start in (100.0, 100.060):
            last = chatter(up, start, edges=6, within=1 * MS)
            up.drive_high(ticks=last + 30 * MS)
            # chatter of the release
            up.drive_low(ticks=last + 30.2 * MS)
            up.drive_high(ticks=last + 30.4 * MS)
    assert keys.events == [("up", "press"), ("up", "press")]


def test_each_key_reports_its_press(timed, keys):
    with Keypad(keys, pin_factory=timed):
        for i, key in enumerate(KEYS):
            pin_of(timed, key).drive_low(ticks=100.0 + i)
            pin_of(timed, key).drive_high(ticks=100.1 + i)
    assert keys.events == [(key, "press") for key in KEYS]


def test_the_settle_time_is_the_callers(timed, keys):
    with Keypad(keys, debounce=0.05, pin_factory=timed):
        back = pin_of(timed, "back")
        back.drive_low(ticks=100.0)
        back.drive_high(ticks=100.0 + 0.03)
        back.drive_low(ticks=101.0)
        back.drive_high(ticks=101.0 + 0.06)
    assert keys.events == [("back", "press")]


class UntimedPin(TimedMockPin):
    """A pin library that hands over no edge times."""

    def _call_when_changed(self):
        PiPin._call_when_changed(self, None, self._state)


def test_without_edge_times_the_keypad_says_so_once_and_uses_its_clock(keys, caplog):
    factory = MockFactory(pin_class=UntimedPin)
    clock = FakeClock()
    try:
        with caplog.at_level(logging.WARNING, logger="drivers.buttons"):
            with Keypad(keys, clock=clock, pin_factory=factory):
                ok = pin_of(factory, "ok")
                for _ in range(2):
                    ok.drive_low()
                    clock.advance(0.0001)  # a spike
                    ok.drive_high()
                    clock.advance(1.0)
                    ok.drive_low()
                    clock.advance(0.1)  # a press
                    ok.drive_high()
                    clock.advance(1.0)
    finally:
        factory.reset()
    assert keys.events == [("ok", "press"), ("ok", "press")]
    assert caplog.text.count("gives no edge times") == 1


def test_a_failing_callback_does_not_reach_the_pin(timed, caplog):
    def on_key(key: str, kind: str) -> None:
        raise RuntimeError("screen busy")

    with Keypad(on_key, pin_factory=timed):
        with caplog.at_level(logging.ERROR, logger="drivers.buttons"):
            pin_of(timed, "back").drive_low(ticks=100.0)
            pin_of(timed, "back").drive_high(ticks=100.1)
    assert "screen busy" in caplog.text


# -- holding keys (the keypad's hold thread, real time) --------------------


def test_holding_up_repeats(factory, keys):
    with Keypad(keys, hold_time=0.05, repeat_interval=0.02, pin_factory=factory):
        up = pin_of(factory, "up")
        up.drive_low()
        assert keys.wait_for(3, kind="repeat")
        up.drive_high()
    assert keys.events[0] == ("up", "press")
    assert set(keys.events[1:]) == {("up", "repeat")}


def test_holding_ok_gives_one_long(factory, keys):
    with Keypad(keys, hold_time=0.05, pin_factory=factory):
        ok = pin_of(factory, "ok")
        ok.drive_low()
        assert keys.wait_for(1, kind="long")
        # Held for several more hold times: a repeating OK would show here.
        threading.Event().wait(0.3)
        ok.drive_high()
    assert keys.events == [("ok", "press"), ("ok", "long")]


def test_a_callback_failing_on_the_first_hold_still_gets_later_holds(factory, caplog):
    longs = KeyLog()

    def on_key(key: str, kind: str) -> None:
        longs(key, kind)
        if kind == "long" and len([e for e in longs.events if e[1] == "long"]) == 1:
            raise RuntimeError("menu not ready")

    with caplog.at_level(logging.ERROR, logger="drivers.buttons"):
        with Keypad(on_key, hold_time=0.05, debounce=0.0, pin_factory=factory):
            back = pin_of(factory, "back")
            back.drive_low()
            assert longs.wait_for(1, kind="long")
            back.drive_high()
            back.drive_low()
            assert longs.wait_for(2, kind="long")
            back.drive_high()
    assert "menu not ready" in caplog.text


def test_five_keys_keep_one_thread_for_their_holds(factory, keys):
    before = threading.active_count()
    with Keypad(keys, pin_factory=factory):
        assert threading.active_count() - before == 1


def test_a_key_released_before_its_hold_time_gives_no_long(factory, keys):
    with Keypad(keys, hold_time=0.2, debounce=0.0, pin_factory=factory):
        ok = pin_of(factory, "ok")
        ok.drive_low()
        ok.drive_high()
        threading.Event().wait(0.4)  # twice the hold time
    assert keys.events == [("ok", "press")]


# -- the rotary encoder ----------------------------------------------------


def test_turning_the_encoder_clockwise_is_up_and_back_is_down(factory, keys):
    with Keypad(keys, encoder=EncoderPins(), pin_factory=factory) as keypad:
        keypad.press("up")
        keypad.press("up")
        keypad.press("down")
    assert keys.events == [("up", "press"), ("up", "press"), ("down", "press")]


def test_the_encoder_push_is_ok(timed, keys):
    with Keypad(keys, encoder=EncoderPins(), pin_factory=timed):
        timed.pin(22).drive_low(ticks=100.0)
        timed.pin(22).drive_high(ticks=100.1)
    assert keys.events == [("ok", "press")]


def test_with_an_encoder_the_up_down_ok_pins_stay_free(factory, keys):
    with Keypad(keys, encoder=EncoderPins(), pin_factory=factory):
        for key in ("up", "down", "ok"):
            Button(DEFAULT_PINS[key], pin_factory=factory).close()
        with pytest.raises(GPIOPinInUse):
            Button(DEFAULT_PINS["back"], pin_factory=factory)


# -- the simulation's press() and the keypad's life ------------------------


def test_press_runs_the_driver_path(timed, keys):
    with Keypad(keys, pin_factory=timed) as keypad:
        keypad.press("roll")
        keypad.press("ok")
        keypad.press("ok")
    assert keys.events == [("roll", "press"), ("ok", "press"), ("ok", "press")]
    assert pin_of(timed, "roll").state is True  # released again


def test_press_on_plain_mock_pins_holds_the_key_down_long_enough(factory, keys):
    with Keypad(keys, debounce=0.002, pin_factory=factory) as keypad:
        keypad.press("back")
    assert keys.events == [("back", "press")]


def test_press_of_an_unknown_key_names_the_keys(factory, keys):
    with Keypad(keys, pin_factory=factory) as keypad:
        with pytest.raises(UnknownKey, match="up, down, ok, back, roll"):
            keypad.press("left")


def test_a_pin_for_an_unknown_key_is_refused(factory, keys):
    with pytest.raises(UnknownKey, match="'select'"):
        Keypad(keys, pins={"select": 4}, pin_factory=factory)


def test_a_changed_pin_is_used_and_the_others_keep_their_defaults(timed, keys):
    with Keypad(keys, pins={"roll": 4}, pin_factory=timed):
        timed.pin(4).drive_low(ticks=100.0)
        timed.pin(4).drive_high(ticks=100.1)
        pin_of(timed, "up").drive_low(ticks=101.0)
        pin_of(timed, "up").drive_high(ticks=101.1)
    assert keys.events == [("roll", "press"), ("up", "press")]


def test_close_frees_every_pin(factory, keys):
    keypad = Keypad(keys, pin_factory=factory)
    with pytest.raises(GPIOPinInUse):
        Button(DEFAULT_PINS["ok"], pin_factory=factory)
    keypad.close()
    for pin in DEFAULT_PINS.values():
        Button(pin, pin_factory=factory).close()
