"""The table's keys: five push buttons, or a KY-040 rotary encoder in place of
UP, DOWN and OK.

Every key reports through one callback, ``on_key(key, kind)``, with ``key`` one
of :data:`KEYS` and ``kind``:

- ``"press"`` the moment the key goes down, so the screen answers at once;
- ``"repeat"`` while UP or DOWN stays down: first after ``hold_time``, then
  every ``repeat_interval``, so a value can be run up quickly;
- ``"long"`` once when OK, BACK or ROLL stays down for ``hold_time``.  The key
  has already reported its ``"press"``: give a long press a meaning that
  follows on from the short one.

Turning the encoder reports one ``"press"`` of UP (clockwise) or DOWN per
detent; its push button is OK.

``on_key`` runs on the pin library's edge callbacks and on the keypad's one
hold thread: keep it quick and hand the work to a queue.  An exception it
raises is logged and swallowed: one escaping into the pin library's callback
thread, or into a hold thread, would end that thread and every later key
event it carries.

Debouncing is ours (:class:`Debouncer`) rather than gpiozero's
``bounce_time``: a press counts when the line has stayed low for a few
milliseconds, measured on the edge times the pin library hands over (the
kernel's timestamps with lgpio), so a lone glitch is no press and chatter is
one; gpiozero's mock pins ignore ``bounce_time`` anyway.  So is the timing of
long presses and repeats (:class:`HoldTimer`): gpiozero's ``Button`` keeps a
hold thread per button that wakes ten times a second while nothing happens;
the keys are plain ``DigitalInputDevice`` inputs and one thread sleeps until
a held key is due (or settled).
"""

from __future__ import annotations

import functools
import logging
import operator
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from gpiozero import DigitalInputDevice, RotaryEncoder

from companion.core import errors
from companion.core.keys import KEYS

log = logging.getLogger(__name__)

REPEATING_KEYS = frozenset({"up", "down"})
# The wiring of docs/build.md, as the config gives it by default.
# The reference wiring (docs/build.md), BCM numbers.
DEFAULT_PINS: Mapping[str, int] = {"up": 5, "down": 6, "ok": 13, "back": 19, "roll": 26}

KeyListener = Callable[[str, str], None]


@dataclass(frozen=True)
class EncoderPins:
    """Where a KY-040 rotary encoder is wired (BCM numbers)."""

    a: int = 17
    b: int = 27
    push: int = 22


def no_such_key(key: object) -> errors.UnknownKey:
    """The error for a key name that the keypad does not have."""
    return errors.UnknownKey(f"no key {key!r}; the keys are {', '.join(KEYS)}")


class NotSimulated(errors.CompanionError, RuntimeError):
    """:meth:`Keypad.press` was asked to drive pins that are not mock pins."""


class Debouncer:
    """Tells one key's presses from glitches and the chatter of its contacts,
    on the times the pin library gives each edge (the kernel's timestamps
    with lgpio), not the time Python gets round to the callback.

    A press counts when the line has stayed low for ``settle`` seconds: a
    lone spike shorter than that is no press.  It counts once per press: a
    chatter of short lows and highs before the line settles low counts once,
    when the line has settled; and after a counted press the line must stay
    high for ``settle`` before another low can count, so the chatter of a
    release counts nothing.  Two presses 60 ms apart are two.

    The decision comes either from the release edge (its time says the low
    lasted long enough) or, for a key still held, from :meth:`settled`,
    called by a timer ``settle`` seconds after the falling edge: no polling.
    ``ticks_diff`` is the pin factory's, so that ticks that wrap still give
    the right interval.
    """

    def __init__(self, settle: float = 0.005,
                 ticks_diff: Callable[[Any, Any], float] = operator.sub) -> None:
        if settle < 0:
            raise ValueError(f"a debounce time is 0 or more seconds, not {settle}")
        self.settle = settle
        self._diff = ticks_diff
        self._low_since: Any = None   # ticks of the falling edge of this low spell
        self._high_since: Any = None  # ticks of the last rising edge
        self._counted = False         # this low spell has counted already
        self._armed = True            # a low spell may count (high long enough before it)
        self._spell = 0               # numbers the low spells, for the timer
        self._lock = threading.Lock()

    def fall(self, ticks: Any) -> int:
        """The line went low at ``ticks``; returns the number of this low
        spell, to hand to :meth:`settled` ``settle`` seconds later.  With
        ``settle`` 0 a press counts at once: see :meth:`settled`."""
        with self._lock:
            if (not self._armed and self._high_since is not None
                    and self._diff(ticks, self._high_since) >= self.settle):
                self._armed = True
            self._low_since = ticks
            self._counted = False
            self._spell += 1
            return self._spell

    def rise(self, ticks: Any) -> bool:
        """The line went high at ``ticks``; True when the low spell it ends is
        a press that the timer has not counted yet."""
        with self._lock:
            self._spell += 1
            counts = (self._armed and not self._counted and self._low_since is not None
                      and self._diff(ticks, self._low_since) >= self.settle)
            if counts or self._counted:
                self._armed = False
            self._low_since = None
            self._counted = False
            self._high_since = ticks
            return counts

    def settled(self, spell: int) -> bool:
        """The timer's call: True when low spell ``spell`` is still going on
        (no edge since), may count and has not counted yet."""
        with self._lock:
            if spell != self._spell or not self._armed or self._counted:
                return False
            self._counted = True
            return True


