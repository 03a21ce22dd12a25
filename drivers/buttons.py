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
``bounce_time``: the same rule on every pin library, and gpiozero's mock pins
ignore ``bounce_time`` anyway.  So is the timing of long presses and repeats
(:class:`HoldTimer`): gpiozero's ``Button`` keeps a hold thread per button
that wakes ten times a second while nothing happens; the keys are plain
``DigitalInputDevice`` inputs and one thread sleeps until a held key is due.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from dataclasses import dataclass
from typing import Callable, Mapping

from gpiozero import DigitalInputDevice, RotaryEncoder

from companion.core import errors
from companion.core.menu import KEYS

log = logging.getLogger(__name__)

REPEATING_KEYS = frozenset({"up", "down"})
# The wiring of HARDWARE.md, as the config gives it by default.
# The reference wiring (HARDWARE.md), BCM numbers.
DEFAULT_PINS: Mapping[str, int] = {"up": 5, "down": 6, "ok": 13, "back": 19, "roll": 26}

KeyListener = Callable[[str, str], None]


@dataclass(frozen=True)
class EncoderPins:
    """Where a KY-040 rotary encoder is wired (BCM numbers)."""

    a: int = 17
    b: int = 27
    push: int = 22


class UnknownKey(errors.UnknownKey):
    """A key name that the keypad does not have."""

    def __init__(self, key: object) -> None:
        super().__init__(f"no key {key!r}; the keys are {', '.join(KEYS)}")


class NotSimulated(errors.CompanionError, RuntimeError):
    """:meth:`Keypad.press` was asked to drive pins that are not mock pins."""


class Debouncer:
    """Tells one key's presses from the chatter of its contacts.

    Fed every raw edge, it counts a press when the line was quiet (no edge
    either way) for ``window`` seconds before it.  A press that chatters
    therefore counts once, and so does the chatter of a release: its stray
    "press" edges follow the release within the window.  Two real presses
    closer together than ``window`` also count once; fingers are far slower
    than the 20 ms default.

    Deciding on the first edge, without waiting for the line to settle, needs
    no timer and no thread.
    """

    def __init__(self, window: float = 0.02,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if window < 0:
            raise ValueError(f"a debounce window is 0 or more seconds, not {window}")
        self.window = window
        self._clock = clock
        self._last_edge: float | None = None
        self._lock = threading.Lock()

    def edge(self, pressed: bool) -> bool:
        """Take one raw edge (``pressed``: the key went down); return True when
        it is a press that counts."""
        with self._lock:
            now = self._clock()
            quiet = self._last_edge is None or now - self._last_edge >= self.window
            self._last_edge = now
        return pressed and quiet


class HoldTimer:
    """One thread for the long presses and repeats of every key.

    :meth:`arm` asks for ``fire(key)`` ``delay`` seconds from now;
    :meth:`disarm` (the key is released) cancels it.  The thread sleeps
    until the nearest deadline, or without a timeout while no key is down:
    an idle keypad costs no wake-ups.
    """

    def __init__(self, fire: Callable[[str], None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._fire = fire
        self._clock = clock
        self._due: dict[str, float] = {}
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="keys held", daemon=True)
        self._thread.start()

    def arm(self, key: str, delay: float) -> None:
        with self._changed:
            self._due[key] = self._clock() + delay
            self._changed.notify()

    def disarm(self, key: str) -> None:
        with self._changed:
            # No notify: a thread woken for a deadline that is gone finds
            # nothing due and sleeps again.
            self._due.pop(key, None)

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
                key, due = min(self._due.items(), key=lambda item: item[1])
                left = due - self._clock()
                if left > 0:
                    self._changed.wait(left)
                    continue
                del self._due[key]
                self._changed.release()
                try:
                    self._fire(key)  # it may arm the key again
                finally:
                    self._changed.acquire()


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


def _require_mock(key: str, pin) -> None:
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
    tests and the simulation); ``clock`` feeds the debouncers.
    """

    def __init__(
        self,
        on_key: KeyListener,
        *,
        pins: Mapping[str, int] = DEFAULT_PINS,
        encoder: EncoderPins | None = None,
        hold_time: float = 0.8,
        repeat_interval: float = 0.15,
        debounce: float = 0.02,
        clock: Callable[[], float] = time.monotonic,
        pin_factory=None,
    ) -> None:
        for key in pins:
            if key not in KEYS:
                raise UnknownKey(key)
        if hold_time <= 0 or repeat_interval <= 0:
            raise ValueError(
                f"hold_time and repeat_interval are more than 0 seconds, "
                f"not {hold_time} and {repeat_interval}"
            )
        self._on_key = on_key
        self.hold_time = hold_time
        self.repeat_interval = repeat_interval
        self._buttons: dict[str, DigitalInputDevice] = {}
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
                self._add_button(key, pin, debounce, clock, pin_factory)
        except BaseException:
            self.close()
            raise

    def _add_button(self, key: str, pin: int, debounce: float,
                    clock: Callable[[], float], pin_factory) -> None:
        # To ground, with the internal pull-up: active (pressed) when low.
        button = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
        self._buttons[key] = button
        self._debouncers[key] = Debouncer(debounce, clock)
        button.when_activated = functools.partial(self._pressed, key)
        button.when_deactivated = functools.partial(self._released, key)

    # -- the pin library's side ------------------------------------------

    @_never_raises
    def _pressed(self, key: str) -> None:
        # Every edge down (chatter too) starts the hold delay again, and
        # every edge up cancels it: only a key that stays down is held.
        self._holds.arm(key, self.hold_time)
        if self._debouncers[key].edge(pressed=True):
            self._on_key(key, "press")

    @_never_raises
    def _released(self, key: str) -> None:
        self._holds.disarm(key)
        self._debouncers[key].edge(pressed=False)

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
        whole driver path runs (debouncer included: presses closer together
        than the debounce window count once, as on the real keys).  UP and
        DOWN on an encoder turn it one detent.

        Only for a keypad built on gpiozero's ``MockFactory``; raises
        :class:`NotSimulated` on real pins.
        """
        if key not in KEYS:
            raise UnknownKey(key)
        if key in self._buttons:
            pin = self._buttons[key].pin
            _require_mock(key, pin)
            pin.drive_low()
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
