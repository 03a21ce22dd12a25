"""The keypad on gpiozero's mock pins: debouncing, long presses, repeats,
the encoder, and callbacks that fail."""

from __future__ import annotations

import logging
import threading

import pytest
from gpiozero import Button
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from drivers.buttons import (
    DEFAULT_PINS,
    KEYS,
    Debouncer,
    EncoderPins,
    Keypad,
    UnknownKey,
)

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


def chatter(pin, clock: FakeClock, edges: int = 20, within: float = 0.005) -> None:
    """A press whose contacts bounce: ``edges`` edges within ``within`` seconds,
    ending down."""
    for i in range(edges):
        if i:
            clock.advance(within / edges)
        pin.drive_low() if i % 2 == 0 else pin.drive_high()
    pin.drive_low()


# -- the debouncer alone, on an exact clock --------------------------------


def test_twenty_edges_within_five_ms_are_one_press(clock):
    debouncer = Debouncer(0.02, clock)
    counted = []
    for i in range(20):
        counted.append(debouncer.edge(pressed=i % 2 == 0))
        clock.advance(0.00025)
    assert counted.count(True) == 1
    assert counted[0] is True


def test_chatter_of_a_release_is_no_press(clock):
    debouncer = Debouncer(0.02, clock)
    debouncer.edge(pressed=True)
    clock.advance(1.0)
    counted = []
    for i in range(20):
        counted.append(debouncer.edge(pressed=i % 2 == 1))
        clock.advance(0.00025)
    assert counted.count(True) == 0


# Times in these two are binary fractions, so that the boundary is exact.


def test_a_press_a_whole_window_after_the_last_edge_counts(clock):
    debouncer = Debouncer(0.03125, clock)
    debouncer.edge(pressed=True)
    clock.advance(0.5)
    debouncer.edge(pressed=False)
    clock.advance(0.03125)
    assert debouncer.edge(pressed=True) is True


def test_a_press_just_inside_the_window_does_not_count(clock):
    debouncer = Debouncer(0.03125, clock)
    debouncer.edge(pressed=True)
    clock.advance(0.5)
    debouncer.edge(pressed=False)
    clock.advance(0.03125 - 2**-20)
    assert debouncer.edge(pressed=True) is False


def test_a_negative_window_is_refused():
    with pytest.raises(ValueError, match="0 or more seconds"):
        Debouncer(-0.01)


# -- presses on mock pins --------------------------------------------------


def test_each_key_reports_its_press(factory, clock, keys):
    with Keypad(keys, clock=clock, pin_factory=factory):
        for key in KEYS:
            pin_of(factory, key).drive_low()
            clock.advance(0.1)
            pin_of(factory, key).drive_high()
            clock.advance(1.0)
    assert keys.events == [(key, "press") for key in KEYS]


def test_chattering_ok_on_mock_pins_is_one_press(factory, clock, keys):
    with Keypad(keys, clock=clock, pin_factory=factory):
        chatter(pin_of(factory, "ok"), clock)
        clock.advance(0.3)
        pin_of(factory, "ok").drive_high()
    assert keys.events == [("ok", "press")]


def test_the_next_press_after_chatter_counts_again(factory, clock, keys):
    with Keypad(keys, clock=clock, pin_factory=factory):
        ok = pin_of(factory, "ok")
        chatter(ok, clock)
        clock.advance(0.3)
        ok.drive_high()
        clock.advance(0.5)
        chatter(ok, clock)
        clock.advance(0.3)
        ok.drive_high()
    assert keys.events == [("ok", "press"), ("ok", "press")]


def test_chatter_on_mock_pins_with_the_real_clock_is_one_press(factory, keys):
    # A wide window so that a stalled machine cannot split the burst.
    with Keypad(keys, debounce=0.5, pin_factory=factory):
        roll = pin_of(factory, "roll")
        for _ in range(10):
            roll.drive_low()
            roll.drive_high()
    assert keys.events == [("roll", "press")]


def test_a_failing_callback_does_not_reach_the_pin(factory, clock, caplog):
    def on_key(key: str, kind: str) -> None:
        raise RuntimeError("screen busy")

    with Keypad(on_key, clock=clock, pin_factory=factory):
        with caplog.at_level(logging.ERROR, logger="drivers.buttons"):
            pin_of(factory, "back").drive_low()
            pin_of(factory, "back").drive_high()
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


def test_turning_the_encoder_clockwise_is_up_and_back_is_down(factory, clock, keys):
    with Keypad(keys, encoder=EncoderPins(), clock=clock, pin_factory=factory) as keypad:
        keypad.press("up")
        keypad.press("up")
        keypad.press("down")
    assert keys.events == [("up", "press"), ("up", "press"), ("down", "press")]


def test_the_encoder_push_is_ok(factory, clock, keys):
    with Keypad(keys, encoder=EncoderPins(), clock=clock, pin_factory=factory):
        factory.pin(22).drive_low()
        factory.pin(22).drive_high()
    assert keys.events == [("ok", "press")]


def test_with_an_encoder_the_up_down_ok_pins_stay_free(factory, clock, keys):
    with Keypad(keys, encoder=EncoderPins(), clock=clock, pin_factory=factory):
        for key in ("up", "down", "ok"):
            Button(DEFAULT_PINS[key], pin_factory=factory).close()
        with pytest.raises(GPIOPinInUse):
            Button(DEFAULT_PINS["back"], pin_factory=factory)


# -- the simulation's press() and the keypad's life ------------------------


def test_press_runs_the_driver_path(factory, clock, keys):
    with Keypad(keys, clock=clock, pin_factory=factory) as keypad:
        keypad.press("roll")
        clock.advance(1.0)
        keypad.press("ok")
    assert keys.events == [("roll", "press"), ("ok", "press")]
    assert pin_of(factory, "roll").state is True  # released again


def test_press_of_an_unknown_key_names_the_keys(factory, keys):
    with Keypad(keys, pin_factory=factory) as keypad:
        with pytest.raises(UnknownKey, match="up, down, ok, back, roll"):
            keypad.press("left")


def test_a_pin_for_an_unknown_key_is_refused(factory, keys):
    with pytest.raises(UnknownKey, match="'select'"):
        Keypad(keys, pins={"select": 4}, pin_factory=factory)


def test_a_changed_pin_is_used_and_the_others_keep_their_defaults(factory, clock, keys):
    with Keypad(keys, pins={"roll": 4}, clock=clock, pin_factory=factory):
        factory.pin(4).drive_low()
        factory.pin(4).drive_high()
        clock.advance(1.0)
        pin_of(factory, "up").drive_low()
        pin_of(factory, "up").drive_high()
    assert keys.events == [("roll", "press"), ("up", "press")]


def test_close_frees_every_pin(factory, keys):
    keypad = Keypad(keys, pin_factory=factory)
    with pytest.raises(GPIOPinInUse):
        Button(DEFAULT_PINS["ok"], pin_factory=factory)
    keypad.close()
    for pin in DEFAULT_PINS.values():
        Button(pin, pin_factory=factory).close()