class HoldTimer:
    """One thread for the settling, long presses and repeats of every key.

    :meth:`arm` asks for ``fire(name)`` (or the given ``fire``) ``delay``
    seconds from now; :meth:`disarm` (the key is released) cancels it.  The
    thread sleeps until the nearest deadline, or without a timeout while no
    key is down: an idle keypad costs no wake-ups.
    """

    def __init__(self, fire: Callable[[str], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._fire = fire
        self._clock = clock
        self._due: dict[str, tuple[float, Callable[[str], None]]] = {}
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="keys held", daemon=True)
        self._thread.start()

    def arm(self, name: str, delay: float,
            fire: Callable[[str], None] | None = None) -> None:
        with self._changed:
            self._due[name] = (self._clock() + delay, fire or self._fire)
            self._changed.notify()

    def disarm(self, name: str) -> None:
        with self._changed:
            # No notify: a thread woken for a deadline that is gone finds
            # nothing due and sleeps again.
            self._due.pop(name, None)

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._due.clear()
            self._changed.notify()
        if self._thread is not threading.current_thread():
            self._thread.join(5)

    def _run(self) -> None:
        with self._changed:
            while not self._closed:
                if not self._due:
                    self._changed.wait()
                    continue
                name, (due, fire) = min(self._due.items(), key=lambda item: item[1][0])
                left = due - self._clock()
                if left > 0:
                    self._changed.wait(left)
                    continue
                del self._due[name]
                self._changed.release()
                try:
                    fire(name)  # it may arm again
                finally:
                    self._changed.acquire()


class _KeyInput(DigitalInputDevice):
    """A key's input that keeps the ticks of the edge it is reporting, so that
    its ``when_activated``/``when_deactivated`` handlers can read them."""

    edge_ticks: Any = None

    def _pin_changed(self, ticks: Any, state: Any) -> None:
        self.edge_ticks = ticks
        super()._pin_changed(ticks, state)


def _never_raises(handler: Callable[..., None]) -> Callable[..., None]:
    """Log what a gpiozero-facing handler raises instead of letting it reach
    gpiozero's threads."""

    @functools.wraps(handler)
    def guarded(*args: object) -> None:
        try:
            handler(*args)
        except Exception:
            log.exception("key handler %s%r failed; the keypad goes on",
                          handler.__name__, args[1:])

    return guarded


def _require_mock(key: str, pin: Any) -> None:
    from gpiozero.pins.mock import MockPin

    if not isinstance(pin, MockPin):
        raise NotSimulated(
            f"press({key!r}) drives mock pins only, and {pin!r} is a real pin; "
            f"build the keypad with pin_factory=MockFactory() to simulate it"
        )


class Keypad:
    """Owns the key devices and turns their edges into ``on_key`` calls.

    ``pins`` maps key names to BCM pins and may name only the keys it
    changes; ``encoder`` (an :class:`EncoderPins`, or anything with ``a``,
    ``b`` and ``push``) replaces UP, DOWN and OK by a rotary encoder.
    ``pin_factory`` is passed to every gpiozero device (``MockFactory()`` in
    tests and the simulation).  ``debounce`` is how long a line must stay
    low for a press, measured on the pin library's edge times; ``clock``
    stands in for them with a pin library that gives none.
    """

    def __init__(
        self,
        on_key: KeyListener,
        *,
        pins: Mapping[str, int] = DEFAULT_PINS,
        encoder: EncoderPins | None = None,
        hold_time: float = 0.8,
        repeat_interval: float = 0.15,
        debounce: float = 0.005,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any = None,
    ) -> None:
        for key in pins:
            if key not in KEYS:
                raise no_such_key(key)
        if hold_time <= 0 or repeat_interval <= 0:
            raise ValueError(
                f"hold_time and repeat_interval are more than 0 seconds, "
                f"not {hold_time} and {repeat_interval}"
            )
        if debounce < 0:
            raise ValueError(f"a debounce time is 0 or more seconds, not {debounce}")
        self._on_key = on_key
        self.hold_time = hold_time
        self.repeat_interval = repeat_interval
        self.debounce = debounce
        self._clock = clock
        self._no_ticks_logged = False
        self._simulated_until = float("-inf")
        self._buttons: dict[str, _KeyInput] = {}
        self._debouncers: dict[str, Debouncer] = {}
        self._encoder: RotaryEncoder | None = None
        self._closed = False
        self._holds = HoldTimer(self._held)
        wiring = {**DEFAULT_PINS, **pins}
        try:
            if encoder is not None:
                # max_steps=0: count steps without bound; only the direction matters.
                self._encoder = RotaryEncoder(encoder.a, encoder.b, max_steps=0,
                                              pin_factory=pin_factory)
                self._encoder.when_rotated_clockwise = functools.partial(
                    self._rotated, "up")
                self._encoder.when_rotated_counter_clockwise = functools.partial(
                    self._rotated, "down")
                wiring = {"ok": encoder.push, "back": wiring["back"], "roll": wiring["roll"]}
            for key, pin in wiring.items():
                self._add_button(key, pin, pin_factory)
        except BaseException:
            self.close()
            raise

    def _add_button(self, key: str, pin: int, pin_factory: Any) -> None:
        # To ground, with the internal pull-up: active (pressed) when low.
        button = _KeyInput(pin, pull_up=True, pin_factory=pin_factory)
        self._buttons[key] = button
        self._debouncers[key] = Debouncer(self.debounce, button.pin_factory.ticks_diff)
        button.when_activated = functools.partial(self._pressed, key)
        button.when_deactivated = functools.partial(self._released, key)

    def _ticks(self, key: str) -> Any:
        """The time of the edge being reported, from the pin library, or the
        clock's reading when it gives none."""
        ticks = self._buttons[key].edge_ticks
        if ticks is not None:
            return ticks
        if not self._no_ticks_logged:
            self._no_ticks_logged = True
            log.warning("the pin library gives no edge times; the keys are "
                        "debounced on the time their edges are handled")
            # The clock's readings and the factory's ticks must not mix.
            for debouncer in self._debouncers.values():
                debouncer._diff = operator.sub
        return self._clock()

    # -- the pin library's side ------------------------------------------

    @_never_raises
    def _pressed(self, key: str) -> None:
        # Every edge down (chatter too) starts the hold delay again, and
        # every edge up cancels it: only a key that stays down is held.
        self._holds.arm(key, self.hold_time)
        spell = self._debouncers[key].fall(self._ticks(key))
        if self.debounce == 0:
            self._settled(key, spell)
        else:
            self._holds.arm(f"{key} settled", self.debounce,
                            functools.partial(self._settle_due, key, spell))

    @_never_raises
    def _released(self, key: str) -> None:
        self._holds.disarm(key)
        self._holds.disarm(f"{key} settled")
        if self._debouncers[key].rise(self._ticks(key)):
            self._on_key(key, "press")

    def _settle_due(self, key: str, spell: int, _name: str) -> None:
        self._settled(key, spell)

    @_never_raises
    def _settled(self, key: str, spell: int) -> None:
        if self._closed or not self._buttons[key].is_active:
            return
        if self._debouncers[key].settled(spell):
            self._on_key(key, "press")

    @_never_raises
    def _held(self, key: str) -> None:
        if self._closed or not self._buttons[key].is_active:
            return
        if key in REPEATING_KEYS:
            self._holds.arm(key, self.repeat_interval)
            self._on_key(key, "repeat")
        else:
            self._on_key(key, "long")

    @_never_raises
    def _rotated(self, key: str) -> None:
        self._on_key(key, "press")

    # -- the simulation's side --------------------------------------------

    def press(self, key: str) -> None:
        """Press and release ``key`` by driving the mock pins, so that the
        whole driver path runs, debouncer included: the key stays down a
        little longer than the debounce time (on :class:`~drivers.mockpins.TimedMockPin` pins
        by the edges' times, on plain mock pins by waiting).  UP and DOWN on
        an encoder turn it one detent.

        Only for a keypad built on gpiozero's ``MockFactory``; raises
        :class:`NotSimulated` on real pins.
        """
        if key not in KEYS:
            raise no_such_key(key)
        if key in self._buttons:
            button = self._buttons[key]
            pin = button.pin
            _require_mock(key, pin)
            down_for = self.debounce * 1.5
            from drivers.mockpins import TimedMockPin

            if isinstance(pin, TimedMockPin):
                # After the last simulated release, with a quiet spell.
                start = max(button.pin_factory.ticks(), self._simulated_until + down_for)
                self._simulated_until = start + down_for
                pin.drive_low(ticks=start)
                pin.drive_high(ticks=start + down_for)
            else:
                pin.drive_low()
                threading.Event().wait(down_for)
                pin.drive_high()
            return
        assert self._encoder is not None
        lead, follow = self._encoder.a.pin, self._encoder.b.pin
        if key == "down":
            lead, follow = follow, lead
        _require_mock(key, lead)
        _require_mock(key, follow)
        # One full quadrature cycle: the leading contact closes first and
        # opens first.
        lead.drive_low()
        follow.drive_low()
        lead.drive_high()
        follow.drive_high()

    # -- life ---------------------------------------------------------------

    def close(self) -> None:
        """Close every device (idempotent); no key reports after this."""
        self._closed = True
        self._holds.close()
        for button in self._buttons.values():
            button.close()
        if self._encoder is not None:
            self._encoder.close()

    def __enter__(self) -> Keypad:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
